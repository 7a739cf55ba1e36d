import type { IncomingMessage } from 'node:http';
import proxyaddr from '@fastify/proxy-addr';

/**
 * The client address per-IP rate limits and logs use (docs/security.md "Trusted proxies"): the peer's address,
 * unless the peer is one of the configured proxies; then X-Forwarded-For is walked from the right, past every
 * trusted proxy, to the first address that is not one. Without trusted proxies X-Forwarded-For is never read, so a
 * client cannot pick its own rate-limit bucket. Entries: addresses, CIDR ranges, or proxy-addr's names
 * (`loopback`, `linklocal`, `uniquelocal`), as fastify's trustProxy takes them.
 */
export type ClientAddress = (peer: string | undefined, forwardedFor: string | string[] | undefined) => string | undefined;

export function clientAddressResolver(trustedProxies: readonly string[]): ClientAddress {
  if (trustedProxies.length === 0) return (peer) => peer;
  const trust = proxyaddr.compile([...trustedProxies]);
  return (peer, forwardedFor) => {
    if (peer === undefined) return undefined;
    const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
    const req = { socket: { remoteAddress: peer }, headers: header === undefined ? {} : { 'x-forwarded-for': header } };
    return proxyaddr(req as unknown as IncomingMessage, trust);
  };
}
