import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { rtError } from '../errors/registry.ts';
import { isPlanBytes, readPlan } from '../plan/format.ts';
import type { PlanManifest } from '../plan/manifest.ts';
import { elemTypeName } from '../tensor/onnx-dtype.ts';
import { loadModel, type Dim, type ValueInfo } from './ir/graph.ts';
import { tensorBytes } from './ir/tensor.ts';

export interface ModelSummary {
  readonly irVersion: number;
  readonly opsets: Readonly<Record<string, number>>;
  readonly producer: string;
  readonly inputs: readonly { readonly name: string; readonly type: string; readonly shape: readonly (number | string)[] | null }[];
  readonly outputs: readonly { readonly name: string; readonly type: string; readonly shape: readonly (number | string)[] | null }[];
  readonly nodes: number;
  /** Node count per operator (domain-qualified when not ai.onnx). */
  readonly operators: Readonly<Record<string, number>>;
  readonly initializers: number;
  readonly parameters: number;
  readonly weightBytes: number;
}

export interface InspectResult {
  readonly path: string;
  readonly kind: 'onnx' | 'plan';
  readonly bytes: number;
  readonly model: ModelSummary;
  /** Only for plans. */
  readonly manifest?: PlanManifest;
}

function io(vs: readonly ValueInfo[]): ModelSummary['inputs'] {
  return vs.map((v) => ({ name: v.name, type: elemTypeName(v.type.elemType), shape: v.type.shape?.map((d: Dim) => d ?? '?') ?? null }));
}

export function summarizeModel(bytes: Uint8Array, name: string, baseDir?: string): ModelSummary {
  const g = loadModel(bytes, baseDir === undefined ? { fileName: name } : { fileName: name, baseDir });
  const operators: Record<string, number> = {};
  for (const n of g.nodes) {
    const key = n.domain === '' ? n.opType : `${n.domain}.${n.opType}`;
    operators[key] = (operators[key] ?? 0) + 1;
  }
  let parameters = 0;
  let weightBytes = 0;
  for (const t of g.initializers.values()) {
    parameters += t.dims.reduce((a, b) => a * b, 1);
    weightBytes += tensorBytes(t);
  }
  return {
    irVersion: g.meta.irVersion,
    opsets: Object.fromEntries(g.opsets),
    producer: `${g.meta.producerName} ${g.meta.producerVersion}`.trim(),
    inputs: io(g.inputs),
    outputs: io(g.outputs),
    nodes: g.nodes.length,
    operators,
    initializers: g.initializers.size,
    parameters,
    weightBytes,
  };
}

/** Describes an .onnx model or a .plan file (sniffed by content, not by extension). */
export async function inspect(path: string): Promise<InspectResult> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch {
    throw rtError('BAD_CONFIG', `cannot read '${path}'`);
  }
  if (isPlanBytes(bytes)) {
    const { manifest, payload } = readPlan(bytes, { name: path });
    return { path, kind: 'plan', bytes: bytes.byteLength, model: summarizeModel(payload, `${basename(path)} payload`), manifest };
  }
  return { path, kind: 'onnx', bytes: bytes.byteLength, model: summarizeModel(bytes, basename(path), dirname(path)) };
}

const shapeText = (s: readonly (number | string)[] | null): string => (s === null ? '(unknown rank)' : `[${s.join(', ')}]`);

/** Human-readable text for `rtserve inspect`. */
export function formatInspect(r: InspectResult): string {
  const lines: string[] = [];
  const m = r.model;
  lines.push(`${r.path}: ${r.kind === 'plan' ? 'rtserve plan' : 'ONNX model'}, ${r.bytes} bytes`);
  if (r.manifest !== undefined) {
    const mf = r.manifest;
    lines.push(
      `  format        ${mf.formatVersion.major}.${mf.formatVersion.minor}, built ${mf.createdAt} by ${mf.tool.name} ${mf.tool.version} (node ${mf.tool.node})`,
    );
    lines.push(`  source        ${mf.source.fileName} (${mf.source.bytes} bytes, sha256 ${mf.source.sha256.slice(0, 16)}…)`);
    lines.push(
      `  target        ${mf.target} (provider ${mf.deviceRequirements.executionProvider}${mf.deviceRequirements.arch !== undefined ? `, arch ${mf.deviceRequirements.arch}` : ''})`,
    );
    lines.push(`  precision     ${mf.precision}${mf.keepIoTypes ? ' (FP32 inputs/outputs)' : ''}`);
    const counts: Record<string, number> = {};
    for (const v of Object.values(mf.nodePrecision)) counts[v] = (counts[v] ?? 0) + 1;
    lines.push(
      `  node precision ${Object.entries(counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    lines.push(
      `  runtime       ${mf.runtime === null ? 'none' : `${mf.runtime.name} ${mf.runtime.version}`}, payload optimization ${mf.payload.ortOptimizationLevel}`,
    );
    lines.push(`  passes        ${mf.passes.map((p) => `${p.name}(${p.changed})`).join(' ')}`);
    if (mf.calibration !== null) {
      lines.push(
        `  calibration   ${mf.calibration.method}${mf.calibration.percentile !== undefined ? ` ${mf.calibration.percentile}%` : ''}, ${mf.calibration.samples} samples, ${Object.keys(mf.calibration.tensors).length} tensors`,
      );
    }
    for (const p of mf.profiles) lines.push(`  profile       ${p.input}: min [${p.min.join(',')}] opt [${p.opt.join(',')}] max [${p.max.join(',')}]`);
    if (mf.accuracy !== null) {
      lines.push(
        `  accuracy      ${mf.accuracy.passed ? 'passed' : 'FAILED'} on ${mf.accuracy.samples} ${mf.accuracy.dataSource} samples: ` +
          mf.accuracy.gates
            .map((x) => `${x.metric}=${x.value === null ? 'n/a' : Number(x.value.toPrecision(6))} (${x.passed ? 'ok' : 'fail'} vs ${x.threshold})`)
            .join(', '),
      );
    }
    for (const n of mf.deviceRequirements.notes) lines.push(`  note          ${n}`);
  }
  lines.push(
    `  ir version    ${m.irVersion}, opsets ${Object.entries(m.opsets)
      .map(([d, v]) => `${d === '' ? 'ai.onnx' : d}:${v}`)
      .join(', ')}`,
  );
  if (m.producer !== '') lines.push(`  producer      ${m.producer}`);
  for (const i of m.inputs) lines.push(`  input         ${i.name}: ${i.type} ${shapeText(i.shape)}`);
  for (const o of m.outputs) lines.push(`  output        ${o.name}: ${o.type} ${shapeText(o.shape)}`);
  lines.push(`  graph         ${m.nodes} nodes, ${m.initializers} initializers, ${m.parameters} parameters (${m.weightBytes} bytes)`);
  lines.push(
    `  operators     ${Object.entries(m.operators)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k}×${v}`)
      .join(' ')}`,
  );
  return lines.join('\n');
}
