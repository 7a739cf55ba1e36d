/**
 * The raw-engine baseline (`rtserve bench --engine`): the same model file run without a server.
 *  - `engine-worker`: src/engine/ort's createOrtEngine, the engine the server uses (one worker thread per session,
 *    tensors transferred), so the difference to the served path is the transport, codec, core and batcher.
 *  - `engine-inprocess`: onnxruntime on the calling thread (openInProcessOrtSession), the pure ORT number; the
 *    difference to `engine-worker` is the worker hop.
 * Both implement LoadClient, so the same windows, stability rule and percentiles apply.
 */
import type { TensorData } from '../../tensor/datatype.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import type { EngineLoadOptions, SessionDescription } from '../../engine/engine.ts';
import { createOrtEngine, openInProcessOrtSession } from '../../engine/ort/index.ts';
import { RequestFailure } from '../errors.ts';
import type { LoadClient } from './load-client.ts';

export type EngineKind = 'engine-worker' | 'engine-inprocess';
export const ENGINE_KINDS: readonly EngineKind[] = ['engine-inprocess', 'engine-worker'];

interface Runnable {
  describe(): SessionDescription;
  run(feeds: readonly Tensor[], outputNames: readonly string[]): Promise<Tensor[]>;
  close(): Promise<void>;
}

const cloneData = (d: TensorData): TensorData => (Array.isArray(d) ? [...d] : d.slice());

export interface EngineClient extends LoadClient {
  describe(): SessionDescription;
  /** Replaces the input sets (the session is loaded once, then measured at several batch sizes). */
  setInputSets(sets: readonly (readonly Tensor[])[]): void;
}

/** Loads `modelPath` with the given engine kind; `send` runs one batch of the current input set. */
export async function openEngineClient(kind: EngineKind, modelPath: string, options: EngineLoadOptions): Promise<EngineClient> {
  const session: Runnable =
    kind === 'engine-worker' ? await createOrtEngine().load(modelPath, options) : await openInProcessOrtSession(modelPath, options);
  const outputNames = session.describe().outputs.map((o) => o.name);
  // The worker engine transfers (detaches) whole input buffers, so it gets a fresh copy per run: the same one copy
  // the served path makes when it hands a request's tensors (views over the HTTP body) to the worker.
  const copyInputs = kind === 'engine-worker';
  let sets: readonly (readonly Tensor[])[] = [];
  return {
    protocol: kind,
    describe: () => session.describe(),
    setInputSets(next) {
      sets = next;
    },
    async send(seq) {
      const inputs = sets[seq % sets.length] as readonly Tensor[];
      const feeds = copyInputs ? inputs.map((t) => ({ ...t, data: cloneData(t.data) })) : inputs;
      try {
        await session.run(feeds, outputNames);
      } catch (err) {
        throw new RequestFailure(`engine: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
    },
    close: () => session.close(),
  };
}
