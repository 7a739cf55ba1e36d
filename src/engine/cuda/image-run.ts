/**
 * Frames straight into a CUDA plan (issue #19): the addon's `runImages` decodes and preprocesses a batch of frames
 * into the plan's input slot in its arena and runs the plan, so no image tensor crosses the host at all -- only the
 * JPEG bytes go up and the outputs come back. For plans whose only input is the image.
 */
import { rtError } from '../../errors/registry.ts';
import type { FrameStatus, ImageSpec } from '../../config/image-spec.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import type { CudaSession } from './cuda-session.ts';
import { frameMeta, type CudaFrameDecoder, type GpuFrame } from './image-decoder.ts';

export async function runFramesOnSession(
  session: CudaSession,
  decoder: CudaFrameDecoder,
  frames: readonly GpuFrame[],
  spec: ImageSpec,
): Promise<{ outputs: Tensor[]; statuses: FrameStatus[] }> {
  const { addon, handle, network } = session.nativeParts();
  if (addon.runImages === undefined) throw rtError('ENGINE_UNAVAILABLE', 'this build of the CUDA addon has no image path');
  const input = network.inputs[0];
  if (network.inputs.length !== 1 || input === undefined || input.name !== spec.inputName) {
    throw rtError('BAD_REQUEST', `frames go straight into plans whose only input is the image '${spec.inputName}'`);
  }
  if (input.datatype !== spec.dtype)
    throw rtError('BAD_DATATYPE', `the plan's input '${input.name}' is ${input.datatype}, the image spec gives ${spec.dtype}`);
  const rows = frames.length;
  if (rows < 1 || rows > network.maxBatch) throw rtError('BAD_SHAPE', `1 to ${network.maxBatch} frames per run, got ${rows}`);
  const batch = network.batches.find((b) => b >= rows) ?? network.maxBatch;
  const outputs = network.outputs.map((o) => {
    const n = rows * o.rowShape.reduce((a, b) => a * b, 1);
    return o.datatype === 'FP32' ? new Float32Array(n) : new Uint16Array(n);
  });
  let text: string;
  try {
    text = await addon.runImages(
      handle,
      decoder.nativeHandle,
      batch,
      rows,
      frames.map((f) => f.bytes),
      frameMeta(frames),
      decoder.jsonOf(spec),
      outputs,
    );
  } catch (e) {
    throw rtError('ENGINE_DEVICE_FAILED', `CUDA engine (frames): ${e instanceof Error ? e.message : String(e)}`);
  }
  return {
    outputs: network.outputs.map(
      (o, i): Tensor => ({ name: o.name, datatype: o.datatype, shape: [rows, ...o.rowShape], data: outputs[i] as Float32Array }),
    ),
    statuses: JSON.parse(text) as FrameStatus[],
  };
}
