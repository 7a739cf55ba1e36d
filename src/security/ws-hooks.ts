import type { IncomingMessage } from 'node:http';
import { credentialsFromWsUpgrade } from './credentials.ts';
import { ANONYMOUS, type Principal } from './principal.ts';
import type { Admission, Security } from './security.ts';

/** What the WebSocket front end's hooks receive and return (structurally its WsPrincipal / WsAdmission). */
export interface WsHookPrincipal {
  readonly subject?: string;
  readonly principal?: unknown;
}

export interface WsSecurityHooks {
  /** At the upgrade: who is connecting (rejects with UNAUTHENTICATED, which refuses the upgrade with 401). */
  authenticate(request: IncomingMessage): Promise<WsHookPrincipal>;
  /** Per request on the socket: scope check for the model, rate limits, concurrency cap. */
  admit(principal: WsHookPrincipal, model: string, remoteAddress: string | undefined): Promise<Admission>;
}

/**
 * The WebSocket front end's authenticate / admit hooks over Security, or undefined when auth and rate limits are
 * off. Credentials come from the upgrade request: Authorization header, `rtserve.bearer.<token>` or
 * `rtserve.ticket.<ticket>` subprotocol entries, or `?ticket=` (src/security/credentials.ts).
 */
export function createWsSecurityHooks(security: Security): WsSecurityHooks | undefined {
  if (security.inactive) return undefined;
  return {
    async authenticate(request) {
      const principal = security.isOpen('infer') ? ANONYMOUS : await security.authenticate(credentialsFromWsUpgrade(request));
      return { subject: principal.id, principal };
    },
    admit(p, model, remoteAddress) {
      const principal = (p.principal as Principal | undefined) ?? ANONYMOUS;
      return security.admitPrincipal(principal, 'infer', model, remoteAddress, 'ws');
    },
  };
}
