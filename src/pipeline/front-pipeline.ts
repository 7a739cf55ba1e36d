/**
 * The pipeline a front-end worker of `--workers N` puts in front of the engine owner's API (cluster/remote-api.ts,
 * docs/workers.md): the image layer, for models whose engine decodes frames on its device. A worker then reads each
 * JPEG's header, places it (preprocess/engine-frame.ts) and forwards the undecoded bytes as a frame request
 * (tensor/frames.ts); the owner schedules it as any request and its engine decodes it; the raw outputs come back
 * and the worker turns them into classes or boxes. So the owner's CPU, which every worker shares, spends nothing
 * on headers, placement, postprocess or labels. Every other request — and every image of a model whose engine takes
 * tensors, which the owner's image layer decodes, on its own device where it can — crosses as it came.
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { ImageRequest, ImageResult } from '../api/image-types.ts';
import type { SystemSharedMemoryApi } from '../shm/system-shared-memory.ts';
import { rtError } from '../errors/registry.ts';
import { DelegatingApi } from './delegating-api.ts';
import { ImageLayer } from './images.ts';
import { streamOfInfer, type InferFn, type StreamFn } from './layer.ts';

export class FrontPipeline extends DelegatingApi {
  readonly infer: InferFn;
  readonly inferStream: StreamFn;
  readonly inferImage: (request: ImageRequest) => Promise<ImageResult>;
  readonly systemSharedMemory?: SystemSharedMemoryApi;

  constructor(owner: InferenceApi) {
    super(owner);
    const images = new ImageLayer(owner, undefined, { engineFramesOnly: true });
    const ownerInfer: InferFn = (request) => owner.infer(request);
    const ownerStream = owner.inferStream;
    this.infer = images.infer(ownerInfer);
    this.inferStream = images.stream(ownerStream === undefined ? streamOfInfer(ownerInfer) : (request) => ownerStream.call(owner, request));
    const framesImage = images.image(ownerInfer);
    this.inferImage = (request) => {
      if (images.takes(request.model, request.version)) return framesImage(request);
      if (owner.inferImage === undefined)
        return Promise.reject(rtError('UNSUPPORTED', 'this server has no image pipeline (InferenceApi.inferImage)'));
      return owner.inferImage(request);
    };
    if (owner.systemSharedMemory !== undefined) this.systemSharedMemory = owner.systemSharedMemory;
  }
}
