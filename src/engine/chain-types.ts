/**
 * The engine chain's contract with the sessions it hands out (chain-session.ts): what a ChainSession asks of its
 * chain, so that the session needs only this file and the chain (engine-chain.ts) implements it.
 */
import type { EngineSession, SessionDescription } from './engine.ts';

export type BreakerState = 'closed' | 'open' | 'half_open';

/** Why traffic left a link: it could not be loaded, its session died, or it reported device errors. */
export type FailoverReason = 'load_failed' | 'worker_died' | 'device_error';

/** A link's session for one instance, with the link's position. */
export interface LinkSession {
  readonly link: number;
  readonly session: EngineSession;
}

/** What a ChainSession routes its runs through: the serving link, its failures and successes. */
export interface ChainRouter {
  /** The active link's description (its provider is the one serving now). */
  readonly description: SessionDescription;
  /** The GPU instance `instance` is placed on (instance_group), or undefined. */
  deviceOf(instance: number): number | undefined;
  /** This instance's session on the serving link when it is loaded and alive: no await on the hot path. */
  ready(instance: number): LinkSession | undefined;
  /** The serving link and this instance's session on it, loading it on first use; fails over past dead ones. */
  acquire(instance: number): Promise<LinkSession>;
  /** Whether a failure of `link` has somewhere to go (the batch copy for a retry is only worth it then). */
  canRetryFrom(link: number): boolean;
  succeeded(link: number): void;
  fail(link: number, reason: FailoverReason, cause: unknown): void;
  isServing(link: number): boolean;
  close(): Promise<void>;
}
