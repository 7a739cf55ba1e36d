/**
 * onnxruntime on the calling thread, for benchmarks and offline tools only: `run` blocks the event loop for
 * the whole inference. The server always goes through `createOrtEngine` (one worker per session).
 */
import type { Tensor } from '../../tensor/tensor.ts';
import type { EngineLoadOptions, SessionDescription } from '../engine.ts';
import { modelLabelOf } from '../worker/worker-session.ts';
import { fromWire, toWire } from '../worker/wire-tensor.ts';
import { loadOrtModel } from './ort-backend.ts';

export interface InProcessOrtSession {
  describe(): SessionDescription;
  run(feeds: readonly Tensor[], outputNames: readonly string[]): Promise<Tensor[]>;
  close(): Promise<void>;
}

export async function openInProcessOrtSession(modelPath: string, options: EngineLoadOptions): Promise<InProcessOrtSession> {
  const model = await loadOrtModel({ modelPath, modelLabel: modelLabelOf(modelPath), options });
  return {
    describe: () => model.description,
    run: async (feeds, outputNames) =>
      (
        await model.run(
          feeds.map((t) => toWire(t)),
          outputNames,
        )
      ).map(fromWire),
    close: () => model.close(),
  };
}
