/**
 * The classification postprocess on its own (issue #30: it was half of a front-end worker's CPU for served ResNet-50
 * JPEGs, bench/results/frames-2026-12-04.md): classify() of 1,000 logits, top 5 with softmax, per call.
 *
 *   node --import tsx bench/classify.ts [--classes 1000] [--top 5] [--calls 20000]
 */
import { parseArgs } from 'node:util';
import { classify } from '../src/postprocess/classification.ts';
import { mulberry32 } from '../src/util/random.ts';

const { values } = parseArgs({
  options: { classes: { type: 'string', default: '1000' }, top: { type: 'string', default: '5' }, calls: { type: 'string', default: '20000' } },
});
const classes = Number(values.classes);
const calls = Number(values.calls);
const rand = mulberry32(7);
const logits = Array.from({ length: 64 }, () => Float32Array.from({ length: classes }, () => rand() * 10 - 5));
let sink = 0;
for (let i = 0; i < 2000; i++) sink += classify(logits[i % 64] as Float32Array, { activation: 'softmax', topK: Number(values.top) })[0]?.index ?? 0;
const t0 = process.hrtime.bigint();
for (let i = 0; i < calls; i++) sink += classify(logits[i % 64] as Float32Array, { activation: 'softmax', topK: Number(values.top) })[0]?.index ?? 0;
const us = Number(process.hrtime.bigint() - t0) / 1e3 / calls;
console.log(JSON.stringify({ classes, top: Number(values.top), calls, usPerCall: Math.round(us * 10) / 10, sink: sink % 7 }));
