import { checkTensorLimits, type RequestLimits, type ShapedTensor } from '../security/limits.ts';
import { withOverrides } from '../util/with-overrides.ts';

interface LimitableRequest {
  readonly inputs: readonly ShapedTensor[];
  /** Inputs whose bytes are in shared memory regions count like the others. */
  readonly sharedMemoryInputs?: readonly ShapedTensor[];
}

interface LimitableApi {
  infer(request: LimitableRequest): Promise<unknown>;
  inferStream?(request: LimitableRequest): AsyncIterable<unknown>;
}

function requestInputs(request: LimitableRequest): readonly ShapedTensor[] {
  return request.sharedMemoryInputs === undefined ? request.inputs : [...request.inputs, ...request.sharedMemoryInputs];
}

/**
 * The same InferenceApi with inputs per request and elements per tensor checked before every infer / inferStream,
 * for the front ends that decode requests themselves (gRPC, WebSocket, SSE). Other methods pass through.
 */
export function withRequestLimits<T extends LimitableApi>(api: T, limits: Pick<RequestLimits, 'maxInputsPerRequest' | 'maxElementsPerTensor'>): T {
  const overrides: Record<string, unknown> = {
    infer(request: LimitableRequest): Promise<unknown> {
      try {
        checkTensorLimits(requestInputs(request), limits);
      } catch (err) {
        return Promise.reject(err);
      }
      return api.infer(request);
    },
  };
  if (typeof api.inferStream === 'function') {
    const inner = api.inferStream;
    overrides['inferStream'] = (request: LimitableRequest): AsyncIterable<unknown> => {
      try {
        checkTensorLimits(requestInputs(request), limits);
      } catch (err) {
        // Errors of a stream surface from its iterator (the InferenceApi contract), never from the call itself.
        // biome-ignore lint/correctness/useYield: a stream that fails on its first pull yields nothing.
        return (async function* refused(): AsyncGenerator<never> {
          throw err;
        })();
      }
      return inner.call(api, request);
    };
  }
  return withOverrides(api, overrides);
}
