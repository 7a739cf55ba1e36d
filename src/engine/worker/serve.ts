/**
 * The worker side of a WorkerSession: loads one model with an engine-specific loader, then answers run
 * messages one at a time until it is told to close. Engine worker entry files are two lines: import a loader,
 * call `serveSession(loader)`.
 */
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';
import { RtError } from '../../errors/registry.ts';
import type { SessionDescription } from '../engine.ts';
import type { HostToWorker, ProviderAttempt, WireError, WorkerLoadRequest, WorkerToHost } from './protocol.ts';
import { BatchScratch } from '../batch-scratch.ts';
import { isPartsTensor, transferable, type WireTensor } from './wire-tensor.ts';

/** A model loaded inside the worker. `run` may block this (worker) thread; that is the point of the worker. */
export interface LoadedModel {
  readonly description: SessionDescription;
  readonly attempts: readonly ProviderAttempt[];
  run(feeds: readonly WireTensor[], outputNames: readonly string[]): Promise<WireTensor[]>;
  close(): Promise<void>;
}

/** Thrown by a loader when no provider could load the model; carries the attempts for the host's logs. */
export class LoadFailure extends Error {
  readonly error: RtError;
  readonly attempts: readonly ProviderAttempt[];
  constructor(error: RtError, attempts: readonly ProviderAttempt[]) {
    super(error.message);
    this.name = 'LoadFailure';
    this.error = error;
    this.attempts = attempts;
  }
}

export type ModelLoader = (request: WorkerLoadRequest) => Promise<LoadedModel>;

/** An error as it crosses back to the host. Anything that is not an RtError is an engine failure. */
export function toWireError(err: unknown, modelLabel: string): WireError {
  if (err instanceof RtError) return { code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'ENGINE_FAILED', message: `model ${modelLabel} failed: ${message}` };
}

/** Makes every output buffer transferable and lists the buffers to transfer. */
function prepareOutputs(outputs: readonly WireTensor[], transfer: TransferListItem[]): WireTensor[] {
  return outputs.map((t) =>
    t.datatype === 'BYTES'
      ? { ...t, bytes: transferable(t.bytes, transfer), ends: transferable(t.ends, transfer) }
      : { ...t, data: transferable(t.data, transfer) },
  );
}

export function serveSession(loader: ModelLoader): void {
  const port = parentPort;
  if (port === null) throw new Error('serveSession must run inside a worker thread');
  const request = workerData as WorkerLoadRequest;
  const post = (message: WorkerToHost, transfer: TransferListItem[] = []): void => {
    try {
      port.postMessage(message, transfer);
    } catch {
      // A buffer the runtime refuses to transfer (an external or untransferable one): send a copy instead.
      port.postMessage(message);
    }
  };

  let model: LoadedModel | undefined;
  // Batches sent as pieces are joined here, off the event loop, into buffers kept from run to run.
  const scratch = new BatchScratch();
  // Messages are handled strictly one after another: a close never overtakes a run that arrived before it,
  // and onnxruntime never sees two runs of one session at once from this thread.
  let chain: Promise<void> = loader(request).then(
    (loaded) => {
      model = loaded;
      post({ type: 'loaded', description: loaded.description, attempts: loaded.attempts });
    },
    (err: unknown) => {
      const attempts = err instanceof LoadFailure ? err.attempts : [];
      const cause = err instanceof LoadFailure ? err.error : err;
      const error =
        cause instanceof RtError
          ? { code: cause.code, message: cause.message }
          : {
              code: 'MODEL_LOAD_FAILED' as const,
              message: `model ${request.modelLabel} failed to load: ${cause instanceof Error ? cause.message : String(cause)}`,
            };
      post({ type: 'load-failed', error, attempts });
    },
  );

  const handle = async (message: HostToWorker): Promise<void> => {
    if (message.type === 'close') {
      try {
        await model?.close();
      } finally {
        model = undefined;
        post({ type: 'closed' });
        port.close();
      }
      return;
    }
    if (model === undefined) {
      post({ type: 'run-failed', id: message.id, error: { code: 'MODEL_NOT_READY', message: `model ${request.modelLabel} is not loaded` } });
      return;
    }
    try {
      const feeds = message.feeds.map(
        (f): WireTensor =>
          isPartsTensor(f) ? { name: f.name, datatype: f.datatype, shape: f.shape, data: scratch.join(f.name, f.datatype, f.parts) } : f,
      );
      const outputs = await model.run(feeds, message.outputNames);
      const transfer: TransferListItem[] = [];
      post({ type: 'result', id: message.id, outputs: prepareOutputs(outputs, transfer) }, transfer);
    } catch (err) {
      post({ type: 'run-failed', id: message.id, error: toWireError(err, request.modelLabel) });
    }
  };

  // Anything that escapes `handle` (a reply that cannot be posted at all) would leave the host waiting
  // forever; crash the worker instead, so the host fails the pending runs and marks the session dead.
  const crash = (err: unknown): void => {
    setImmediate(() => {
      throw err;
    });
  };
  chain = chain.catch(crash);
  port.on('message', (message: HostToWorker) => {
    chain = chain.then(() => handle(message)).catch(crash);
  });
}
