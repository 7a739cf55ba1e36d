/**
 * rtserve's GPU image path (issue #19), timed on the GPU machine beside torchvision (jpeg_torch_bench.py, same run):
 *
 *   node bench/cuda/jpeg-bench.ts FIXTURES_DIR OUT.json
 *
 * For the 256-frame sets of jpeg_fixtures.py (224×224 and 640×480, quality 85), batch 256 and 64:
 *   device   nvJPEG decode + preprocess to ResNet-50's input (224×224, FP16, NCHW, ImageNet mean/std), rows left on the GPU
 *   host     the same, rows copied back to the host (what the frame batcher hands the scheduler today)
 *   batcher  256 image requests through FrameBatcher.toTensor at once (header routing, one decode batch, rows to host)
 * img/s from the median of timed rounds; the decoder's backends are recorded.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageSpecOf, type ImageSpec } from '../../src/config/image-spec.ts';
import { modelConfigSchema } from '../../src/config/model-config.ts';
import { loadCudaAddon } from '../../src/engine/cuda/addon.ts';
import { CudaFrameDecoder, frameMeta, type GpuFrame } from '../../src/engine/cuda/image-decoder.ts';
import { planResize } from '../../src/preprocess/decode.ts';
import { FrameBatcher } from '../../src/preprocess/frame-batcher.ts';
import { readJpegHeader } from '../../src/preprocess/jpeg-header.ts';

const [fixtures, outFile] = process.argv.slice(2);
if (fixtures === undefined || outFile === undefined) throw new Error('usage: jpeg-bench.ts FIXTURES_DIR OUT.json');
const status = loadCudaAddon();
if (!status.available) throw new Error(status.reason);
const addon = status.addon;
const decoder = CudaFrameDecoder.create(addon);

const spec = imageSpecOf(
  modelConfigSchema.parse({
    name: 'resnet50',
    max_batch_size: 256,
    input: [{ name: 'input', data_type: 'TYPE_FP16', dims: [3, 224, 224] }],
    output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [1000] }],
    preprocess: { resize: { mode: 'fill' }, mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] },
  }),
) as ImageSpec;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
async function timed(fn: () => Promise<unknown>, rounds = 9): Promise<number> {
  await fn();
  await fn();
  const ts: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    ts.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return median(ts);
}

const results: Record<string, unknown> = { decoder: decoder.info, spec: { width: 224, height: 224, dtype: 'FP16', layout: 'NCHW' }, sets: {} };
for (const label of ['224', '640']) {
  const dir = join(fixtures, `bench-${label}`);
  const files = readdirSync(dir).sort();
  const bytes = files.map((f) => new Uint8Array(readFileSync(join(dir, f))));
  const frames: GpuFrame[] = bytes.map((b) => {
    const h = readJpegHeader(b);
    if (!h.ok) throw new Error(h.reason);
    const p = planResize(h.header.width, h.header.height, spec);
    const t = p.transform;
    return {
      bytes: b,
      encoded: true,
      width: h.header.width,
      height: h.header.height,
      place: { resizeWidth: p.resizeWidth, resizeHeight: p.resizeHeight, offsetX: t.offsetX, offsetY: t.offsetY },
    };
  });
  const set: Record<string, unknown> = { frames: frames.length, meanBytes: bytes.reduce((a, b) => a + b.length, 0) / bytes.length };
  const decodeImages = addon.decodeImages as NonNullable<typeof addon.decodeImages>;
  for (const batch of [256, 64]) {
    const use = frames.slice(0, batch);
    const meta = frameMeta(use);
    const items = use.map((f) => f.bytes);
    const json = decoder.jsonOf(spec);
    let backends = '';
    const tDevice = await timed(async () => {
      backends = [
        ...new Set(
          (JSON.parse(await decodeImages(decoder.nativeHandle, items, meta, json, new Uint8Array(0))) as { backend?: string }[]).map(
            (s) => s.backend,
          ),
        ),
      ].join(',');
    });
    const tHost = await timed(() => decoder.decode(use, spec));
    set[`batch${batch}`] = { backends, deviceImgPerS: batch / tDevice, deviceMs: tDevice * 1000, hostImgPerS: batch / tHost, hostMs: tHost * 1000 };
  }
  const batcher = new FrameBatcher(decoder, { cpu: () => Promise.reject(new Error('CPU path called')), maxBatch: 256 });
  const tBatcher = await timed(() => Promise.all(bytes.map((b) => batcher.toTensor(b, spec, 'resnet50', undefined))));
  set.batcher = { imgPerS: bytes.length / tBatcher, ms: tBatcher * 1000, largestBatch: batcher.counts.largestBatch, cpu: batcher.counts.cpu };
  (results.sets as Record<string, unknown>)[label] = set;
  console.log(label, JSON.stringify(set));
}
writeFileSync(outFile, JSON.stringify(results, null, 1));
