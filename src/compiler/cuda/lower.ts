import { rtError } from '../../errors/registry.ts';
import { DT } from '../../tensor/onnx-dtype.ts';
import { attrInt, type Graph } from '../ir/graph.ts';
import { inferShapes } from '../ir/shape-inference.ts';
import { LoweringContext } from './lowering/context.ts';
import { prod } from './lowering/layout.ts';
import { LOWERERS } from './lowering/lowerers.ts';
import { lowerIntOutput } from './lowering/typed-elementwise.ts';
import { specializeShapes } from './lowering/batch-static.ts';
import type { Lowered, LoweredIo } from './lowering/types.ts';

/**
 * Lowers the compiler's optimized graph (after BatchNormalization folding and bias fusion) to the CUDA engine's
 * steps: Conv/Gemm + bias + activation (+ residual Add) fusion, NHWC layout for convolutions and pooling (with
 * layout conversions inserted only where an operator needs the other layout), FP16 weights in the layout each
 * kernel reads. Steps are batch-independent; `emit(b)` gives the concrete layer for one batch size. Each
 * operator's lowering is in src/compiler/cuda/lowering/ (the table: lowering/lowerers.ts).
 */

/** Operators the CUDA target lowers (docs/cuda-engine.md). */
export const CUDA_SUPPORTED_OPS: readonly string[] = Object.keys(LOWERERS);

/** Concrete shapes of every value, per batch size (the model's input batch dimension set to b). */
export function shapesPerBatch(
  g: Graph,
  batches: readonly number[],
  rowShapes: ReadonlyMap<string, readonly number[]> = new Map(),
  elemTypes?: Map<string, number>,
): Map<number, Map<string, number[]>> {
  const out = new Map<number, Map<string, number[]>>();
  for (const b of batches) {
    const c = g.clone();
    c.declaredTypes = new Map();
    c.inputs = c.inputs.map((i) => {
      const s = i.type.shape;
      if (s === null) throw rtError('UNSUPPORTED', `input '${i.name}' has an unknown rank; the CUDA engine needs ranked inputs`);
      const row = rowShapes.get(i.name);
      return { name: i.name, type: { elemType: i.type.elemType, shape: s.map((d, k) => (k === 0 ? b : (row?.[k - 1] ?? d))) } };
    });
    inferShapes(c);
    specializeShapes(c);
    const m = new Map<string, number[]>();
    for (const i of c.inputs)
      m.set(
        i.name,
        (i.type.shape ?? []).map((d) => (typeof d === 'number' ? d : -1)),
      );
    for (const [name, t] of c.valueTypes) {
      elemTypes?.set(name, t.elemType);
      if (t.shape?.every((d) => typeof d === 'number')) m.set(name, t.shape as number[]);
    }
    out.set(b, m);
  }
  return out;
}

export function lowerGraph(g: Graph, batches: readonly number[], rowShapes: ReadonlyMap<string, readonly number[]> = new Map()): Lowered {
  if (batches.length === 0) throw rtError('BAD_CONFIG', 'the CUDA target needs at least one batch size');
  const elemTypes = new Map<string, number>();
  const ctx = new LoweringContext(g, batches, shapesPerBatch(g, batches, rowShapes, elemTypes), elemTypes);

  // ---- graph inputs --------------------------------------------------------------------------------------------
  const inputs: LoweredIo[] = [];
  for (const inp of ctx.g.inputs) {
    const et = inp.type.elemType;
    if (et !== DT.FLOAT && et !== DT.FLOAT16) {
      throw rtError(
        'UNSUPPORTED',
        `input '${inp.name}' is ${et === DT.INT64 ? 'int64' : `element type ${et}`}; the CUDA target takes FP32 or FP16 inputs`,
      );
    }
    for (const b of ctx.batches) {
      if (ctx.shapeOf(inp.name, b)[0] !== b)
        throw rtError('UNSUPPORTED', `input '${inp.name}': the CUDA engine needs the batch as the first dimension`);
    }
    const raw = ctx.newTensor(inp.name, 'plain', (b) => ctx.shapeOf(inp.name, b), undefined, et === DT.FLOAT ? 'f32' : 'f16');
    const cons = ctx.consumers.get(inp.name) ?? [];
    const rank = ctx.shapeOf(inp.name, ctx.maxB).length;
    const wantsNhwc = rank === 4 && cons.some((c) => c.opType === 'Conv' || c.opType === 'MaxPool' || c.opType === 'AveragePool');
    const channels = rank === 4 ? (ctx.shapeOf(inp.name, ctx.maxB)[1] ?? 1) : 1;
    // Tensor cores want 8 FP16 channels (16 bytes): pad the image's 3 channels when only convolutions read it.
    const padTo =
      wantsNhwc && channels < 8 && cons.length > 0 && cons.every((c) => c.opType === 'Conv' && attrInt(c, 'group', 1) === 1) ? 8 : channels;
    const internal = ctx.newTensor(`${inp.name}__f16`, wantsNhwc ? 'nhwc' : 'plain', (b) => {
      const s = [...ctx.shapeOf(inp.name, b)];
      if (padTo !== channels) s[1] = padTo;
      return s;
    });
    ctx.valueTensor.set(inp.name, internal);
    if (padTo !== channels) ctx.notes.push(`input '${inp.name}': channels padded ${channels} → ${padTo} for tensor-core convolutions`);
    ctx.addStep(
      {
        name: `${inp.name}__convert_in`,
        ops: ['InputConversion'],
        reads: [raw],
        writes: [internal],
        emit(b, ref) {
          const s = ctx.shapeOf(inp.name, b);
          const nhwc = internal.layout === 'nhwc';
          return [
            {
              kind: 'convert_in',
              name: this.name,
              x: ref(raw, b),
              y: ref(internal, b),
              srcType: raw.dtype === 'f32' ? 'f32' : 'f16',
              layout: nhwc ? 'nhwc' : 'plain',
              n: b,
              c: nhwc ? (s[1] ?? 1) : prod(s) / b,
              h: nhwc ? (s[2] ?? 1) : 1,
              w: nhwc ? (s[3] ?? 1) : 1,
              cp: nhwc ? padTo : prod(s) / b,
            },
          ];
        },
      },
      [],
    );
    inputs.push({ name: inp.name, raw, datatype: raw.dtype === 'f32' ? 'FP32' : 'FP16' });
  }

  // ---- nodes, in graph order; a fused chain runs where its last absorbed node stands ----------------------------
  const unsupported: string[] = [];
  for (const n of g.nodes) {
    if (ctx.fused.has(n)) {
      ctx.deferred.get(n)?.();
      continue;
    }
    // shape arithmetic (Shape → Gather → Concat → ...): known per batch at build time, no step
    if (ctx.batchStatic.has(n.outputs[0] ?? '')) continue;
    const lower = n.domain === '' ? LOWERERS[n.opType] : undefined;
    if (lower === undefined) unsupported.push(`${n.domain === '' ? '' : `${n.domain}.`}${n.opType} (node '${n.name}')`);
    else lower(ctx, n);
  }
  if (unsupported.length > 0) {
    throw rtError(
      'UNSUPPORTED',
      `the CUDA target does not support operator${unsupported.length > 1 ? 's' : ''} ${unsupported.slice(0, 8).join(', ')}` +
        `${unsupported.length > 8 ? ` and ${unsupported.length - 8} more` : ''}; supported: ${CUDA_SUPPORTED_OPS.join(', ')}`,
    );
  }

  // ---- graph outputs -------------------------------------------------------------------------------------------
  const outputs: LoweredIo[] = [];
  for (const o of ctx.g.outputs) {
    const et = o.type.elemType;
    if (ctx.g.isGraphInput(o.name)) throw rtError('UNSUPPORTED', `output '${o.name}' is a graph input`);
    for (const b of ctx.batches) {
      if (ctx.shapeOf(o.name, b)[0] !== b) throw rtError('UNSUPPORTED', `output '${o.name}': the CUDA engine needs the batch as the first dimension`);
    }
    if (et === DT.INT32 || et === DT.INT64) {
      outputs.push(lowerIntOutput(ctx, o.name));
      continue;
    }
    if (et !== DT.FLOAT && et !== DT.FLOAT16)
      throw rtError('UNSUPPORTED', `output '${o.name}' is element type ${et}; the CUDA target returns FP32, FP16 or INT32`);
    const src = ctx.tensorOf(o.name);
    const raw = ctx.newTensor(o.name, 'plain', (b) => ctx.shapeOf(o.name, b), undefined, et === DT.FLOAT ? 'f32' : 'f16');
    ctx.addStep(
      {
        name: `${o.name}__convert_out`,
        ops: ['OutputConversion'],
        reads: [src],
        writes: [raw],
        emit(b, ref) {
          const s = src.shape(b);
          const nhwc = src.layout === 'nhwc';
          return [
            {
              kind: 'convert_out',
              name: this.name,
              x: ref(src, b),
              y: ref(raw, b),
              dstType: raw.dtype === 'f32' ? 'f32' : 'f16',
              layout: nhwc ? 'nhwc' : 'plain',
              n: nhwc ? (s[0] ?? 1) : 1,
              c: nhwc ? (s[1] ?? 1) : prod(s),
              h: nhwc ? (s[2] ?? 1) : 1,
              w: nhwc ? (s[3] ?? 1) : 1,
            },
          ];
        },
      },
      [],
    );
    outputs.push({ name: o.name, raw, datatype: raw.dtype === 'f32' ? 'FP32' : 'FP16' });
  }
  return {
    tensors: ctx.tensors,
    steps: ctx.steps,
    weights: ctx.weights,
    inputs,
    outputs,
    notes: ctx.notes,
    rankedOutputs: rankedOutputs(g),
    nodeSteps: ctx.nodeSteps,
  };
}

/** Graph outputs that depend on a TopK's indices (see Lowered.rankedOutputs). */
function rankedOutputs(g: Graph): string[] {
  const tainted = new Set<string>();
  for (const n of g.nodes) {
    if (n.opType === 'TopK' && (n.outputs[1] ?? '') !== '') tainted.add(n.outputs[1] ?? '');
    if (n.inputs.some((i) => tainted.has(i))) for (const o of n.outputs) if (o !== '') tainted.add(o);
  }
  return g.outputs.map((o) => o.name).filter((o) => tainted.has(o));
}
