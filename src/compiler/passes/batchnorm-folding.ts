import { DT } from '../../tensor/onnx-dtype.ts';
import { attrFloat, attrInt, type Graph, type Node } from '../ir/graph.ts';
import { toFloat32, type ConstTensor } from '../ir/tensor.ts';
import { ChangeLog, type Pass } from './pass.ts';
import { constInput, convOrGemmWithSoleConsumer, renameOutput } from './util.ts';

interface BnParams {
  /** gamma / sqrt(var + eps) per channel */
  readonly scale: Float32Array;
  /** beta - mean * scale per channel */
  readonly shift: Float32Array;
}

/** Inference-mode BatchNormalization with constant statistics (ONNX BatchNormalization: y = s·(x − mean) + B). */
function bnParams(g: Graph, bn: Node, channels: number): BnParams | undefined {
  if (bn.outputs.filter((o) => o !== '').length !== 1 || attrInt(bn, 'training_mode', 0) !== 0) return undefined;
  const ts = [1, 2, 3, 4].map((i) => constInput(g, bn, i));
  if (ts.some((t) => t === undefined || t.elemType !== DT.FLOAT || t.dims.length !== 1 || t.dims[0] !== channels)) return undefined;
  const [gamma, beta, mean, variance] = ts.map((t) => toFloat32(t as ConstTensor)) as [Float32Array, Float32Array, Float32Array, Float32Array];
  const eps = attrFloat(bn, 'epsilon', 1e-5);
  const scale = new Float32Array(channels);
  const shift = new Float32Array(channels);
  for (let c = 0; c < channels; c++) {
    // float64 arithmetic here, rounded once: the folded weights are as close to the original as float32 allows
    const s = (gamma[c] ?? 1) / Math.sqrt((variance[c] ?? 1) + eps);
    scale[c] = s;
    shift[c] = (beta[c] ?? 0) - (mean[c] ?? 0) * s;
  }
  return { scale, shift };
}

function foldIntoConv(g: Graph, conv: Node, bn: Node): boolean {
  const w = constInput(g, conv, 1);
  if (w === undefined || w.elemType !== DT.FLOAT || w.dims.length < 3) return false;
  const m = w.dims[0] ?? 0;
  const bias = conv.inputs[2] !== undefined && conv.inputs[2] !== '' ? constInput(g, conv, 2) : undefined;
  if (conv.inputs[2] !== undefined && conv.inputs[2] !== '' && bias === undefined) return false;
  const p = bnParams(g, bn, m);
  if (p === undefined) return false;
  const wv = toFloat32(w);
  const per = wv.length / m;
  const nw = new Float32Array(wv.length);
  for (let o = 0; o < m; o++) {
    const s = p.scale[o] ?? 1;
    for (let k = 0; k < per; k++) nw[o * per + k] = (wv[o * per + k] ?? 0) * s;
  }
  const bv = bias === undefined ? new Float32Array(m) : toFloat32(bias);
  const nb = new Float32Array(m);
  for (let o = 0; o < m; o++) nb[o] = (bv[o] ?? 0) * (p.scale[o] ?? 1) + (p.shift[o] ?? 0);
  conv.inputs[1] = g.addInitializer(`${conv.name}_W_bnfolded`, { elemType: DT.FLOAT, dims: w.dims, data: nw });
  const bName = g.addInitializer(`${conv.name}_B_bnfolded`, { elemType: DT.FLOAT, dims: [m], data: nb });
  if (conv.inputs.length < 3) conv.inputs.push(bName);
  else conv.inputs[2] = bName;
  return true;
}

function foldIntoGemm(g: Graph, gemm: Node, bn: Node): boolean {
  const b = constInput(g, gemm, 1);
  if (b === undefined || b.elemType !== DT.FLOAT || b.dims.length !== 2) return false;
  // BatchNormalization on a 2-D [N, C] tensor normalizes the columns of the Gemm result.
  const yShape = g.typeOf(gemm.outputs[0] ?? '')?.shape;
  if (yShape == null || yShape.length !== 2) return false;
  const transB = attrInt(gemm, 'transB', 0) === 1;
  const k = (transB ? b.dims[1] : b.dims[0]) ?? 0;
  const n = (transB ? b.dims[0] : b.dims[1]) ?? 0;
  const cName = gemm.inputs[2];
  const c = cName !== undefined && cName !== '' ? constInput(g, gemm, 2) : undefined;
  if (cName !== undefined && cName !== '' && c === undefined) return false;
  if (
    c !== undefined &&
    !(c.dims.length === 0 || (c.dims.length === 1 && (c.dims[0] === n || c.dims[0] === 1)) || (c.dims.length === 2 && c.dims[0] === 1))
  )
    return false;
  const p = bnParams(g, bn, n);
  if (p === undefined) return false;
  const bv = toFloat32(b);
  const nb = new Float32Array(bv.length);
  for (let r = 0; r < (transB ? n : k); r++) {
    for (let col = 0; col < (transB ? k : n); col++) {
      const outCh = transB ? r : col;
      const idx = r * (transB ? k : n) + col;
      nb[idx] = (bv[idx] ?? 0) * (p.scale[outCh] ?? 1);
    }
  }
  const beta = attrFloat(gemm, 'beta', 1);
  const cv = c === undefined ? undefined : toFloat32(c);
  const nc = new Float32Array(n);
  for (let j = 0; j < n; j++) {
    const cj = cv === undefined ? 0 : (cv.length === 1 ? (cv[0] ?? 0) : (cv[j] ?? 0)) * beta;
    nc[j] = cj * (p.scale[j] ?? 1) + (p.shift[j] ?? 0);
  }
  gemm.inputs[1] = g.addInitializer(`${gemm.name}_B_bnfolded`, { elemType: DT.FLOAT, dims: b.dims, data: nb });
  const cNew = g.addInitializer(`${gemm.name}_C_bnfolded`, { elemType: DT.FLOAT, dims: [n], data: nc });
  if (gemm.inputs.length < 3) gemm.inputs.push(cNew);
  else gemm.inputs[2] = cNew;
  gemm.attrs.set('beta', { kind: 'float', value: 1 });
  return true;
}

/**
 * Folds an inference-mode BatchNormalization that directly follows a Conv or a Gemm into that node's weights
 * and bias: W'[o] = W[o]·s[o], b'[o] = b[o]·s[o] + (β[o] − μ[o]·s[o]) with s = γ / √(σ² + ε).
 */
export const batchNormFolding: Pass = {
  name: 'batchnorm-folding',
  description: 'fold BatchNormalization into the preceding Conv or Gemm',
  run(g: Graph) {
    const log = new ChangeLog();
    const consumers = g.consumers();
    const dead = new Set<Node>();
    for (const { producer: n, consumer: bn, out } of convOrGemmWithSoleConsumer(g, consumers)) {
      if (bn.opType !== 'BatchNormalization' || bn.domain !== '' || dead.has(bn)) continue;
      const ok = n.opType === 'Conv' ? foldIntoConv(g, n, bn) : foldIntoGemm(g, n, bn);
      if (!ok) continue;
      renameOutput(n, out, bn.outputs[0] ?? out);
      dead.add(bn);
      log.add(`folded BatchNormalization '${bn.name}' into ${n.opType} '${n.name}'`);
    }
    if (dead.size > 0) g.nodes = g.nodes.filter((x) => !dead.has(x));
    return log.result();
  },
};
