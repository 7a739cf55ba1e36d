/**
 * The event-loop side of an engine session that lives in a worker thread (docs/architecture.md, Performance rules: never
 * run inference on the event loop thread). One worker per session; one message each way per run; tensor bytes
 * cross as transferred buffers (see wire-tensor.ts).
 *
 * Lifecycle: `open` spawns the worker, which loads the model from `workerData` and answers `loaded` or
 * `load-failed`. Runs are posted with an id and answered in order. A worker that dies (uncaught error, exit)
 * fails every pending run with ENGINE_FAILED and leaves the session dead: later runs fail at once, and the
 * owner (the repository) is expected to notice `isAlive() === false` and reload. `close` waits for runs
 * already posted, lets the engine release its session, then terminates the worker.
 */
import { basename, dirname } from 'node:path';
import type { TransferListItem, Worker } from 'node:worker_threads';
import { rtError, type RtError } from '../../errors/registry.ts';
import type { BytesArray, NumericArray } from '../../tensor/datatype.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import type { BatchFeed, EngineLoadOptions, EngineSession, SessionDescription } from '../engine.ts';
import type { HostToWorker, ProviderAttempt, WireError, WorkerLoadRequest, WorkerToHost } from './protocol.ts';
import { spawnWorker } from '../../util/worker-spawn.ts';
import { fromWire, toWire, toWireParts, type WireFeed } from './wire-tensor.ts';

export interface WorkerSessionOptions {
  /** The worker entry module (it calls `serveSession`). */
  readonly workerUrl: URL;
  readonly modelPath: string;
  readonly options: EngineLoadOptions;
  /** Name used in error messages; defaults to `modelLabelOf(modelPath)`. */
  readonly modelLabel?: string;
  /** How long `close` waits for the engine to release its session before terminating the worker. */
  readonly closeTimeoutMs?: number;
}

interface PendingRun {
  readonly resolve: (outputs: Tensor[]) => void;
  readonly reject: (err: RtError) => void;
  /** True once the caller's promise has settled (an abort settles it before the worker answers). */
  settled: boolean;
  readonly cleanup: () => void;
}

/**
 * A short, path-free model name for messages: Triton's `<repo>/<model>/<version>/model.onnx` gives
 * "<model> v<version>", anything else the file name. Absolute paths stay out of client-visible errors.
 */
export function modelLabelOf(modelPath: string): string {
  const versionDir = basename(dirname(modelPath));
  const modelDir = basename(dirname(dirname(modelPath)));
  if (/^\d+$/.test(versionDir) && modelDir !== '') return `'${modelDir}' v${versionDir}`;
  return `'${basename(modelPath)}'`;
}

function rtFromWire(error: WireError): RtError {
  return rtError(error.code, error.message);
}

export class WorkerSession implements EngineSession {
  readonly modelLabel: string;
  /** Every provider tried at load, in order, and why the ones before the winner failed. */
  readonly attempts: readonly ProviderAttempt[];
  readonly #worker: Worker;
  readonly #description: SessionDescription;
  readonly #closeTimeoutMs: number;
  readonly #pending = new Map<number, PendingRun>();
  #nextId = 1;
  #dead: RtError | undefined;
  /**
   * Set by the worker's 'error' event. Pending runs fail on 'exit', not here: results the worker posted before it
   * crashed travel on another port than the error and may not have been delivered yet ('exit' comes after them).
   */
  #crash: string | undefined;
  #closing: Promise<void> | undefined;
  #drained: (() => void) | undefined;
  #closedByWorker: (() => void) | undefined;

  private constructor(
    worker: Worker,
    modelLabel: string,
    description: SessionDescription,
    attempts: readonly ProviderAttempt[],
    closeTimeoutMs: number,
  ) {
    this.#worker = worker;
    this.modelLabel = modelLabel;
    this.#description = description;
    this.attempts = attempts;
    this.#closeTimeoutMs = closeTimeoutMs;
    worker.on('message', (message: WorkerToHost) => this.#onMessage(message));
    worker.on('error', (err: Error) => {
      this.#crash ??= `engine worker crashed: ${err.message}`;
    });
    worker.on('messageerror', (err: Error) => {
      this.#die(`engine worker sent an unreadable message: ${err.message}`);
      void worker.terminate();
    });
    worker.on('exit', (code: number) => this.#die(this.#crash ?? `engine worker exited with code ${code}`));
    // An idle session must not keep the process alive; a pending run must (see #track).
    worker.unref();
  }

  /** Spawns the worker and waits until the model is loaded (or fails to load). */
  static open(opts: WorkerSessionOptions): Promise<WorkerSession> {
    const modelLabel = opts.modelLabel ?? modelLabelOf(opts.modelPath);
    const request: WorkerLoadRequest = { modelPath: opts.modelPath, modelLabel, options: opts.options };
    return new Promise<WorkerSession>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = spawnWorker(opts.workerUrl, { workerData: request });
      } catch (err) {
        reject(rtError('MODEL_LOAD_FAILED', `model ${modelLabel}: cannot start the engine worker: ${(err as Error).message}`, { cause: err }));
        return;
      }
      const cleanup = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (message: WorkerToHost): void => {
        if (message.type === 'loaded') {
          cleanup();
          resolve(new WorkerSession(worker, modelLabel, message.description, message.attempts, opts.closeTimeoutMs ?? 5000));
        } else if (message.type === 'load-failed') {
          cleanup();
          void worker.terminate();
          reject(rtFromWire(message.error));
        }
      };
      const onError = (err: Error): void => {
        cleanup();
        void worker.terminate();
        reject(rtError('MODEL_LOAD_FAILED', `model ${modelLabel}: the engine worker crashed while loading: ${err.message}`, { cause: err }));
      };
      const onExit = (code: number): void => {
        cleanup();
        reject(rtError('MODEL_LOAD_FAILED', `model ${modelLabel}: the engine worker exited with code ${code} while loading`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  describe(): SessionDescription {
    return this.#description;
  }

  /** False once the worker has died; every later run fails at once with ENGINE_FAILED. */
  isAlive(): boolean {
    return this.#dead === undefined && this.#crash === undefined && this.#closing === undefined;
  }

  /** Why the session died, if it did. */
  get deathReason(): string | undefined {
    return this.#dead?.message ?? this.#crash;
  }

  /** Runs posted to the worker and not yet answered by it (cancelled ones included). */
  get inFlight(): number {
    return this.#pending.size;
  }

  run(feeds: readonly Tensor[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]> {
    return this.#post((transfer) => feeds.map((t) => toWire(t, transfer)), outputNames, signal);
  }

  /**
   * A batch as its requests' pieces: numeric inputs cross as pieces (moved, not copied, when a request's buffer is
   * exclusive to it) and the worker joins them (BatchScratch); BYTES inputs are joined here, as `run` would.
   */
  runBatch(feeds: readonly BatchFeed[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]> {
    return this.#post(
      (transfer) =>
        feeds.map((f): WireFeed => {
          if (f.datatype === 'BYTES') {
            const data = f.parts.flatMap((p) => p.data as BytesArray);
            return toWire({ name: f.name, datatype: 'BYTES', shape: f.shape, data }, transfer);
          }
          return toWireParts(
            f.name,
            f.datatype,
            f.shape,
            f.parts.map((p) => p.data as NumericArray),
            transfer,
          );
        }),
      outputNames,
      signal,
    );
  }

  #post(wire: (transfer: TransferListItem[]) => WireFeed[], outputNames: readonly string[], signal: AbortSignal | undefined): Promise<Tensor[]> {
    if (this.#dead !== undefined) return Promise.reject(this.#dead);
    if (this.#crash !== undefined) {
      return Promise.reject(rtError('ENGINE_FAILED', `model ${this.modelLabel}: ${this.#crash}; the session is dead and must be reloaded`));
    }
    if (this.#closing !== undefined) return Promise.reject(rtError('MODEL_NOT_READY', `model ${this.modelLabel} is unloading`));
    if (signal?.aborted === true) return Promise.reject(rtError('CANCELLED', 'request was cancelled before it ran'));

    const id = this.#nextId++;
    const transfer: TransferListItem[] = [];
    const message: HostToWorker = { type: 'run', id, feeds: wire(transfer), outputNames };
    return new Promise<Tensor[]>((resolve, reject) => {
      const onAbort = (): void => {
        const entry = this.#pending.get(id);
        if (entry === undefined || entry.settled) return;
        // onnxruntime cannot stop a run midway: the worker finishes it and its answer is dropped. The caller
        // is released now.
        entry.settled = true;
        reject(rtError('CANCELLED', 'request was cancelled while it ran'));
      };
      const entry: PendingRun = {
        resolve,
        reject,
        settled: false,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      try {
        this.#worker.postMessage(message, transfer);
      } catch {
        // A buffer the runtime refuses to transfer (marked untransferable): nothing was sent, so send a copy.
        try {
          this.#worker.postMessage(message);
        } catch (err) {
          reject(
            rtError('ENGINE_FAILED', `model ${this.modelLabel}: cannot send the inputs to the engine worker: ${(err as Error).message}`, {
              cause: err,
            }),
          );
          return;
        }
      }
      this.#track(id, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Ends the worker thread at once, the way a crash would (it does not wait for the run in progress): pending
   * runs fail with ENGINE_FAILED and the session is dead. For a host that has given up on a worker (a hung
   * device, an operator's kill) and for exercising engine failover (docs/operations.md) with a real dead worker.
   * Ending a worker while onnxruntime-node is inside a run can abort the whole process (a Napi::Error thrown into
   * std::terminate as the worker's environment goes away; seen about once in five runs on this machine): prefer
   * ending an idle worker.
   */
  async terminate(): Promise<void> {
    if (this.#dead !== undefined) return;
    await this.#worker.terminate();
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    if (this.#dead === undefined && this.#pending.size > 0) {
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
      });
    }
    if (this.#dead === undefined) {
      this.#worker.ref();
      const closed = new Promise<void>((resolve) => {
        this.#closedByWorker = resolve;
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.#closeTimeoutMs);
      });
      this.#worker.postMessage({ type: 'close' } satisfies HostToWorker);
      await Promise.race([closed, timeout]);
      clearTimeout(timer);
    }
    // Mark the session dead before terminating so that the exit event does not read as a crash.
    this.#dead ??= rtError('MODEL_NOT_READY', `model ${this.modelLabel} is unloaded`);
    await this.#worker.terminate();
  }

  #track(id: number, entry: PendingRun): void {
    if (this.#pending.size === 0) this.#worker.ref();
    this.#pending.set(id, entry);
  }

  #settle(id: number): PendingRun | undefined {
    const entry = this.#pending.get(id);
    if (entry === undefined) return undefined;
    this.#pending.delete(id);
    entry.cleanup();
    if (this.#pending.size === 0) {
      this.#worker.unref();
      this.#drained?.();
      this.#drained = undefined;
    }
    return entry.settled ? undefined : entry;
  }

  #onMessage(message: WorkerToHost): void {
    switch (message.type) {
      case 'result': {
        const entry = this.#settle(message.id);
        if (entry === undefined) return;
        entry.settled = true;
        entry.resolve(message.outputs.map(fromWire));
        return;
      }
      case 'run-failed': {
        const entry = this.#settle(message.id);
        if (entry === undefined) return;
        entry.settled = true;
        entry.reject(rtFromWire(message.error));
        return;
      }
      case 'closed':
        this.#closedByWorker?.();
        return;
      default:
        return;
    }
  }

  #die(reason: string): void {
    if (this.#dead !== undefined) return;
    // The worker ends by itself once it has answered `closed`; that exit is not a crash.
    const orderly = this.#closing !== undefined && this.#pending.size === 0;
    this.#dead = orderly
      ? rtError('MODEL_NOT_READY', `model ${this.modelLabel} is unloaded`)
      : rtError('ENGINE_FAILED', `model ${this.modelLabel}: ${reason}; the session is dead and must be reloaded`);
    const entries = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of entries) {
      entry.cleanup();
      if (!entry.settled) {
        entry.settled = true;
        entry.reject(this.#dead);
      }
    }
    this.#worker.unref();
    this.#drained?.();
    this.#drained = undefined;
    this.#closedByWorker?.();
  }
}
