import { randomBytes } from 'node:crypto';
import { rtError } from '../errors/registry.ts';
import type { Principal } from './principal.ts';

/** Outstanding tickets are bounded so that a client looping on the ticket route cannot grow memory. */
const MAX_OUTSTANDING = 100_000;

interface Entry {
  readonly principal: Principal;
  readonly expiresAtMs: number;
}

export interface IssuedTicket {
  readonly ticket: string;
  readonly expiresInMs: number;
}

/**
 * Where WebSocket tickets live: this replica's memory (`WsTicketStore`, the default) or Redis
 * (`RedisTicketStore`, sharedState.store = redis), where a ticket issued by one replica opens a socket on any.
 */
export interface TicketStore {
  issue(principal: Principal): IssuedTicket | Promise<IssuedTicket>;
  redeem(ticket: string): Principal | undefined | Promise<Principal | undefined>;
  setTtlMs(ttlMs: number): void;
}

/** 192 random bits, base64url: valid in a Sec-WebSocket-Protocol token (RFC 6455 §4.1) and in a URL. */
export function newTicket(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Short-lived, single-use tickets for browser WebSockets, which cannot set an Authorization header: an
 * authenticated REST call (POST /v2/auth/ws-ticket) gets a ticket, and the WebSocket upgrade presents it in
 * `Sec-WebSocket-Protocol: rtserve.ticket.<ticket>` or `?ticket=`. These tickets live in this replica's memory: a
 * client should open its socket on the replica that issued the ticket, unless the server shares them in Redis.
 */
export class WsTicketStore implements TicketStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private ttlMs: number) {}

  setTtlMs(ttlMs: number): void {
    this.ttlMs = ttlMs;
  }

  issue(principal: Principal): IssuedTicket {
    const now = Date.now();
    if (this.entries.size >= MAX_OUTSTANDING) this.sweep(now);
    if (this.entries.size >= MAX_OUTSTANDING) {
      throw rtError('RATE_LIMITED', 'too many outstanding WebSocket tickets; retry shortly', { retryAfterMs: this.ttlMs });
    }
    const ticket = newTicket();
    // A ticket never outlives the credential it was issued for.
    const expiresAtMs = Math.min(now + this.ttlMs, principal.expiresAtMs ?? Infinity);
    this.entries.set(ticket, { principal, expiresAtMs });
    return { ticket, expiresInMs: Math.max(0, expiresAtMs - now) };
  }

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
