/**
 * A layer of the request pipeline, in the shape of undici's `Dispatcher.compose` interceptors: it gets the function
 * of the layers below it (`next`) and returns its own, which may answer the request itself, change it on the way
 * down, change the answers on the way up, or pass it on untouched. `compose` folds a list of layers once, outermost
 * first, around a base API; request-pipeline.ts folds the server's layers around the core.
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../api/types.ts';

export type InferFn = (request: InferRequest) => Promise<InferResponse>;
/** Every response of one request as it is produced (InferenceApi.inferStream); errors surface from the iterator. */
export type StreamFn = (request: InferRequest) => AsyncIterable<InferResponse>;

export interface PipelineLayer {
  infer?(next: InferFn): InferFn;
  stream?(next: StreamFn): StreamFn;
}

/** The two entry points of a folded pipeline. */
export interface ComposedCalls {
  readonly infer: InferFn;
  readonly stream: StreamFn;
}

/** A stream of the one answer of an `infer` (the InferenceApi.inferStream contract for ordinary models). */
export function streamOfInfer(infer: InferFn): StreamFn {
  return (request) =>
    (async function* one(): AsyncGenerator<InferResponse> {
      yield await infer(request);
    })();
}

/** A stream that fails on its first pull: errors of a stream surface from its iterator, never from the call. */
export function failedStream(err: unknown): AsyncIterable<InferResponse> {
  // biome-ignore lint/correctness/useYield: a stream that fails on its first pull yields nothing.
  return (async function* refused(): AsyncGenerator<never> {
    throw err;
  })();
}

/**
 * `layers` (outermost first) folded around `base`; a base without `inferStream` streams its `infer` as one response.
 * Folded once: the functions returned are what every request calls.
 */
export function compose(layers: readonly PipelineLayer[], base: Pick<InferenceApi, 'infer' | 'inferStream'>): ComposedCalls {
  let infer: InferFn = (request) => base.infer(request);
  const baseStream = base.inferStream;
  let stream: StreamFn = baseStream === undefined ? streamOfInfer(infer) : (request) => baseStream.call(base, request);
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i] as PipelineLayer;
    if (layer.infer !== undefined) infer = layer.infer(infer);
    if (layer.stream !== undefined) stream = layer.stream(stream);
  }
  return { infer, stream };
}
