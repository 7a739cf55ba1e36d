import { rtError } from '../../errors/registry.ts';
import type { CalibrationTable, NodePrecision } from '../../plan/manifest.ts';
import { DT } from '../../tensor/onnx-dtype.ts';
import { attrFloat, attrInt, makeNode, type Graph, type Node } from '../ir/graph.ts';
import { inferShapes } from '../ir/shape-inference.ts';
import { toFloat32, type ConstTensor } from '../ir/tensor.ts';
import type { QuantPlan } from './quant-plan.ts';

/**
 * INT8 post-training static quantization in QDQ form (ONNX QuantizeLinear / DequantizeLinear, opset ≥ 13 for
 * per-axis scales). Activations: UINT8, asymmetric, range from the calibration table. Weights: INT8,
 * per-output-channel, symmetric in [-127, 127] (zero point 0). Biases of Conv / Gemm: INT32 with scale
 * x_scale · w_scale[c], zero point 0, the layout onnxruntime's QLinearConv / QGemm fusions expect.
 */

export interface Int8Options {
  readonly perChannel: boolean;
}

export interface Int8Result {
  readonly nodePrecision: Map<string, NodePrecision>;
  readonly quantizedTensors: number;
  readonly quantizedWeights: number;
  readonly removedActivations: number;
}

export interface QParams {
  readonly scale: number;
  readonly zeroPoint: number;
}

/** UINT8 asymmetric parameters for [min, max] (min ≤ 0 ≤ max), as onnxruntime's compute_scale_zp does. */
export function activationParams(min: number, max: number): QParams {
  const lo = Math.min(min, 0);
  const hi = Math.max(max, 0);
  if (hi === lo) return { scale: 1, zeroPoint: 0 };
  const scale = (hi - lo) / 255;
  const zeroPoint = Math.min(255, Math.max(0, Math.round(-lo / scale)));
  return { scale, zeroPoint };
}

/** Symmetric INT8 weights per output channel (`axis`), values in [-127, 127]. */
export function quantizeWeights(w: ConstTensor, axis: number, perChannel: boolean): { q: Int8Array; scales: Float32Array } {
  const v = toFloat32(w);
  const dims = w.dims;
  const channels = perChannel ? (dims[axis] ?? 1) : 1;
  const inner = dims.slice(axis + 1).reduce((a, b) => a * b, 1);
  const channelOf = (i: number): number => (perChannel ? Math.floor(i / inner) % channels : 0);
  const absMax = new Float64Array(channels);
  for (let i = 0; i < v.length; i++) {
    const c = channelOf(i);
    absMax[c] = Math.max(absMax[c] ?? 0, Math.abs(v[i] ?? 0));
  }
  const scales = new Float32Array(channels);
  for (let c = 0; c < channels; c++) scales[c] = (absMax[c] ?? 0) > 0 ? (absMax[c] ?? 0) / 127 : 1;
  const q = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const s = scales[channelOf(i)] ?? 1;
    q[i] = Math.max(-127, Math.min(127, Math.round((v[i] ?? 0) / s)));
  }
  return { q, scales };
}

function scalar(elemType: number, v: number): ConstTensor {
  if (elemType === DT.FLOAT) return { elemType, dims: [], data: Float32Array.of(v) };
  if (elemType === DT.UINT8) return { elemType, dims: [], data: Uint8Array.of(v) };
  return { elemType, dims: [], data: Int8Array.of(v) };
}

/** Rewrites `g` (the FP32 graph the plan was made for) into QDQ form using calibrated ranges. */
export function quantizeInt8(g: Graph, plan: QuantPlan, table: CalibrationTable, options: Int8Options): Int8Result {
  if (g.opset < 13) {
    throw rtError(
      'UNSUPPORTED',
      `INT8 needs ONNX opset 13 or newer (per-channel QuantizeLinear/DequantizeLinear); the model imports opset ${g.opset}. Re-export it with opset >= 13`,
    );
  }
  const nodePrecision = new Map<string, NodePrecision>();
  for (const n of g.nodes) nodePrecision.set(n.name, 'fp32');
  const folded = new Map<string, string>();
  for (const f of plan.foldedActivations.values()) folded.set(f.input, f.output);

  const rangeOf = (t: string): { min: number; max: number } => {
    let name = t;
    for (let guard = 0; plan.rangeAlias.has(name) && guard < 64; guard++) name = plan.rangeAlias.get(name) as string;
    const measured = folded.get(name) ?? name;
    const r = table.tensors[measured];
    if (r === undefined) {
      throw rtError(
        'BAD_CONFIG',
        `the calibration table has no range for tensor '${measured}'; recalibrate (delete the calibration cache or pass --calibration)`,
      );
    }
    // Relu folded into the quantizer: the range starts at 0 so the zero point is 0 and Q clamps at 0.
    return folded.has(name) ? { min: 0, max: Math.max(0, r.max) } : r;
  };

  // 1. Activation Q → DQ pairs.
  const params = new Map<string, QParams>();
  const dqName = new Map<string, string>();
  const newNodes: Node[] = [];
  for (const t of plan.tensors) {
    const r = rangeOf(t);
    const p = activationParams(r.min, r.max);
    params.set(t, p);
    const scale = g.addInitializer(`${t}_scale`, scalar(DT.FLOAT, p.scale));
    const zp = g.addInitializer(`${t}_zero_point`, scalar(DT.UINT8, p.zeroPoint));
    const q = g.freshName(`${t}_quantized`);
    const dq = g.freshName(`${t}_dequantized`);
    newNodes.push(makeNode(g.freshName(`${t}_QuantizeLinear`), 'QuantizeLinear', [t, scale, zp], [q]));
    newNodes.push(makeNode(g.freshName(`${t}_DequantizeLinear`), 'DequantizeLinear', [q, scale, zp], [dq]));
    dqName.set(t, dq);
  }

  // 2. Remove folded Relu/Clip: their consumers read the quantized producer output.
  const removed = new Set<Node>();
  for (const [act, f] of plan.foldedActivations) {
    const dq = dqName.get(f.input);
    if (dq === undefined) continue;
    g.replaceUses(f.output, dq);
    removed.add(act);
  }
  g.nodes = g.nodes.filter((n) => !removed.has(n));

  // 3. Rewire consumers of quantized tensors to the dequantized values.
  const qdqOwners = new Set(newNodes);
  for (const n of g.nodes) {
    if (qdqOwners.has(n)) continue;
    n.inputs = n.inputs.map((x) => dqName.get(x) ?? x);
  }

  // 4. Weights (per channel) and biases (INT32).
  const weightCache = new Map<string, { dq: string; scales: Float32Array }>();
  let quantizedWeights = 0;
  for (const n of plan.weightNodes) {
    const wName = n.inputs[1] ?? '';
    const w = g.initializers.get(wName);
    if (w === undefined) continue;
    // Channel axis: Conv W is [M, C/g, k...]; Gemm B is [K, N] or [N, K] with transB; MatMul B is [K, N].
    const axis = n.opType === 'Conv' ? 0 : n.opType === 'Gemm' ? (attrInt(n, 'transB', 0) === 1 ? 0 : 1) : 1;
    const key = `${wName}@${axis}`;
    let entry = weightCache.get(key);
    if (entry === undefined) {
      const { q, scales } = quantizeWeights(w, axis, options.perChannel);
      const qName = g.addInitializer(`${wName}_quantized`, { elemType: DT.INT8, dims: w.dims, data: q });
      const sName = g.addInitializer(
        `${wName}_scale`,
        options.perChannel ? { elemType: DT.FLOAT, dims: [scales.length], data: scales } : scalar(DT.FLOAT, scales[0] ?? 1),
      );
      const zName = g.addInitializer(
        `${wName}_zero_point`,
        options.perChannel ? { elemType: DT.INT8, dims: [scales.length], data: new Int8Array(scales.length) } : scalar(DT.INT8, 0),
      );
      const dq = g.freshName(`${wName}_dequantized`);
      const attrs = options.perChannel ? { axis: { kind: 'int' as const, value: axis } } : {};
      newNodes.push(makeNode(g.freshName(`${wName}_DequantizeLinear`), 'DequantizeLinear', [qName, sName, zName], [dq], attrs));
      entry = { dq, scales };
      weightCache.set(key, entry);
      quantizedWeights++;
    }
    n.inputs[1] = entry.dq;
    nodePrecision.set(n.name, 'int8');

    // Bias: only when the activation input is quantized and the node computes plain x·W + b.
    const bName = n.inputs[2];
    const xOrig = [...dqName.entries()].find(([, d]) => d === n.inputs[0])?.[0];
    const xp = xOrig === undefined ? undefined : params.get(xOrig);
    if (n.opType === 'MatMul' || bName === undefined || bName === '' || xp === undefined) continue;
    if (n.opType === 'Gemm' && (attrFloat(n, 'alpha', 1) !== 1 || attrFloat(n, 'beta', 1) !== 1)) continue;
    const b = g.initializers.get(bName);
    if (b === undefined || b.elemType !== DT.FLOAT || b.dims.length !== 1) continue;
    const bv = toFloat32(b);
    const channels = bv.length;
    if (options.perChannel && entry.scales.length !== channels) continue;
    const bScales = new Float32Array(channels);
    const bq = new Int32Array(channels);
    for (let c = 0; c < channels; c++) {
      const s = xp.scale * (options.perChannel ? (entry.scales[c] ?? 1) : (entry.scales[0] ?? 1));
      bScales[c] = s;
      bq[c] = Math.max(-2147483647, Math.min(2147483647, Math.round((bv[c] ?? 0) / s)));
    }
    const qb = g.addInitializer(`${bName}_quantized`, { elemType: DT.INT32, dims: [channels], data: bq });
    const sb = g.addInitializer(`${bName}_scale`, { elemType: DT.FLOAT, dims: [channels], data: bScales });
    const zb = g.addInitializer(`${bName}_zero_point`, { elemType: DT.INT32, dims: [channels], data: new Int32Array(channels) });
    const dqb = g.freshName(`${bName}_dequantized`);
    newNodes.push(makeNode(g.freshName(`${bName}_DequantizeLinear`), 'DequantizeLinear', [qb, sb, zb], [dqb], { axis: { kind: 'int', value: 0 } }));
    n.inputs[2] = dqb;
  }
  for (const n of plan.qlinearNodes) nodePrecision.set(n.name, 'int8');
  for (const n of newNodes) nodePrecision.set(n.name, 'int8');
  g.nodes = [...newNodes, ...g.nodes];
  g.invalidateNames();
  g.toposort();
  inferShapes(g);
  return { nodePrecision, quantizedTensors: plan.tensors.size, quantizedWeights, removedActivations: removed.size };
}
