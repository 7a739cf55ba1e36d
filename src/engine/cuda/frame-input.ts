/**
 * A CUDA plan's image input filled from encoded frames on the device (tensor/frames.ts, docs/image.md "Frames on
 * the engine's device"): the instance hands a batch's JPEG bytes and placements to the addon's `runImages`, which
 * decodes them with nvJPEG, resizes and normalizes them by the model's image spec into the plan's input slot in its
 * arena, and runs the plan. No decoded pixel crosses the host; only the encoded bytes go up and the outputs come back.
 */
import type { ImageSpec } from '../../config/image-spec.ts';
import type { CudaNetwork } from '../../plan/cuda-network.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import type { EncodedFrame, FrameFailure } from '../../tensor/frames.ts';
import type { FrameRun } from '../engine.ts';
import { concatBatch } from '../batch-tensors.ts';
import type { CudaAddon } from './addon.ts';
import type { CudaSession } from './cuda-session.ts';
import { CudaFrameDecoder, type GpuFrame } from './image-decoder.ts';
import { runFramesOnSession } from './image-run.ts';

/** One decoder per addon (its nvJPEG handles and stream), shared by every instance; a string says why there is none. */
const decoders = new WeakMap<CudaAddon, CudaFrameDecoder | string>();

function sharedDecoder(addon: CudaAddon): CudaFrameDecoder | string {
  let d = decoders.get(addon);
  if (d === undefined) {
    try {
      d = CudaFrameDecoder.create(addon);
      if (!d.decodesJpeg) d = 'this build of the CUDA addon has no nvJPEG';
    } catch (e) {
      d = e instanceof Error ? e.message : String(e);
    }
    decoders.set(addon, d);
  }
  return d;
}

export class CudaFrameInput {
  readonly name: string;
  private readonly spec: ImageSpec;
  private readonly decoder: CudaFrameDecoder;

  private constructor(spec: ImageSpec, decoder: CudaFrameDecoder) {
    this.name = spec.inputName;
    this.spec = spec;
    this.decoder = decoder;
  }

  /**
   * The frame input of a plan, when frames can go straight into it: the model has an image spec whose input is the
   * plan's only input, in the plan's dtype, with 3 channels, and the addon decodes JPEGs. Undefined otherwise (every
   * image is then decoded before the engine).
   */
  static of(addon: CudaAddon, network: CudaNetwork, spec: ImageSpec | undefined): CudaFrameInput | undefined {
    const input = network.inputs[0];
    if (spec === undefined || addon.runImages === undefined || network.inputs.length !== 1 || input === undefined) return undefined;
    if (input.name !== spec.inputName || input.datatype !== spec.dtype || spec.channels !== 3) return undefined;
    const decoder = sharedDecoder(addon);
    return typeof decoder === 'string' ? undefined : new CudaFrameInput(spec, decoder);
  }

  /** Runs `frames` through `session` in chunks of its largest program; call it from the session's queue. */
  async run(session: CudaSession, frames: readonly EncodedFrame[], outputNames: readonly string[]): Promise<FrameRun> {
    const { network } = session.nativeParts();
    const gpu = frames.map(
      (f): GpuFrame => ({
        bytes: f.bytes,
        encoded: true,
        width: f.width,
        height: f.height,
        place: { resizeWidth: f.resizeWidth, resizeHeight: f.resizeHeight, offsetX: f.offsetX, offsetY: f.offsetY },
      }),
    );
    const chunks: Tensor[][] = [];
    const failures: (FrameFailure | undefined)[] = [];
    for (let from = 0; from < gpu.length; from += network.maxBatch) {
      const part = await runFramesOnSession(session, this.decoder, gpu.slice(from, from + network.maxBatch), this.spec);
      chunks.push(part.outputs);
      for (const s of part.statuses) {
        failures.push(s.ok ? undefined : { code: s.code ?? 'corrupt', message: s.message ?? 'the device decoder refused the frame' });
      }
    }
    const wanted = outputNames.length === 0 ? undefined : new Set(outputNames);
    // Chunks only past the largest program (the batcher normally keeps below it): joined along rows.
    const outputs = (chunks.length === 1 ? (chunks[0] as Tensor[]) : concatBatch(chunks)).filter((t) => wanted === undefined || wanted.has(t.name));
    return { outputs, failures };
  }
}
