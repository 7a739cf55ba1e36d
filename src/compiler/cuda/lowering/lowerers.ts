import { rtError } from '../../../errors/registry.ts';
import type { Node } from '../../ir/graph.ts';
import { ACT } from '../../../plan/cuda-network.ts';
import type { LoweringContext } from './context.ts';
import { lowerConv } from './conv.ts';
import { lowerBatchedMatMul, lowerDense } from './dense.ts';
import { BIN_OPS, lowerBatchNorm, lowerBinary, lowerUnary } from './elementwise.ts';
import { actOfNode, matchActivation, siluPair } from './fusion.ts';
import { lowerGlobalPool, lowerPool } from './pool.ts';
import { lowerAlias, lowerConcat, lowerTranspose } from './shape-ops.ts';
import { lowerSoftmax } from './softmax.ts';
import { lowerExpand, lowerGather, lowerGatherElements, lowerPad, lowerSlice, lowerTopK } from './indexing.ts';
import { lowerResize } from './resize.ts';
import { TYPED_OPS, lowerCast, lowerTyped } from './typed-elementwise.ts';

/** Lowers one node (not absorbed into another's step) of the default ONNX domain. */
export type Lowerer = (ctx: LoweringContext, n: Node) => void;

/** Add/Sub/Mul/Div: floats on the FP16 binary layer (with epilogue fusion), integers on the typed one. */
function lowerArithmetic(ctx: LoweringContext, n: Node): void {
  if (ctx.isInt(n.outputs[0] ?? '')) lowerTyped(ctx, n);
  else lowerBinary(ctx, n);
}

function lowerMatMul(ctx: LoweringContext, n: Node): void {
  const c = ctx.constOf(n.inputs[1]);
  if (c !== undefined && c.dims.length === 2) lowerDense(ctx, n);
  else lowerBatchedMatMul(ctx, n);
}

/** An activation node; Sigmoid(x)·x (SiLU as torch exports it) becomes one step. */
function lowerActivation(ctx: LoweringContext, n: Node): void {
  const pair = n.opType === 'Sigmoid' ? siluPair(ctx, n.inputs[0] ?? '') : undefined;
  if (pair !== undefined && pair.s === n) {
    if (matchActivation(ctx, pair.m.outputs[0] ?? '') !== undefined)
      ctx.notes.push(`SiLU '${n.name}' followed by a second activation: kept separate`);
    lowerUnary(ctx, n, { kind: ACT.silu, p0: 0, p1: 0 }, [pair.m], pair.m.outputs[0] ?? '');
    return;
  }
  const act = actOfNode(ctx, n);
  if (act === undefined) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': its parameters must be constants`);
  lowerUnary(ctx, n, act, [], n.outputs[0] ?? '');
}

const ACTIVATIONS = ['Relu', 'Clip', 'Sigmoid', 'Tanh', 'Gelu', 'LeakyRelu', 'HardSigmoid', 'HardSwish'] as const;
const ALIASES = ['Flatten', 'Reshape', 'Squeeze', 'Unsqueeze', 'Identity', 'Dropout'] as const;

/** Every operator the CUDA target lowers, and how (docs/cuda-engine.md lists them). */
export const LOWERERS: Readonly<Record<string, Lowerer>> = Object.freeze({
  Conv: lowerConv,
  Gemm: lowerDense,
  MatMul: lowerMatMul,
  ...Object.fromEntries(Object.keys(BIN_OPS).map((op) => [op, lowerArithmetic])),
  ...Object.fromEntries(TYPED_OPS.map((op) => [op, lowerTyped])),
  Cast: lowerCast,
  Slice: lowerSlice,
  Gather: lowerGather,
  GatherElements: lowerGatherElements,
  Expand: lowerExpand,
  TopK: lowerTopK,
  Pad: lowerPad,
  Resize: lowerResize,
  Upsample: lowerResize,
  ...Object.fromEntries(ACTIVATIONS.map((op) => [op, lowerActivation])),
  BatchNormalization: lowerBatchNorm,
  MaxPool: lowerPool,
  AveragePool: lowerPool,
  GlobalAveragePool: lowerGlobalPool,
  GlobalMaxPool: lowerGlobalPool,
  Transpose: lowerTranspose,
  Concat: lowerConcat,
  Softmax: lowerSoftmax,
  LogSoftmax: lowerSoftmax,
  ...Object.fromEntries(ALIASES.map((op) => [op, lowerAlias])),
});
