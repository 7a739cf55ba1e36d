import { RtError, rtError } from '../errors/registry.ts';
import type { EncodedFrame } from '../tensor/frames.ts';
import { copyData } from '../tensor/datatype.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { concatBatch } from './batch-tensors.ts';
import type { ChainRouter, FailoverReason } from './chain-types.ts';
import type { BatchFeed, EngineSession, FrameRun, SessionDescription } from './engine.ts';

/** An engine or device failure (reason), or undefined for an error that is the request's or the caller's. */
export function engineFailureOf(err: unknown, session: EngineSession): FailoverReason | undefined {
  if (err instanceof RtError && (err.category === 'CANCELLED' || err.category === 'DEADLINE_EXCEEDED' || err.category === 'INVALID_ARGUMENT'))
    return undefined;
  if (session.isAlive?.() === false) return 'worker_died';
  if (err instanceof RtError && err.code === 'ENGINE_DEVICE_FAILED') return 'device_error';
  return undefined;
}

/** What the scheduler holds for one instance: runs go to whichever link serves. */
export class ChainSession implements EngineSession {
  readonly #chain: ChainRouter;
  readonly #instance: number;

  constructor(chain: ChainRouter, instance: number) {
    this.#chain = chain;
    this.#instance = instance;
  }

  /** The GPU this instance is placed on, whichever link serves it. */
  get device(): number | undefined {
    return this.#chain.deviceOf(this.#instance);
  }

  describe(): SessionDescription {
    return this.#chain.description;
  }

  /** The serving link's frame input: frames go to the device while a link that decodes them serves. */
  get frameInput(): string | undefined {
    return this.#chain.ready(this.#instance)?.session.frameInput;
  }

  /**
   * Frames on whichever link serves; a link that does not decode frames (the chain failed over to one) answers
   * UNSUPPORTED, and the image layer decodes those frames on the CPU instead.
   */
  runFrames(frames: readonly EncodedFrame[], outputNames: readonly string[], signal?: AbortSignal): Promise<FrameRun> {
    return this.#runOnChain(
      frames,
      (session, f) =>
        session.runFrames === undefined
          ? Promise.reject(rtError('UNSUPPORTED', 'the engine serving this model now takes decoded tensors only'))
          : session.runFrames(f, outputNames, signal),
      (f) => f,
      signal,
    );
  }

  run(feeds: readonly Tensor[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]> {
    return this.#runOnChain(
      feeds,
      (session, inputs) => session.run(inputs, outputNames, signal),
      (inputs) => inputs.map(copyTensor),
      signal,
    );
  }

  /**
   * A batch as its requests' pieces: passed on to a session that joins them itself (a worker session joins them
   * on its own thread), joined here for one that does not.
   */
  runBatch(feeds: readonly BatchFeed[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]> {
    return this.#runOnChain(
      feeds,
      (session, pieces) =>
        session.runBatch !== undefined ? session.runBatch(pieces, outputNames, signal) : session.run(joinPieces(pieces), outputNames, signal),
      (pieces) => pieces.map((f) => ({ ...f, parts: f.parts.map(copyTensor) })),
      signal,
    );
  }

  async #runOnChain<F, R>(
    feeds: F,
    runOn: (session: EngineSession, inputs: F) => Promise<R>,
    copy: (inputs: F) => F,
    signal: AbortSignal | undefined,
  ): Promise<R> {
    let inputs = feeds;
    let retried = false;
    for (;;) {
      const { link, session } = this.#chain.ready(this.#instance) ?? (await this.#chain.acquire(this.#instance));
      // The engine may hand the inputs to a worker that then dies with them: keep a copy for the one retry.
      const spare = !retried && this.#chain.canRetryFrom(link) ? copy(inputs) : undefined;
      try {
        const outputs = await runOn(session, inputs);
        this.#chain.succeeded(link);
        return outputs;
      } catch (err) {
        // The link was swapped out between acquire and run (a recovery closed it): nothing ran, run again.
        if (err instanceof RtError && err.code === 'MODEL_NOT_READY' && !this.#chain.isServing(link) && session.isAlive?.() !== true) {
          if (spare !== undefined) inputs = spare;
          continue;
        }
        const reason = engineFailureOf(err, session);
        if (reason === undefined) throw err;
        this.#chain.fail(link, reason, reason === 'worker_died' ? session : err);
        if (spare === undefined || signal?.aborted === true || this.#chain.isServing(link)) throw err;
        inputs = spare;
        retried = true;
      }
    }
  }

  isAlive(): boolean {
    return true;
  }

  close(): Promise<void> {
    return this.#chain.close();
  }
}

/** A batch given as pieces, joined for a session without `runBatch`: back to the requests, then concatenated. */
function joinPieces(feeds: readonly BatchFeed[]): Tensor[] {
  const requests = (feeds[0]?.parts ?? []).map((_, i) => feeds.map((f) => f.parts[i] as Tensor));
  return concatBatch(requests);
}

function copyTensor(t: Tensor): Tensor {
  return { ...t, data: copyData(t.datatype, t.data) };
}
