/**
 * Rate limits and WebSocket tickets shared by every front-end worker (docs/workers.md): where the server keeps them
 * in memory (no Redis), each worker's Security gets these stores, which keep them in the engine owner, so a limit
 * holds for the whole server rather than per worker, and a ticket issued through one worker is redeemed through
 * any other. (With Redis configured the workers use Redis, as replicas do.)
 */
import type { BucketSpec, BucketStore, TakeOutcome } from '../security/bucket-store.ts';
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
