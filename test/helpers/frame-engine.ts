/**
 * A device-decoder stand-in for CPU-only machines: onnxruntime sessions that also take encoded frames
 * (EngineSession.frameInput / runFrames, tensor/frames.ts) and decode them with the CPU reference decoder — the same
 * contract and arithmetic as the CUDA engine's nvJPEG path (preprocess/frame-decoder.ts). Every frame that reaches a
 * session is recorded, so tests can see which images went to "the device".
 */
import type { ImageSpec } from '../../src/config/image-spec.ts';
import type { Engine, EngineLoadOptions, EngineSession, FrameRun } from '../../src/engine/engine.ts';
import { createOrtEngine } from '../../src/engine/ort/index.ts';
import { referenceFrameDecoder } from '../../src/preprocess/frame-decoder.ts';
import type { EncodedFrame } from '../../src/tensor/frames.ts';

export interface FrameEngineLog {
  /** Every frame a session decoded, in arrival order. */
  readonly frames: EncodedFrame[];
  /** The size of every frame batch a session ran. */
  readonly batches: number[];
}

function frameSession(inner: EngineSession, spec: ImageSpec, log: FrameEngineLog): EngineSession {
  const runFrames = async (frames: readonly EncodedFrame[], outputNames: readonly string[], signal?: AbortSignal): Promise<FrameRun> => {
    log.frames.push(...frames);
    log.batches.push(frames.length);
    const items = frames.map((f) => ({
      bytes: f.bytes,
      encoded: true,
      width: f.width,
      height: f.height,
      place: { resizeWidth: f.resizeWidth, resizeHeight: f.resizeHeight, offsetX: f.offsetX, offsetY: f.offsetY },
    }));
    const { rows, statuses } = await referenceFrameDecoder.decode(items, spec);
    const plane = spec.layout === 'NCHW' ? [3, spec.height, spec.width] : [spec.height, spec.width, 3];
    const input = { name: spec.inputName, datatype: spec.dtype, shape: [frames.length, ...plane], data: rows };
    const outputs = await inner.run([input], outputNames, signal);
    return { outputs, failures: statuses.map((s) => (s.ok ? undefined : { code: s.code ?? 'corrupt', message: s.message ?? 'not decoded' })) };
  };
  return {
    device: inner.device,
    frameInput: spec.inputName,
    runFrames,
    run: (feeds, names, signal) => inner.run(feeds, names, signal),
    ...(inner.runBatch === undefined
      ? {}
      : { runBatch: (feeds, names, signal) => (inner.runBatch as NonNullable<EngineSession['runBatch']>).call(inner, feeds, names, signal) }),
    describe: () => inner.describe(),
    close: () => inner.close(),
  };
}

/** onnxruntime, with every 3-channel image model's sessions taking encoded frames; `log` records them. */
export function frameDecodingEngine(log: FrameEngineLog): Engine {
  const ort = createOrtEngine();
  return {
    ...ort,
    name: 'onnxruntime+frames',
    async load(modelPath: string, options: EngineLoadOptions): Promise<EngineSession> {
      const session = await ort.load(modelPath, options);
      const spec = options.image;
      return spec === undefined || spec.channels !== 3 ? session : frameSession(session, spec, log);
    },
  };
}
