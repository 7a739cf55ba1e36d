/**
 * What GenerateService asks of the loop that decodes one model version: the continuous batcher over an ONNX
 * decoder session (continuous-batcher.ts) or the paged scheduler over a TokenEngine (paged-batcher.ts).
 */
import { rtError, type RtError } from '../errors/registry.ts';
import type { DecoderSpec } from './decoder-spec.ts';
import type { Sequence } from './sequence.ts';

export interface GenerationBatcher {
  readonly spec: DecoderSpec;
  /** Sequences admitted and not finished. */
  readonly running: number;
  /** Sequences waiting to be admitted. */
  readonly queued: number;
  /** Queues a sequence; throws RtError (QUEUE_FULL, BAD_REQUEST, MODEL_NOT_READY) when it cannot be taken. */
  submit(seq: Sequence): void;
  /** Resolves when nothing runs or waits. */
  whenIdle(): Promise<void>;
  /** Ends every sequence with `error` and refuses new ones. */
  close(error?: RtError): void;
}

/** The refusal of a batcher whose model is unloading (submit after close, and close's default error). */
export function unloadingError(model: string): RtError {
  return rtError('MODEL_NOT_READY', `model '${model}' is unloading`);
}

/** Throws QUEUE_FULL when `waiting` requests already fill the queue bound. */
export function checkQueueRoom(model: string, waiting: number, maxQueue: number): void {
  if (waiting >= maxQueue) {
    throw rtError('QUEUE_FULL', `model '${model}': ${waiting} generation requests are already waiting (generateMaxQueue); retry later`, {
      retryAfterMs: 100,
    });
  }
}
