import type { Redis } from 'ioredis';
import type { Operation } from '../config/security-schema.ts';
import type { Principal } from './principal.ts';
import { newTicket, type IssuedTicket, type TicketStore } from './ws-tickets.ts';

interface StoredPrincipal {
  readonly id: string;
  readonly kind: Principal['kind'];
  readonly operations: Operation[];
  readonly models: string[];
  readonly expiresAtMs?: number;
}

/**
 * WebSocket tickets in Redis, so that a ticket issued by one replica opens a socket on any replica behind the
 * load balancer: SET with the ticket's lifetime as expiry, and GETDEL to redeem (single use across replicas:
 * Redis runs it atomically, so two replicas cannot both redeem one ticket).
 */
export class RedisTicketStore implements TicketStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private ttlMs: number,
  ) {}

  setTtlMs(ttlMs: number): void {
    this.ttlMs = ttlMs;
  }

  async issue(principal: Principal): Promise<IssuedTicket> {
    const ticket = newTicket();
    const now = Date.now();
    // A ticket never outlives the credential it was issued for.
    const expiresAtMs = Math.min(now + this.ttlMs, principal.expiresAtMs ?? Infinity);
    const expiresInMs = Math.max(1, expiresAtMs - now);
    const stored: StoredPrincipal = {
      id: principal.id,
      kind: principal.kind,
      operations: [...principal.operations],
      models: [...principal.models],
      ...(principal.expiresAtMs === undefined ? {} : { expiresAtMs: principal.expiresAtMs }),
    };
    await this.redis.set(this.prefix + ticket, JSON.stringify(stored), 'PX', expiresInMs);
    return { ticket, expiresInMs };
  }

  async redeem(ticket: string): Promise<Principal | undefined> {
    const raw = await this.redis.getdel(this.prefix + ticket);
    if (raw === null) return undefined;
    const p = JSON.parse(raw) as StoredPrincipal;
    if (p.expiresAtMs !== undefined && p.expiresAtMs <= Date.now()) return undefined;
    return {
      id: p.id,
      kind: p.kind,
      operations: new Set(p.operations),
      models: p.models,
      ...(p.expiresAtMs === undefined ? {} : { expiresAtMs: p.expiresAtMs }),
    };
  }
}
