/**
 * Frames decoded in batches on a device (issue #19): every image request that reaches the image pipeline in the same
 * turn of the event loop -- from any client and any front end -- joins one decode batch of a `FrameDecoder` (nvJPEG
 * and the preprocess kernel on the GPU); each request gets its row back as its input tensor, which the model's
 * scheduler then batches as it batches every request.
 *
 * Per frame, never per batch: a JPEG the GPU decodes exactly like the CPU path (8-bit YCbCr, no EXIF rotation;
 * jpeg-header.ts) goes to the device; PNG, WebP, grayscale, CMYK, rotated frames, and any frame the device reports
 * "unsupported" take the CPU path (sharp) as before; a corrupt, truncated or oversized frame is refused with
 * BAD_DATA naming why, and the other frames of its batch are answered.
 */
import { rtError } from '../errors/registry.ts';
import type { ImageSpec } from '../config/image-spec.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { DecodedFrames, FrameDecoder, FrameItem, FrameStatus } from './frame-decoder.ts';
import { referenceFrameDecoder, rowElements } from './frame-decoder.ts';
import type { ImageTensor } from './image-pipeline.ts';
import { deviceRoute, placeFrame } from './engine-frame.ts';

/** How the image pipeline turns bytes into the model's input tensor (the CPU path when there is none). */
export interface ImageDecoding {
  /** Undefined: this model's images take the CPU path. */
  toTensor(bytes: Uint8Array, spec: ImageSpec, model: string, version: string | undefined): Promise<ImageTensor> | undefined;
  /** The same for a raw RGB frame (`width`×`height`×3 bytes); undefined: the CPU path. */
  rawToTensor?(...args: RawFrameArgs): Promise<ImageTensor> | undefined;
}

/** A raw RGB frame for a model: its pixels and size, the model's image spec, the model and version. */
export type RawFrameArgs = [pixels: Uint8Array, width: number, height: number, spec: ImageSpec, model: string, version: string | undefined];

/** What an API object carries when its image requests may decode on a device (set by pipeline/images.ts). */
export interface WithImageDecoding {
  readonly imageDecoding?: ImageDecoding;
}

export interface FrameBatcherOptions {
  /** Whether `model`'s images go to the device (by default: every 3-channel model). */
  readonly useFor?: (model: string, version: string | undefined) => boolean;
  /** The most frames in one decode batch (default 256). */
  readonly maxBatch?: number;
  /** Decode batches in flight at once (default 2: one decodes while the next one gathers). */
  readonly maxInFlight?: number;
  /** The CPU path, for the frames the device does not take. */
  readonly cpu: (bytes: Uint8Array, spec: ImageSpec) => Promise<ImageTensor>;
}

interface Job {
  readonly item: FrameItem;
  readonly result: Omit<ImageTensor, 'tensor'>;
  readonly bytes: Uint8Array;
  readonly resolve: (t: ImageTensor) => void;
  readonly reject: (e: unknown) => void;
}

/** Counters of where frames went (tests and statistics). */
export interface FrameBatcherCounts {
  device: number;
  cpu: number;
  refused: number;
  batches: number;
  largestBatch: number;
}

export class FrameBatcher implements ImageDecoding {
  readonly counts: FrameBatcherCounts = { device: 0, cpu: 0, refused: 0, batches: 0, largestBatch: 0 };
  private readonly pending = new Map<ImageSpec, Job[]>();
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly decoder: FrameDecoder;
  private readonly options: FrameBatcherOptions;

  constructor(decoder: FrameDecoder, options: FrameBatcherOptions) {
    this.decoder = decoder;
    this.options = options;
    this.maxBatch = options.maxBatch ?? 256;
    this.maxInFlight = options.maxInFlight ?? 2;
  }

  toTensor(bytes: Uint8Array, spec: ImageSpec, model: string, version: string | undefined): Promise<ImageTensor> | undefined {
    if (spec.channels !== 3 || this.options.useFor?.(model, version) === false) return undefined;
    // Not a JPEG, or one the model does not accept: the CPU path decodes it or gives its error.
    const route = this.decoder.decodesJpeg ? deviceRoute(bytes, spec) : ({ to: 'cpu' } as const);
    if (route.to === 'refuse') return this.refuse(route.message);
    if (route.to === 'cpu') return this.cpu(bytes, spec);
    const { width, height } = route;
    return this.enqueue({ bytes, encoded: true, width, height }, bytes, spec, 'jpeg');
  }

  /** A raw RGB frame (`width`×`height`×3 bytes) through the same device path. */
  rawToTensor(...[pixels, width, height, spec, model, version]: RawFrameArgs): Promise<ImageTensor> | undefined {
    if (spec.channels !== 3 || this.options.useFor?.(model, version) === false) return undefined;
    if (pixels.length !== width * height * 3) {
      return Promise.reject(rtError('BAD_DATA', `a raw ${width}x${height} RGB frame holds ${width * height * 3} bytes, got ${pixels.length}`));
    }
    if (width * height > spec.maxPixels) {
      return this.refuse(`the image is ${width}x${height} = ${width * height} pixels, over the limit of ${spec.maxPixels} for model '${spec.model}'`);
    }
    return this.enqueue({ bytes: pixels, encoded: false, width, height }, pixels, spec, 'raw');
  }

  private cpu(bytes: Uint8Array, spec: ImageSpec): Promise<ImageTensor> {
    this.counts.cpu++;
    return this.options.cpu(bytes, spec);
  }

  private refuse(message: string): Promise<never> {
    this.counts.refused++;
    return Promise.reject(rtError('BAD_DATA', message));
  }

  private enqueue(
    frame: { bytes: Uint8Array; encoded: boolean; width: number; height: number },
    bytes: Uint8Array,
    spec: ImageSpec,
    format: string,
  ): Promise<ImageTensor> {
    const { placement: p, transform: t } = placeFrame(frame.width, frame.height, spec);
    const item: FrameItem = { ...frame, place: { resizeWidth: p.resizeWidth, resizeHeight: p.resizeHeight, offsetX: p.offsetX, offsetY: p.offsetY } };
    return new Promise<ImageTensor>((resolve, reject) => {
      let list = this.pending.get(spec);
      if (list === undefined) {
        list = [];
        this.pending.set(spec, list);
      }
      list.push({ item, bytes, resolve, reject, result: { image: { width: frame.width, height: frame.height, format }, transform: t } });
      this.schedule();
    });
  }

  /** Flushes once the current turn of the event loop has queued its frames. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    for (const [spec, list] of this.pending) {
      while (list.length > 0 && this.inFlight < this.maxInFlight) {
        const batch = list.splice(0, this.maxBatch);
        this.inFlight++;
        void this.run(batch, spec).finally(() => {
          this.inFlight--;
          if (this.pendingCount() > 0) this.schedule();
        });
      }
      if (list.length === 0) this.pending.delete(spec);
    }
  }

  private pendingCount(): number {
    let n = 0;
    for (const list of this.pending.values()) n += list.length;
    return n;
  }

  private async run(batch: readonly Job[], spec: ImageSpec): Promise<void> {
    this.counts.batches++;
    this.counts.largestBatch = Math.max(this.counts.largestBatch, batch.length);
    let out: DecodedFrames;
    try {
      out = await this.decoder.decode(
        batch.map((j) => j.item),
        spec,
      );
    } catch {
      // The device failed the whole call (not one frame): the CPU path answers these frames.
      for (const j of batch) this.fallback(j, spec);
      return;
    }
    batch.forEach((j, i) => {
      const s = out.statuses[i] as FrameStatus | undefined;
      if (s?.ok === true) {
        this.counts.device++;
        j.resolve(rowTensor(out, i, spec, j));
      } else if (s === undefined || s.code === 'unsupported') {
        this.fallback(j, spec);
      } else {
        this.counts.refused++;
        j.reject(
          rtError(
            'BAD_DATA',
            s.code === 'too-large'
              ? (s.message ?? 'the image is too large')
              : `corrupt ${j.result.image.format} image: ${s.message ?? 'the device could not decode it'}`,
          ),
        );
      }
    });
  }

  /** A frame the device did not take: JPEGs through the CPU path, raw frames through the CPU reference. */
  private fallback(j: Job, spec: ImageSpec): void {
    if (j.item.encoded) {
      this.cpu(j.bytes, spec).then(j.resolve, j.reject);
      return;
    }
    this.counts.cpu++;
    referenceFrameDecoder.decode([j.item], spec).then((out) => {
      const s = out.statuses[0];
      if (s?.ok === true) j.resolve(rowTensor(out, 0, spec, j));
      else j.reject(rtError('BAD_DATA', s?.message ?? 'the raw frame could not be converted'));
    }, j.reject);
  }
}

/** Row `i` of a decoded batch as the model's input tensor of one image ([1, ...] as imageToTensor makes it). */
function rowTensor(out: DecodedFrames, i: number, spec: ImageSpec, j: Job): ImageTensor {
  const per = rowElements(spec);
  const plane = spec.layout === 'NCHW' ? [3, spec.height, spec.width] : [spec.height, spec.width, 3];
  const tensor: Tensor = { name: spec.inputName, datatype: spec.dtype, shape: [1, ...plane], data: out.rows.subarray(i * per, (i + 1) * per) };
  return { tensor, ...j.result };
}
