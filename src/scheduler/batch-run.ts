/**
 * How the scheduler runs one batch on an instance: tensors joined along dim 0 (or handed to the engine in pieces),
 * or encoded frames (tensor/frames.ts) that the engine decodes on its device, where a frame it could not take fails
 * only its own request.
 */
import { type RtError, rtError } from '../errors/registry.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { EncodedFrame, FrameFailure } from '../tensor/frames.ts';
import type { EngineSession } from '../engine/engine.ts';
import { concatBatch, planBatch } from '../engine/batch-tensors.ts';
import type { ValidatedRequest } from './scheduler.ts';

/**
 * Runs a batch's requests on an instance. Tensors: a request alone keeps its own (no copy); a batch gets one copy
 * per input, made by the engine where it offers runBatch (a worker session joins it on its thread), else here.
 * Encoded frames (tensor/frames.ts): the engine decodes them on its device; a frame it could not take fails its
 * own request only (`failed[i]` for request i).
 */
export async function runOnSession(
  session: EngineSession,
  requests: readonly ValidatedRequest[],
  names: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ outputs: Tensor[]; failed?: readonly (RtError | undefined)[] }> {
  const first = requests[0] as ValidatedRequest;
  if (first.request.frames !== undefined) return runFrameBatch(session, requests, names, signal);
  if (requests.length === 1) return { outputs: await session.run(first.request.inputs, names, signal) };
  const inputs = requests.map((v) => v.request.inputs);
  if (session.runBatch === undefined) return { outputs: await session.run(concatBatch(inputs), names, signal) };
  return { outputs: await session.runBatch(planBatch(inputs), names, signal) };
}

async function runFrameBatch(
  session: EngineSession,
  requests: readonly ValidatedRequest[],
  names: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ outputs: Tensor[]; failed: readonly (RtError | undefined)[] }> {
  // The image layer decodes such frames on the CPU instead (the engine changed since it looked).
  if (session.runFrames === undefined) throw rtError('UNSUPPORTED', 'the engine serving this model now takes decoded tensors only');
  const frames: EncodedFrame[] = [];
  for (const v of requests) {
    const placed = v.request.frames ?? [];
    const bytes = v.request.inputs[0]?.data as readonly Uint8Array[];
    for (const [i, p] of placed.entries()) frames.push({ ...p, bytes: bytes[i] as Uint8Array });
  }
  const run = await session.runFrames(frames, names, signal);
  let row = 0;
  const failed = requests.map((v) => {
    let error: RtError | undefined;
    for (let i = 0; i < v.batchSize; i++, row++) {
      const f = run.failures[row];
      if (f !== undefined && error === undefined) error = frameError(f, i, v.batchSize);
    }
    return error;
  });
  return { outputs: run.outputs, failed };
}

/** A frame the device did not take: refused (BAD_DATA), or UNSUPPORTED when the CPU path can decode it instead. */
function frameError(f: FrameFailure, index: number, frames: number): RtError {
  const which = frames === 1 ? 'the frame' : `frame ${index}`;
  if (f.code === 'unsupported') return rtError('UNSUPPORTED', `the device decoder cannot take ${which}: ${f.message}`);
  return rtError('BAD_DATA', `${f.code === 'too-large' ? 'oversized' : 'corrupt'} JPEG (${which}): ${f.message}`);
}
