/**
 * Safetensors reading (src/hf/safetensors.ts) on files written by the test's own encoder: F32/F16/BF16 widened
 * exactly to float32, the stored bytes handed out as they are (for a half-precision engine), tensors found across
 * shards by the index, and a header that lies about its data refused.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SafetensorsCheckpoint } from '../../../src/hf/safetensors.ts';
import { safetensorsBytes, type Dtype } from '../../helpers/hf-checkpoint.ts';

const root = await mkdtemp(join(tmpdir(), 'rtserve-st-'));
after(() => rm(root, { recursive: true, force: true }));
const values = Float32Array.from([0.5, -0.25, 1.5, -2, 0.015625, 0]);

for (const dtype of ['F32', 'F16', 'BF16'] as Dtype[]) {
  test(`${dtype}: read widens exactly, readRaw gives the stored bytes`, async () => {
    const dir = join(root, dtype);
    const bytes = safetensorsBytes(
      [
        { name: 'a', shape: [2, 3], data: values },
        { name: 'b', shape: [1], data: Float32Array.of(3) },
      ],
      dtype,
    );
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir);
    await writeFile(join(dir, 'model.safetensors'), bytes);
    const ckpt = await SafetensorsCheckpoint.open(dir);
    assert.deepEqual([...(await ckpt.read('a', [2, 3]))], [...values]);
    assert.deepEqual([...(await ckpt.read('b'))], [3]);
    const raw = await ckpt.readRaw('a');
    assert.equal(raw.dtype, dtype);
    assert.equal(raw.bytes.length, values.length * (dtype === 'F32' ? 4 : 2));
    await assert.rejects(ckpt.read('a', [3, 2]), /tensor 'a' has shape \[2, 3\]; config\.json implies \[3, 2\]/);
    await assert.rejects(ckpt.read('nope'), /the checkpoint has no tensor 'nope'/);
  });
}

test('a header whose offsets do not match the shape is refused', async () => {
  const dir = join(root, 'lying');
  await mkdir(dir);
  const bytes = safetensorsBytes([{ name: 'a', shape: [2, 3], data: values }], 'F32');
  const text = new TextDecoder('latin1').decode(bytes).replace('"shape":[2,3]', '"shape":[2,4]');
  await writeFile(
    join(dir, 'model.safetensors'),
    Uint8Array.from(text, (c) => c.charCodeAt(0)),
  );
  await assert.rejects(SafetensorsCheckpoint.open(dir), /tensor 'a' \(\[2, 4\] F32\) does not match its data offsets/);
});
