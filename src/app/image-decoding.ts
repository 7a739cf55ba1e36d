/**
 * Where the server's image requests are decoded (server setting `imageDecode`, docs/image.md "On the GPU"): the GPU
 * frame batcher (preprocess/frame-batcher.ts over engine/cuda/image-decoder.ts: nvJPEG and the preprocess kernel)
 * for the models it is meant for, the CPU path (sharp) for every other image. The decoder starts at the first image
 * meant for the GPU, so servers that never see one never touch nvJPEG.
 */
import type { ServerConfig } from '../config/server-config.ts';
import type { ImageSpec } from '../config/image-spec.ts';
import { loadCudaAddon, type CudaAddonStatus } from '../engine/cuda/addon.ts';
import { CudaFrameDecoder } from '../engine/cuda/image-decoder.ts';
import type { Logger } from '../observability/logger.ts';
import { FrameBatcher, type ImageDecoding, type RawFrameArgs } from '../preprocess/frame-batcher.ts';
import type { FrameDecoder } from '../preprocess/frame-decoder.ts';
import { imageToTensor, type ImageTensor } from '../preprocess/image-pipeline.ts';

export interface ImageDecodingOptions {
  readonly mode: ServerConfig['imageDecode'];
  /** The provider serving a model version now ("cuda" for the CUDA engine); undefined when it is not loaded. */
  readonly providerOf: (model: string, version: string | undefined) => string | undefined;
  readonly logger: Pick<Logger, 'info' | 'warn'>;
  /** The addon (tests give another status); default: loadCudaAddon(). */
  readonly addon?: () => CudaAddonStatus;
  /** The device decoder (tests give the CPU reference); default: the addon's nvJPEG path. */
  readonly decoder?: FrameDecoder;
}

/** The pipeline's image decoding for this server; undefined when every image takes the CPU path. */
export function serverImageDecoding(options: ImageDecodingOptions): ImageDecoding | undefined {
  if (options.mode === 'cpu') return undefined;
  let batcher: FrameBatcher | null | undefined;
  const start = (): FrameBatcher | null => {
    let decoder = options.decoder;
    if (decoder === undefined) {
      const status = (options.addon ?? loadCudaAddon)();
      if (!status.available) {
        options.logger.info({ reason: status.reason }, 'images are decoded on the CPU: the CUDA addon is not available');
        return null;
      }
      try {
        const gpu = CudaFrameDecoder.create(status.addon);
        options.logger.info({ decoder: gpu.info }, 'images of GPU models are decoded on the GPU');
        decoder = gpu;
      } catch (e) {
        options.logger.warn(
          { reason: e instanceof Error ? e.message : String(e) },
          'images are decoded on the CPU: the GPU image decoder did not start',
        );
        return null;
      }
    }
    return new FrameBatcher(decoder, { cpu: imageToTensor });
  };
  const wanted = (model: string, version: string | undefined): boolean => options.mode === 'gpu' || options.providerOf(model, version) === 'cuda';
  return {
    toTensor(bytes: Uint8Array, spec: ImageSpec, model: string, version: string | undefined): Promise<ImageTensor> | undefined {
      if (!wanted(model, version)) return undefined;
      if (batcher === undefined) batcher = start();
      return batcher?.toTensor(bytes, spec, model, version);
    },
    rawToTensor(...args: RawFrameArgs) {
      const [, , , , model, version] = args;
      if (!wanted(model, version)) return undefined;
      if (batcher === undefined) batcher = start();
      return batcher?.rawToTensor(...args);
    },
  };
}
