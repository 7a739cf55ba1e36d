/**
 * A model version's engine chain behind a circuit breaker (docs/operations.md, "Degradation across engines").
 *
 * The chain is the model's `engine.providers` list; each link is loaded on its own (one provider per session).
 * The first link that loads and warms up serves. When the serving link fails at run time with an engine or
 * device failure — its session can never run again (the engine worker died) or `run` reports
 * ENGINE_DEVICE_FAILED `failure_threshold` times in a row — the breaker opens: traffic moves to the next link
 * (loaded on first use), the batch that hit the failure runs once more there, and a health probe is scheduled.
 * The probe reloads the better links (from the primary down) and runs the warmup inference on them; the first
 * that passes takes the traffic back (half-open → closed when it is the primary). A failed probe doubles the
 * delay up to `max_probe_interval_ms`.
 *
 * Errors of the request itself (bad input, ENGINE_FAILED that is not a device failure, cancellation) pass
 * through untouched and never count against the breaker. The scheduler sees plain EngineSessions (one per
 * instance) and never learns that the engine behind them changed.
 */
import type { Engine, EngineLoadOptions, EngineSession, ExecutionProviderSpec, SessionDescription } from './engine.ts';
import type { FailoverSection } from '../config/model-config.ts';
import { ERROR_CODES, type RtError, rtError, toRtError } from '../errors/registry.ts';
import { ChainSession } from './chain-session.ts';
import type { BreakerState, ChainRouter, FailoverReason, LinkSession } from './chain-types.ts';
import type { Logger } from '../observability/logger.ts';

export type { BreakerState, FailoverReason } from './chain-types.ts';

/** One link of the chain: the provider and its position (0 = primary; the same provider may appear twice). */
export interface ChainLink {
  readonly provider: string;
  readonly position: number;
}

/** What the metrics and the logs of a deployment want to hear about (ServerMetrics.engineChainEvents). */
export interface EngineChainEvents {
  failover(e: {
    readonly model: string;
    readonly version: string;
    readonly from: ChainLink;
    readonly to: ChainLink | undefined;
    readonly reason: FailoverReason;
  }): void;
  recovered(e: { readonly model: string; readonly version: string; readonly from: ChainLink | undefined; readonly to: ChainLink }): void;
  probed(e: { readonly model: string; readonly version: string; readonly link: ChainLink; readonly passed: boolean }): void;
}

/** The chain as metrics, stats and tests read it. */
export interface EngineChainView {
  readonly links: readonly ChainLink[];
  /** The link serving now; undefined while every link has failed (requests get ENGINE_RECOVERING). */
  readonly active: ChainLink | undefined;
  readonly state: BreakerState;
  /** Why traffic is not on the primary (for the repository index); undefined while the breaker is closed. */
  readonly degradedReason: string | undefined;
  /** The session of each instance on the active link, where loaded (the engines' own objects). */
  activeSessions(): readonly EngineSession[];
  /**
   * Runs the health probe now instead of at its scheduled time (nothing to do while the primary serves).
   * Resolves once the probe is over; the breaker's state tells how it went.
   */
  probeNow(): Promise<void>;
}

export interface EngineChainOptions {
  readonly model: string;
  readonly version: string;
  readonly modelPath: string;
  readonly engine: Engine;
  /** The model's load options; `providers` is the chain. */
  readonly loadOptions: EngineLoadOptions;
  /** Sessions per link (instance_group count). */
  readonly instances: number;
  /** The GPU of each instance (instance_group placement, by instance index); undefined entries: no device. */
  readonly devices?: readonly (number | undefined)[];
  readonly settings: FailoverSection;
  /** The model's warmup inference: run on every freshly loaded session, and the health probe's test. */
  readonly warmup: (session: EngineSession) => Promise<void>;
  readonly logger: Logger;
  readonly events?: EngineChainEvents | undefined;
}

/** Load errors that no other provider would fix: the model or its config is wrong. */
const MODEL_FAULT_CATEGORIES: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'UNIMPLEMENTED']);

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class EngineChain implements EngineChainView, ChainRouter {
  readonly links: readonly ChainLink[];
  /** One EngineSession per instance, for the scheduler. */
  readonly sessions: readonly EngineSession[];
  readonly #o: EngineChainOptions;
  readonly #specs: readonly ExecutionProviderSpec[];
  readonly #log: Logger;
  /** Sessions per link and instance, loaded on first use. */
  readonly #slots: (Promise<EngineSession> | undefined)[][];
  #active: number | undefined;
  #state: BreakerState = 'closed';
  #deviceErrors = 0;
  #lastFailure = '';
  #probeDelayMs: number;
  #probeTimer: NodeJS.Timeout | undefined;
  #nextProbeAt = 0;
  #probing = false;
  #probeRun: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #description: SessionDescription | undefined;
  /** Per link, the provider its sessions report (a CUDA plan loads on the CUDA engine whatever the link's spec says). */
  readonly #loadedProvider: (string | undefined)[] = [];

  private constructor(o: EngineChainOptions) {
    this.#o = o;
    this.#specs = o.loadOptions.providers;
    this.links = this.#specs.map((s, position) => ({ provider: s.name, position }));
    this.#slots = this.#specs.map(() => Array.from({ length: o.instances }, () => undefined));
    this.#probeDelayMs = o.settings.probe_interval_ms;
    this.#log = o.logger.child({ model: o.model, version: o.version });
    this.sessions = Array.from({ length: o.instances }, (_, i) => new ChainSession(this, i));
  }

  /**
   * Loads the first link whose every instance loads and warms up; links before it count as failed over
   * (reason load_failed) and the breaker starts open, with a probe scheduled for them.
   */
  static async open(o: EngineChainOptions): Promise<EngineChain> {
    if (o.loadOptions.providers.length === 0) throw rtError('BAD_CONFIG', `model '${o.model}': no execution providers configured`);
    const chain = new EngineChain(o);
    const failures: { link: ChainLink; error: RtError }[] = [];
    for (const link of chain.links) {
      const loaded: EngineSession[] = [];
      try {
        for (let i = 0; i < o.instances; i++) loaded.push(await chain.#load(link.position, i));
      } catch (err) {
        await Promise.all(loaded.map((s) => s.close().catch(() => undefined)));
        const error = toRtError(err);
        failures.push({ link, error });
        // A model or config fault fails on every provider alike; say so at once instead of trying them all.
        if (MODEL_FAULT_CATEGORIES.has(ERROR_CODES[error.code].category)) throw error;
        continue;
      }
      chain.#slots[link.position] = loaded.map((s) => track(Promise.resolve(s)));
      chain.#description = loaded[0]?.describe();
      chain.#active = link.position;
      break;
    }
    if (chain.#active === undefined) {
      const only = failures.length === 1 ? failures[0] : undefined;
      if (only !== undefined) throw only.error;
      const last = failures.at(-1)?.error;
      throw rtError(
        last?.code ?? 'MODEL_LOAD_FAILED',
        `no provider of the chain ${chain.#chainText()} could load the model: ${failures.map((f) => `${f.link.provider}: ${f.error.message}`).join('; ')}`,
        { cause: last },
      );
    }
    const first = failures[0];
    if (first !== undefined) {
      // Serving on a fallback from the start: the same failover as at run time, and the primary gets probed.
      chain.#lastFailure = first.error.message;
      chain.#state = 'open';
      chain.#announceFailover(first.link, chain.links[chain.#active], 'load_failed', first.error.message);
      chain.#scheduleProbe();
    }
    return chain;
  }

  get active(): ChainLink | undefined {
    return this.#active === undefined ? undefined : this.links[this.#active];
  }

  get state(): BreakerState {
    return this.#state;
  }

  get degradedReason(): string | undefined {
    if (this.#state === 'closed') return undefined;
    const serving = this.active;
    const where =
      serving === undefined
        ? 'no provider serves until a health probe passes'
        : `serving on ${serving.provider} (position ${serving.position} of ${this.#chainText()})`;
    return `engine failover: ${where}; last failure: ${this.#lastFailure}`;
  }

  /** The provider serving now (the last one that served while none does). */
  get provider(): string {
    return this.#servingProvider() ?? this.#description?.provider ?? this.links[0]?.provider ?? 'none';
  }

  get description(): SessionDescription {
    if (this.#description === undefined) throw rtError('INTERNAL', 'engine chain used before it loaded');
    return { ...this.#description, provider: (this.#servingProvider() ?? this.#description.provider) as SessionDescription['provider'] };
  }

  /** What the active link's sessions run on: what they report when loaded, else the link's configured provider. */
  #servingProvider(): string | undefined {
    const a = this.active;
    return a === undefined ? undefined : (this.#loadedProvider[a.position] ?? a.provider);
  }

  activeSessions(): readonly EngineSession[] {
    const active = this.#active;
    if (active === undefined) return [];
    const out: EngineSession[] = [];
    for (const slot of this.#slots[active] ?? []) {
      const settled = slot === undefined ? undefined : settledValue.get(slot);
      if (settled !== undefined) out.push(settled);
    }
    return out;
  }

  async probeNow(): Promise<void> {
    if (this.#probeRun !== undefined) await this.#probeRun;
    if (this.#closing !== undefined || this.#active === 0) return;
    clearTimeout(this.#probeTimer);
    this.#probeTimer = undefined;
    await this.#startProbe();
  }

  /** This instance's session on the serving link when it is loaded and alive: no await on the hot path. */
  ready(instance: number): LinkSession | undefined {
    const link = this.#active;
    if (link === undefined || this.#closing !== undefined) return undefined;
    const slot = this.#slots[link]?.[instance];
    const session = slot === undefined ? undefined : settledValue.get(slot);
    return session === undefined || session.isAlive?.() === false ? undefined : { link, session };
  }

  /** Whether a failure of `link` has somewhere to go (the batch copy for a retry is only worth it then). */
  canRetryFrom(link: number): boolean {
    return this.#o.settings.retry_failed_batch && link + 1 < this.links.length;
  }

  /** The serving link and this instance's session on it, loading it on first use; fails over past dead ones. */
  async acquire(instance: number): Promise<LinkSession> {
    for (;;) {
      if (this.#closing !== undefined) throw rtError('MODEL_NOT_READY', `model '${this.#o.model}' version ${this.#o.version} is unloading`);
      const link = this.#active;
      if (link === undefined) throw this.#recoveringError();
      let session: EngineSession;
      try {
        session = await this.#sessionFor(link, instance);
      } catch (err) {
        this.fail(link, 'load_failed', err);
        continue;
      }
      if (session.isAlive?.() === false) {
        this.fail(link, 'worker_died', session);
        continue;
      }
      return { link, session };
    }
  }

  /** The serving link answered a batch: device errors must be consecutive to open the breaker. */
  succeeded(link: number): void {
    if (link === this.#active) this.#deviceErrors = 0;
  }

  /**
   * Reports an engine failure of `link`. Load failures and dead sessions open the breaker at once; device
   * errors once `failure_threshold` follow each other. Failures of a link that no longer serves are old news.
   */
  fail(link: number, reason: FailoverReason, cause: unknown): void {
    if (this.#closing !== undefined || link !== this.#active) return;
    const message = reason === 'worker_died' ? this.#deathReason(cause) : messageOf(cause);
    if (reason === 'device_error') {
      this.#deviceErrors += 1;
      if (this.#deviceErrors < this.#o.settings.failure_threshold) {
        this.#log.warn(
          { provider: this.links[link]?.provider, errors: this.#deviceErrors, threshold: this.#o.settings.failure_threshold, error: message },
          'engine device error',
        );
        return;
      }
    }
    this.#deviceErrors = 0;
    this.#lastFailure = message;
    this.#abandon(link);
    const next = link + 1 < this.links.length ? link + 1 : undefined;
    this.#active = next;
    this.#state = 'open';
    const from = this.links[link];
    if (from !== undefined) this.#announceFailover(from, next === undefined ? undefined : this.links[next], reason, message);
    this.#scheduleProbe();
  }

  isServing(link: number): boolean {
    return this.#active === link;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearTimeout(this.#probeTimer);
      this.#probeTimer = undefined;
      // A probe that is loading sessions releases them itself once it sees the chain closing.
      await this.#probeRun?.catch(() => undefined);
      const all = this.#slots.flatMap((slots, link) => slots.map((_, i) => this.#release(link, i)));
      await Promise.all(all);
    })();
    return this.#closing;
  }

  // ---------------------------------------------------------------------------------------------------------

  /** The GPU instance `instance` is placed on (instance_group), or undefined. */
  deviceOf(instance: number): number | undefined {
    return this.#o.devices?.[instance];
  }

  /**
   * One session of one link for one instance: loaded with that provider alone on the instance's GPU, then warmed
   * up (a link that cannot run is no link).
   */
  async #load(link: number, instance: number): Promise<EngineSession> {
    const spec = this.#specs[link];
    if (spec === undefined) throw rtError('INTERNAL', `no link ${link}`);
    const device = this.deviceOf(instance);
    const options = { ...this.#o.loadOptions, providers: [spec], ...(device === undefined ? {} : { device }) };
    const session = await this.#o.engine.load(this.#o.modelPath, options);
    this.#loadedProvider[link] ??= session.describe().provider;
    try {
      await this.#o.warmup(session);
    } catch (err) {
      await session.close().catch(() => undefined);
      throw err;
    }
    return session;
  }

  #sessionFor(link: number, instance: number): Promise<EngineSession> {
    const slots = this.#slots[link];
    if (slots === undefined) return Promise.reject(rtError('INTERNAL', `no link ${link}`));
    let slot = slots[instance];
    if (slot === undefined) {
      slot = track(this.#load(link, instance));
      slots[instance] = slot;
      // A failed load leaves the slot empty, so that a later recovery can try again.
      slot.catch(() => {
        if (slots[instance] === slot) slots[instance] = undefined;
      });
    }
    return slot;
  }

  /** Takes a link out of service: its sessions finish what they hold, then close. */
  #abandon(link: number): void {
    const slots = this.#slots[link];
    if (slots === undefined) return;
    for (let i = 0; i < slots.length; i++) void this.#release(link, i);
  }

  async #release(link: number, instance: number): Promise<void> {
    const slots = this.#slots[link];
    const slot = slots?.[instance];
    if (slots === undefined || slot === undefined) return;
    slots[instance] = undefined;
    const session = await slot.catch(() => undefined);
    await session?.close().catch(() => undefined);
  }

  #scheduleProbe(): void {
    if (this.#closing !== undefined || this.#probeTimer !== undefined || this.#probing) return;
    if (this.#active === 0) return;
    const delay = this.#probeDelayMs;
    this.#nextProbeAt = Date.now() + delay;
    this.#probeTimer = setTimeout(() => {
      this.#probeTimer = undefined;
      void this.#startProbe();
    }, delay);
    // A pending probe must not keep a stopping process alive.
    this.#probeTimer.unref();
  }

  #startProbe(): Promise<void> {
    const run = this.#probe().finally(() => {
      if (this.#probeRun === run) this.#probeRun = undefined;
    });
    this.#probeRun = run;
    return run;
  }

  /**
   * Half-open: reload the links better than the serving one, from the primary down, each with its warmup
   * inference; the first whose every instance passes takes the traffic.
   */
  async #probe(): Promise<void> {
    this.#probing = true;
    this.#state = 'half_open';
    try {
      const better = this.#active ?? this.links.length;
      for (let link = 0; link < better; link++) {
        const target = this.links[link];
        if (target === undefined) continue;
        const fresh: EngineSession[] = [];
        try {
          for (let i = 0; i < this.#o.instances; i++) fresh.push(await this.#load(link, i));
        } catch (err) {
          await Promise.all(fresh.map((s) => s.close().catch(() => undefined)));
          this.#o.events?.probed({ model: this.#o.model, version: this.#o.version, link: target, passed: false });
          this.#log.warn({ provider: target.provider, position: link, error: messageOf(err) }, 'engine health probe failed');
          continue;
        }
        if (this.#closing !== undefined) {
          await Promise.all(fresh.map((s) => s.close().catch(() => undefined)));
          return;
        }
        this.#o.events?.probed({ model: this.#o.model, version: this.#o.version, link: target, passed: true });
        this.#recover(link, fresh);
        return;
      }
      this.#probeDelayMs = Math.min(this.#probeDelayMs * 2, this.#o.settings.max_probe_interval_ms);
    } finally {
      this.#probing = false;
      if (this.#active !== 0 && this.#closing === undefined) {
        this.#state = 'open';
        this.#scheduleProbe();
      }
    }
  }

  #recover(link: number, fresh: readonly EngineSession[]): void {
    const previous = this.#active;
    // The sessions a dead or abandoned link left behind are released before the fresh ones move in.
    for (let i = 0; i < this.#o.instances; i++) void this.#release(link, i);
    const slots = this.#slots[link];
    if (slots !== undefined) for (const [i, s] of fresh.entries()) slots[i] = track(Promise.resolve(s));
    this.#description ??= fresh[0]?.describe();
    this.#active = link;
    this.#deviceErrors = 0;
    this.#probeDelayMs = this.#o.settings.probe_interval_ms;
    this.#state = link === 0 ? 'closed' : 'open';
    if (previous !== undefined) this.#abandon(previous);
    const from = previous === undefined ? undefined : this.links[previous];
    const to = this.links[link];
    if (to === undefined) return;
    this.#log.info(
      { from: from?.provider ?? 'none', to: to.provider, position: link, state: this.#state },
      'engine recovered: traffic is back on a better provider',
    );
    this.#o.events?.recovered({ model: this.#o.model, version: this.#o.version, from, to });
  }

  #announceFailover(from: ChainLink, to: ChainLink | undefined, reason: FailoverReason, error: string): void {
    this.#log.warn(
      {
        from: from.provider,
        to: to?.provider ?? 'none',
        fromPosition: from.position,
        toPosition: to?.position,
        reason,
        error,
        probeInMs: this.#probeDelayMs,
      },
      to === undefined ? 'engine failover: no provider left, requests fail until a health probe passes' : 'engine failover',
    );
    this.#o.events?.failover({ model: this.#o.model, version: this.#o.version, from, to, reason });
  }

  #recoveringError(): RtError {
    const waitMs = Math.max(0, this.#nextProbeAt - Date.now());
    return rtError(
      'ENGINE_RECOVERING',
      `model '${this.#o.model}' version ${this.#o.version}: every provider of its chain ${this.#chainText()} failed (last: ${this.#lastFailure}); it serves again once a health probe passes`,
      { retryAfterMs: Math.max(1000, waitMs) },
    );
  }

  #deathReason(cause: unknown): string {
    if (cause instanceof Error) return cause.message;
    const reason = (cause as { deathReason?: unknown } | undefined)?.deathReason;
    return typeof reason === 'string' ? reason : 'the engine session is dead';
  }

  #chainText(): string {
    return `[${this.links.map((l) => l.provider).join(', ')}]`;
  }
}

/** Settled values of session promises, so views can list loaded sessions without awaiting. */
const settledValue = new WeakMap<Promise<EngineSession>, EngineSession>();
function track(p: Promise<EngineSession>): Promise<EngineSession> {
  p.then(
    (s) => settledValue.set(p, s),
    () => undefined,
  );
  return p;
}
