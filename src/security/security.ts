import { RtError, rtError } from '../errors/registry.ts';
import type { Logger } from '../observability/logger.ts';
import { createAuthenticator, type Authenticator, type Credentials } from './authenticator.ts';
import type { AuthConfig, Operation, RateLimitConfig } from '../config/security-schema.ts';
import { ANONYMOUS, authorize, type Principal } from './principal.ts';
import { RateLimiter } from './rate-limiter.ts';
import type { BucketStore } from './bucket-store.ts';
import type { ConcurrencyStore } from './concurrency-store.ts';
import { WsTicketStore, type TicketStore } from './ws-tickets.ts';

export interface SecurityOptions {
  readonly auth: AuthConfig;
  readonly rateLimit: RateLimitConfig;
  readonly logger?: Logger;
  /** Bucket store override (tests). */
  readonly bucketStore?: BucketStore;
  /** Where the concurrency cap counts (a front-end worker's: the engine owner's); this process's memory when absent. */
  readonly concurrencyStore?: ConcurrencyStore;
  /** Where WebSocket tickets live (shared state); this process's memory when absent. */
  readonly tickets?: TicketStore;
}

/** What a transport gets back from `admit`: who is asking, and the function to call when the request ends. */
export interface Admission {
  readonly principal: Principal;
  /** Ends the request's slot in the concurrency cap; idempotent; call it however the request ends. */
  readonly release: () => void;
}

function noop(): void {}

/**
 * Authentication, authorization and rate limits for every front end, behind one object (docs/security.md).
 * Transports call `admit(credentials, op, model, ip)` once per request, or the parts of it on their own
 * (WebSocket: `authenticate` at the upgrade, `admitPrincipal` per message). With auth and rate limits off,
 * `admit` is a few property reads.
 */
export class Security {
  private authenticator: Authenticator | undefined;
  private auth: AuthConfig;
  private openOps: ReadonlySet<Operation>;
  readonly tickets: TicketStore;
  /** Called with the protocol of every request refused by a rate limit or the concurrency cap (metrics). */
  onRateLimited: ((protocol: string) => void) | undefined;

  private constructor(
    auth: AuthConfig,
    authenticator: Authenticator | undefined,
    tickets: TicketStore,
    readonly rateLimiter: RateLimiter | undefined,
    private readonly logger: Logger | undefined,
  ) {
    this.auth = auth;
    this.authenticator = authenticator;
    this.openOps = new Set(auth.openOperations);
    this.tickets = tickets;
  }

  static async create(options: SecurityOptions): Promise<Security> {
    const tickets = options.tickets ?? new WsTicketStore(options.auth.wsTicketTtlSecs * 1000);
    const authenticator = options.auth.enabled ? await createAuthenticator(options.auth, tickets) : undefined;
    if (options.auth.enabled && options.auth.apiKeys.length === 0 && options.auth.jwt === undefined) {
      options.logger?.warn('auth is enabled but no API keys and no JWT keys are configured: every protected request will get 401');
    }
    const rateLimiter = options.rateLimit.enabled
      ? await RateLimiter.create(options.rateLimit, options.logger, options.bucketStore, options.concurrencyStore)
      : undefined;
    return new Security(options.auth, authenticator, tickets, rateLimiter, options.logger);
  }

  get authEnabled(): boolean {
    return this.authenticator !== undefined;
  }

  /** True when neither auth nor rate limits are on: transports may skip every hook. */
  get inactive(): boolean {
    return this.authenticator === undefined && this.rateLimiter === undefined;
  }

  /** Does `op` need credentials? */
  isOpen(op: Operation): boolean {
    return this.authenticator === undefined || this.openOps.has(op);
  }

  /** The principal behind the credentials (ANONYMOUS when auth is off); rejects with UNAUTHENTICATED. */
  async authenticate(credentials: Credentials): Promise<Principal> {
    const a = this.authenticator;
    if (a === undefined) return ANONYMOUS;
    return a.authenticate(credentials);
  }

  /** PERMISSION_DENIED error, or undefined when allowed (always allowed while auth is off or `op` is open). */
  authorize(principal: Principal, op: Operation, model?: string): RtError | undefined {
    if (this.isOpen(op)) return undefined;
    return authorize(principal, op, model);
  }

  /**
   * Per-message / per-request checks for an already authenticated principal: authorization, then rate limits
   * (not for health probes), then the concurrency cap (inference only). Throws PERMISSION_DENIED or RATE_LIMITED.
   */
  async admitPrincipal(
    principal: Principal,
    op: Operation,
    model: string | undefined,
    ip: string | undefined,
    protocol = 'unknown',
  ): Promise<Admission> {
    if (principal.expiresAtMs !== undefined && principal.expiresAtMs <= Date.now()) {
      throw rtError('UNAUTHENTICATED', 'the credentials have expired');
    }
    const denied = this.authorize(principal, op, model);
    if (denied !== undefined) throw denied;
    const rl = this.rateLimiter;
    if (rl === undefined || op === 'health') return { principal, release: noop };
    try {
      await rl.check(principal, ip, model);
      return { principal, release: op === 'infer' ? await rl.acquire(principal) : noop };
    } catch (err) {
      if (err instanceof RtError && err.code === 'RATE_LIMITED') this.onRateLimited?.(protocol);
      throw err;
    }
  }

  /** The whole sequence for one request: authenticate (unless `op` is open), authorize, rate-limit. */
  async admit(credentials: Credentials, op: Operation, model: string | undefined, ip: string | undefined, protocol = 'unknown'): Promise<Admission> {
    if (this.authenticator === undefined && this.rateLimiter === undefined) return { principal: ANONYMOUS, release: noop };
    const principal = this.isOpen(op) ? ANONYMOUS : await this.authenticate(credentials);
    return this.admitPrincipal(principal, op, model, ip, protocol);
  }

  /**
   * Swaps in new API keys / JWT settings (SIGHUP or a config file change). The new authenticator is built first;
   * if that fails (unreadable JWKS, bad secret) the old one stays and the error is thrown. Turning auth on or off
   * needs a restart, because the transports install their hooks at startup only when auth is on.
   */
  async reloadAuth(auth: AuthConfig): Promise<void> {
    if (auth.enabled !== this.authEnabled) {
      throw rtError(
        'BAD_CONFIG',
        `auth.enabled changed to ${auth.enabled}: restart the server to turn authentication ${auth.enabled ? 'on' : 'off'}`,
      );
    }
    if (!auth.enabled) {
      this.auth = auth;
      return;
    }
    const next = await createAuthenticator(auth, this.tickets);
    this.authenticator = next;
    this.auth = auth;
    this.openOps = new Set(auth.openOperations);
    this.tickets.setTtlMs(auth.wsTicketTtlSecs * 1000);
    this.logger?.info({ apiKeys: auth.apiKeys.length, jwt: auth.jwt !== undefined }, 'auth configuration reloaded');
  }

  get authConfig(): AuthConfig {
    return this.auth;
  }

  async close(): Promise<void> {
    await this.rateLimiter?.close();
  }
}

/** Is `err` one the security layer produces for a client (so transports log it at debug, not as an error)? */
export function isSecurityRejection(err: unknown): boolean {
  return err instanceof RtError && (err.code === 'UNAUTHENTICATED' || err.code === 'PERMISSION_DENIED' || err.code === 'RATE_LIMITED');
}
