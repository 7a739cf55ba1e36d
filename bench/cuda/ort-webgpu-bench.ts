/**
 * onnxruntime-node with the WebGPU execution provider (Dawn over Vulkan) on the same GPU and model, FP32
 * (the source ONNX model as exported): latency = median wall time of session.run, throughput = images / that.
 *
 *   node --experimental-transform-types bench/cuda/ort-webgpu-bench.ts MODEL.onnx OUT.json [batches]
 */
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import ort from 'onnxruntime-node';

const [model = '', out = '', batchList = '1,8,32'] = process.argv.slice(2);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const session = await ort.InferenceSession.create(model, { executionProviders: ['webgpu'] });
  const rows: Record<string, unknown>[] = [];
  for (const b of batchList.split(',').map(Number)) {
    const data = new Float32Array(b * 3 * 224 * 224).map(() => Math.random() * 2 - 1);
    const feeds = { [session.inputNames[0] ?? 'input']: new ort.Tensor('float32', data, [b, 3, 224, 224]) };
    for (let i = 0; i < 3; i++) await session.run(feeds);
    const times: number[] = [];
    const t0 = performance.now();
    while (times.length < 5 || (performance.now() - t0 < 3000 && times.length < 100)) {
      const s = performance.now();
      await session.run(feeds);
      times.push((performance.now() - s) * 1000);
    }
    const lat = median(times);
    rows.push({ model: basename(model, '.onnx'), batch: b, latencyUs: lat, throughputImgPerS: b / (lat / 1e6), runs: times.length });
    console.log(`${basename(model)} webgpu b=${b}: ${lat.toFixed(0)} us, ${(b / (lat / 1e6)).toFixed(0)} img/s`);
  }
  await writeFile(out, `${JSON.stringify({ runtime: `onnxruntime-node ${ort.env.versions.common} webgpu`, precision: 'fp32', rows }, null, 1)}\n`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
