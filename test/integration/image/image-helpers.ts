/** Test data for the image models: held-out digits as PNG, shapes scenes as JPEG or PNG. */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import { inferenceClient, tensorsOf, unary, type ModelInferResponse } from '../grpc/grpc-test-client.ts';
import { generateScene, renderScene, sceneAt, type RenderedScene } from '../../../models/train/shapes-scene.ts';

export interface HeldOutDigits {
  readonly labels: readonly number[];
  /** Each image: 64 characters, one per pixel, levels '0'..'g' (0..16). */
  readonly images: readonly string[];
}

export function heldOutDigits(): HeldOutDigits {
  return JSON.parse(readFileSync(new URL('./digits-heldout.json', import.meta.url), 'utf8')) as HeldOutDigits;
}

/** One held-out 8x8 scan as a grayscale PNG, levels 0..16 spread over 0..255. */
export async function digitPng(image: string): Promise<Uint8Array<ArrayBuffer>> {
  const raw = Buffer.from([...image].map((ch) => Math.round((parseInt(ch, 17) * 255) / 16)));
  return bytes(
    await sharp(raw, { raw: { width: 8, height: 8, channels: 1 } })
      .png()
      .toBuffer(),
  );
}

/** A copy that fetch, Blob and FormData accept as a body (Node's Buffer type is not a BodyInit). */
export function bytes(b: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(b);
}

export async function encodeScene(r: RenderedScene, format: 'jpeg' | 'png', quality = 85): Promise<Uint8Array<ArrayBuffer>> {
  const img = sharp(Buffer.from(r.pixels), { raw: { width: r.width, height: r.height, channels: 3 } });
  return bytes(format === 'jpeg' ? await img.jpeg({ quality }).toBuffer() : await img.png().toBuffer());
}

/** A held-out scene (seeds 1..99999 are never trained on) at `scale` (4: 640x480), optionally moved in time. */
export function scene(seed: number, scale = 4, tSec = 0): RenderedScene {
  const spec = generateScene(seed);
  return renderScene(tSec === 0 ? spec : sceneAt(spec, tSec), scale);
}

/** One JPEG as a KServe BYTES input over gRPC ModelInfer (4-byte length prefix in raw_input_contents); its output tensors. */
export async function grpcJpegInfer(address: string, model: string, input: string, jpegBytes: Uint8Array, scoreThreshold: number): Promise<Tensor[]> {
  const grpc = inferenceClient(address);
  try {
    const jpeg = Buffer.from(jpegBytes);
    const len = Buffer.alloc(4);
    len.writeUInt32LE(jpeg.length);
    const g = await unary<ModelInferResponse>(grpc, 'ModelInfer', {
      model_name: model,
      inputs: [{ name: input, datatype: 'BYTES', shape: [1] }],
      raw_input_contents: [Buffer.concat([len, jpeg])],
      parameters: { score_threshold: { double_param: scoreThreshold } },
    });
    return tensorsOf(g);
  } finally {
    grpc.close();
  }
}
