import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serverImageDecoding } from '../../../src/app/image-decoding.ts';
import { imageSpecOf, type ImageSpec } from '../../../src/config/image-spec.ts';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import { referenceFrameDecoder } from '../../../src/preprocess/frame-decoder.ts';
import type { Logger } from '../../../src/observability/logger.ts';

const spec = imageSpecOf(
  modelConfigSchema.parse({
    name: 'cam',
    max_batch_size: 4,
    input: [{ name: 'image', data_type: 'TYPE_FP32', dims: [3, 8, 8] }],
    output: [{ name: 'y', data_type: 'TYPE_FP32', dims: [2] }],
    preprocess: { resize: { mode: 'fill' } },
  }),
) as ImageSpec;
const jpegHeaderOnly = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);

/** Records what would be logged (pino's call form: an object, then the message). */
function logger(): { lines: string[]; log: Pick<Logger, 'info' | 'warn'> } {
  const lines: string[] = [];
  const record = (o: object, m: string): void => {
    lines.push(`${m} ${JSON.stringify(o)}`);
  };
  return { lines, log: { info: record, warn: record } as unknown as Pick<Logger, 'info' | 'warn'> };
}

describe('serverImageDecoding (server setting imageDecode)', () => {
  test("'cpu' gives no device decoding at all", () => {
    assert.equal(serverImageDecoding({ mode: 'cpu', providerOf: () => 'cuda', logger: logger().log, decoder: referenceFrameDecoder }), undefined);
  });

  test("'auto' takes only models the CUDA engine serves; the others keep the CPU path", async () => {
    const d = serverImageDecoding({
      mode: 'auto',
      providerOf: (m) => (m === 'gpu-model' ? 'cuda' : 'cpu'),
      logger: logger().log,
      decoder: referenceFrameDecoder,
    });
    assert.ok(d !== undefined);
    assert.equal(d.toTensor(jpegHeaderOnly, spec, 'cpu-model', undefined), undefined);
    await assert.rejects(d.toTensor(jpegHeaderOnly, spec, 'gpu-model', undefined) as Promise<unknown>, /BAD_DATA|corrupt jpeg image/);
  });

  test("without the CUDA addon, 'gpu' falls back to the CPU path and says why once", () => {
    const { lines, log } = logger();
    const d = serverImageDecoding({
      mode: 'gpu',
      providerOf: () => undefined,
      logger: log,
      addon: () => ({ available: false, reason: 'not built here' }),
    });
    assert.equal(d?.toTensor(jpegHeaderOnly, spec, 'm', undefined), undefined);
    assert.equal(d?.toTensor(jpegHeaderOnly, spec, 'm', undefined), undefined);
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /decoded on the CPU: the CUDA addon is not available.*not built here/);
  });
});
