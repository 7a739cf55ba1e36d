/**
 * Rate limits, the per-principal concurrency cap and WebSocket tickets shared by every front-end worker
 * (docs/workers.md): where the server keeps them in memory (no Redis), each worker's Security gets these stores,
 * which keep them in the engine owner, so a limit holds for the whole server rather than per worker, and a ticket
 * issued through one worker is redeemed through any other. (With Redis configured the workers use Redis for the
 * buckets and tickets, as replicas do.) The concurrency cap always counts in the owner: the owner releases the holds
 * of a worker that dies with requests in flight (owner-hub.ts).
 */
import type { BucketSpec, BucketStore, TakeOutcome } from '../security/bucket-store.ts';
import type { ConcurrencyHold, ConcurrencyStore } from '../security/concurrency-store.ts';
import type { Operation } from '../config/security-schema.ts';
import type { Principal } from '../security/principal.ts';
import type { IssuedTicket, TicketStore } from '../security/ws-tickets.ts';
import type { RpcPeer } from './rpc-peer.ts';

/** A principal as JSON (its operations as an array). */
export interface WirePrincipal extends Omit<Principal, 'operations'> {
  readonly operations: readonly Operation[];
}

export function principalToWire(p: Principal): WirePrincipal {
  return { ...p, operations: [...p.operations] };
}

export function principalFromWire(p: WirePrincipal): Principal {
  return { ...p, operations: new Set(p.operations) };
}

/** The worker's bucket store: every take is the owner's. */
export class OwnerBucketStore implements BucketStore {
  constructor(private readonly peer: RpcPeer) {}
  async take(buckets: readonly BucketSpec[]): Promise<TakeOutcome> {
    return (await this.peer.call('limits.take', { value: buckets })).value as TakeOutcome;
  }
  async close(): Promise<void> {}
}

/** The worker's ticket store: tickets are issued and redeemed in the owner. */
export class OwnerTicketStore implements TicketStore {
  constructor(private readonly peer: RpcPeer) {}
  async issue(principal: Principal): Promise<IssuedTicket> {
    return (await this.peer.call('tickets.issue', { value: principalToWire(principal) })).value as IssuedTicket;
  }
  async redeem(ticket: string): Promise<Principal | undefined> {
    const p = (await this.peer.call('tickets.redeem', { value: ticket })).value as WirePrincipal | null;
    return p === null ? undefined : principalFromWire(p);
  }
  /** The owner's store has the configured TTL (auth reloads reach the owner first). */
  setTtlMs(): void {}
}

/** The owner's answer to `limits.acquire`: the hold's number (released by a `limits.release` notification), or the count found. */
export type WireHold = { readonly hold: number } | { readonly count: number };

/** The worker's concurrency counts: every unfinished request is held in the owner. */
export class OwnerConcurrencyStore implements ConcurrencyStore {
  constructor(private readonly peer: RpcPeer) {}
  async acquire(id: string, max: number): Promise<ConcurrencyHold> {
    const w = (await this.peer.call('limits.acquire', { value: { id, max } })).value as WireHold;
    if (!('hold' in w)) return { ok: false, count: w.count };
    // RateLimiter.acquire calls release once. A closed channel: the owner is gone, or released this worker's holds.
    return { ok: true, release: () => void this.peer.notify('limits.release', { value: w.hold }) };
  }
}
