import { randomBytes } from 'node:crypto';
import { rtError } from '../errors/registry.ts';
import type { Principal } from './principal.ts';

/** Outstanding tickets are bounded so that a client looping on the ticket route cannot grow memory. */
const MAX_OUTSTANDING = 100_000;

interface Entry {
  readonly principal: Principal;
  readonly expiresAtMs: number;
}

/**
 * Short-lived, single-use tickets for browser WebSockets, which cannot set an Authorization header: an
 * authenticated REST call (POST /v2/auth/ws-ticket) gets a ticket, and the WebSocket upgrade presents it in
 * `Sec-WebSocket-Protocol: rtserve.ticket.<ticket>` or `?ticket=`. Tickets live in this replica's memory: a
 * client should open its socket on the replica that issued the ticket (or use the bearer subprotocol instead).
 */
export class WsTicketStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private ttlMs: number) {}

  setTtlMs(ttlMs: number): void {
    this.ttlMs = ttlMs;
  }

  issue(principal: Principal): { ticket: string; expiresInMs: number } {
    const now = Date.now();
    if (this.entries.size >= MAX_OUTSTANDING) this.sweep(now);
    if (this.entries.size >= MAX_OUTSTANDING) {
      throw rtError('RATE_LIMITED', 'too many outstanding WebSocket tickets; retry shortly', { retryAfterMs: this.ttlMs });
    }
    // 192 random bits, base64url: valid in a Sec-WebSocket-Protocol token (RFC 6455 §4.1) and in a URL.
    const ticket = randomBytes(24).toString('base64url');
    // A ticket never outlives the credential it was issued for.
    const expiresAtMs = Math.min(now + this.ttlMs, principal.expiresAtMs ?? Infinity);
    this.entries.set(ticket, { principal, expiresAtMs });
    return { ticket, expiresInMs: Math.max(0, expiresAtMs - now) };
  }

  /** The ticket's principal, once: a second redeem of the same ticket finds nothing. */
  redeem(ticket: string): Principal | undefined {
    const e = this.entries.get(ticket);
    if (e === undefined) return undefined;
    this.entries.delete(ticket);
    return e.expiresAtMs > Date.now() ? e.principal : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    for (const [k, e] of this.entries) if (e.expiresAtMs <= now) this.entries.delete(k);
  }
}
