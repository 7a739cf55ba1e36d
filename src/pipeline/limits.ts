/**
 * Inputs per request and elements per tensor, checked before every infer and stream, before anything else is done,
 * for every front end (REST, gRPC, WebSocket, SSE, the OpenAI routes).
 */
import { checkTensorLimits, type RequestLimits, type ShapedTensor } from '../security/limits.ts';
import type { InferRequest } from '../api/types.ts';
import { failedStream, type InferFn, type PipelineLayer, type StreamFn } from './layer.ts';

export type TensorLimits = Pick<RequestLimits, 'maxInputsPerRequest' | 'maxElementsPerTensor'>;

function requestInputs(request: InferRequest): readonly ShapedTensor[] {
  return request.sharedMemoryInputs === undefined ? request.inputs : [...request.inputs, ...request.sharedMemoryInputs];
}

export class RequestLimitsLayer implements PipelineLayer {
  constructor(private readonly limits: TensorLimits) {}

  infer(next: InferFn): InferFn {
    return (request) => {
      try {
        checkTensorLimits(requestInputs(request), this.limits);
      } catch (err) {
        return Promise.reject(err);
      }
      return next(request);
    };
  }

  stream(next: StreamFn): StreamFn {
    return (request) => {
      try {
        checkTensorLimits(requestInputs(request), this.limits);
      } catch (err) {
        return failedStream(err);
      }
      return next(request);
    };
  }
}
