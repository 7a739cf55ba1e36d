import { rtError } from '../../../errors/registry.ts';
import { DT } from '../../../tensor/onnx-dtype.ts';
import { attrInt, type Node } from '../../ir/graph.ts';
import { toFloat32 } from '../../ir/tensor.ts';
import { EWOP, type OperandRef, type StoreType } from '../../../plan/cuda-network.ts';
import type { LoweringContext } from './context.ts';
import { isIntegerType } from './batch-static.ts';
import { addPoolStep } from './pool.ts';
import { PERM_NHWC, operandStrides, type Layout } from './layout.ts';
import type { LoweredIo, LTensor } from './types.ts';

/**
 * Element-wise operators over typed values (the `ew` layer): comparisons and logic producing booleans, integer
 * arithmetic with ONNX's integer semantics, Where, Not and Cast. Integers and booleans live in FP32 storage
 * (exact below 2^24: indices and sizes of vision models); detectors' decodes (TopK index → class, row, column)
 * are written with them.
 */

const EW_OPS: Readonly<Record<string, number>> = {
  Add: EWOP.add,
  Sub: EWOP.sub,
  Mul: EWOP.mul,
  Div: EWOP.div,
  Mod: EWOP.mod,
  Less: EWOP.less,
  Greater: EWOP.greater,
  LessOrEqual: EWOP.lessOrEqual,
  GreaterOrEqual: EWOP.greaterOrEqual,
  Equal: EWOP.equal,
  And: EWOP.and,
  Or: EWOP.or,
  Xor: EWOP.xor,
  Not: EWOP.not,
  Where: EWOP.where,
  Min: EWOP.min,
  Max: EWOP.max,
};

/** Operators that always go through the typed path (the float-only binary layer cannot compute them). */
export const TYPED_OPS: readonly string[] = [
  'Mod',
  'Less',
  'Greater',
  'LessOrEqual',
  'GreaterOrEqual',
  'Equal',
  'And',
  'Or',
  'Xor',
  'Not',
  'Where',
  'Min',
  'Max',
];

interface Operand {
  readonly t?: LTensor;
  readonly w?: OperandRef;
  readonly type: StoreType;
  readonly layout: Layout;
  dims(b: number): number[];
}

/**
 * A heatmap peak test `Equal(MaxPool(f(x)), f(x))` with f strictly increasing (Sigmoid, Tanh) is
 * `Equal(MaxPool(x), x)`: tested on the logits, FP16 keeps neighbouring peaks apart that the saturated sigmoid
 * (spacing 2^-11 near 1) would merge into duplicate detections. Returns the logits and the pooling node.
 */
function peakTest(ctx: LoweringContext, n: Node): { readonly logits: string; readonly pool: Node } | undefined {
  if (n.opType !== 'Equal') return undefined;
  const producer = ctx.g.producers();
  for (const [p, s] of [
    [n.inputs[0], n.inputs[1]],
    [n.inputs[1], n.inputs[0]],
  ]) {
    const pool = producer.get(p ?? '');
    const act = producer.get(s ?? '');
    if (pool?.opType !== 'MaxPool' || pool.domain !== '' || pool.inputs[0] !== s) continue;
    if (act === undefined || act.domain !== '' || (act.opType !== 'Sigmoid' && act.opType !== 'Tanh')) continue;
    const logits = act.inputs[0] ?? '';
    if (ctx.isInt(logits) || ctx.constOf(logits) !== undefined) continue;
    return { logits, pool };
  }
  return undefined;
}

function operand(ctx: LoweringContext, v: string): Operand {
  const c = ctx.constOf(v);
  if (c !== undefined) {
    const int = isIntegerType(c.elemType);
    const values = toFloat32(c);
    return {
      w: int ? ctx.weights.addFloat(values) : ctx.weights.addHalf(values),
      type: int ? 'f32' : 'f16',
      layout: 'plain',
      dims: () => [...c.dims],
    };
  }
  const t = ctx.tensorOf(v);
  if (t.dtype === 'i32') throw rtError('INTERNAL', `cuda lowering: '${v}' is a raw output tensor`);
  return { t, type: t.dtype, layout: t.layout, dims: (b) => t.shape(b) };
}

/** One `ew` step computing `out` from `ins` (1 to 3 operands); `int`: integer semantics. */
export function addEwStep(ctx: LoweringContext, n: Node, op: number, ins: readonly string[], out: string, int: boolean): void {
  const ops = ins.map((v) => operand(ctx, v));
  const outRank = ctx.shapeOf(out, ctx.maxB).length;
  if (outRank > 6) throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': rank ${outRank} > 6`);
  const outIsInt = ctx.isInt(out);
  const nhwcOperand = ops.some(
    (o) => o.t !== undefined && o.layout === 'nhwc' && ctx.batches.every((b) => o.dims(b).join(',') === ctx.shapeOf(out, b).join(',')),
  );
  const layout: Layout = !outIsInt && outRank === 4 && nhwcOperand ? 'nhwc' : 'plain';
  const yT = ctx.defineValue(out, layout);
  const [A, B, C] = ops;
  if (A === undefined) throw rtError('INTERNAL', `${n.opType} '${n.name}': no operand`);
  ctx.addNodeStep(
    n,
    ops.map((o) => o.t).filter((t): t is LTensor => t !== undefined),
    yT,
    (b, ref) => {
      const os = ctx.shapeOf(out, b);
      const perm = layout === 'nhwc' ? PERM_NHWC : os.map((_, i) => i);
      const strides = (o: Operand | undefined): number[] => {
        if (o === undefined) return perm.map(() => 0);
        const s = operandStrides(o.dims(b), o.layout, os);
        return perm.map((p) => s[p] ?? 0);
      };
      const r = (o: Operand | undefined): OperandRef | null => (o === undefined ? null : o.t !== undefined ? ref(o.t, b) : (o.w ?? null));
      return [
        {
          kind: 'ew',
          name: n.name,
          a: r(A) as OperandRef,
          b: r(B),
          c: r(C),
          y: ref(yT, b),
          ta: A.type,
          tb: B?.type ?? 'f16',
          tc: C?.type ?? 'f16',
          ty: yT.dtype,
          dims: perm.map((p) => os[p] ?? 1),
          sa: strides(A),
          sb: strides(B),
          sc: strides(C),
          op,
          int: int ? 1 : 0,
        },
      ];
    },
  );
}

/** Comparisons, logic, Where, Mod, Min/Max, and Add/Sub/Mul/Div of integers. */
export function lowerTyped(ctx: LoweringContext, n: Node): void {
  const op = EW_OPS[n.opType];
  if (op === undefined) throw rtError('INTERNAL', `cuda lowering: ${n.opType} is not a typed element-wise operator`);
  const ins = n.inputs.filter((i) => i !== '');
  if (n.opType === 'Mod' && attrInt(n, 'fmod', 0) === 1 && ctx.isInt(ins[0] ?? ''))
    throw rtError('UNSUPPORTED', `Mod '${n.name}': fmod=1 on integers is not supported by the CUDA target`);
  if ((n.opType === 'Min' || n.opType === 'Max') && ins.length !== 2)
    throw rtError('UNSUPPORTED', `${n.opType} '${n.name}': the CUDA target takes exactly two operands`);
  // comparisons read their operands' type; arithmetic is integer when its result is
  const peak = peakTest(ctx, n);
  if (peak !== undefined) {
    const xT = ctx.need(peak.logits, 'nhwc');
    const pooled = ctx.newTensor(`${peak.pool.outputs[0] ?? ''}__logits`, 'nhwc', (b) => ctx.shapeOf(peak.pool.outputs[0] ?? '', b));
    addPoolStep(ctx, peak.pool, xT, pooled, `${peak.pool.name}__logits`);
    ctx.valueTensor.set(pooled.name, pooled);
    ctx.notes.push(`peak test '${n.name}' compares the logits before '${peak.pool.inputs[0] ?? ''}' (FP16 keeps neighbouring peaks apart)`);
    addEwStep(ctx, n, EWOP.equal, [pooled.name, peak.logits], n.outputs[0] ?? '', false);
    return;
  }
  const int =
    n.opType === 'Where'
      ? ctx.isInt(n.outputs[0] ?? '')
      : ['Add', 'Sub', 'Mul', 'Div', 'Mod', 'Min', 'Max'].includes(n.opType)
        ? ctx.isInt(n.outputs[0] ?? '')
        : false;
  addEwStep(ctx, n, op, ins, n.outputs[0] ?? '', int);
}

/** Cast: within floats or within integers the bytes stay (an alias); across, a converting copy (to integers: truncation). */
export function lowerCast(ctx: LoweringContext, n: Node): void {
  const to = attrInt(n, 'to', 0);
  const x = n.inputs[0] ?? '';
  const out = n.outputs[0] ?? '';
  const toInt = isIntegerType(to);
  if (to === DT.BOOL && !ctx.isInt(x)) throw rtError('UNSUPPORTED', `Cast '${n.name}' of floats to bool is not supported by the CUDA target`);
  if (!toInt && to !== DT.FLOAT && to !== DT.FLOAT16 && to !== DT.DOUBLE)
    throw rtError('UNSUPPORTED', `Cast '${n.name}' to element type ${to}: the CUDA target keeps floats and integers`);
  if (ctx.constOf(x) === undefined && ctx.isInt(x) === toInt) {
    const src = ctx.tensorOf(x);
    ctx.aliasValue(n, out, src.layout, src.storage, src.dtype);
    return;
  }
  addEwStep(ctx, n, EWOP.copy, [x], out, toInt);
}

/** An INT32 / INT64 graph output: its exact FP32-held integers written as INT32. */
export function lowerIntOutput(ctx: LoweringContext, name: string): LoweredIo {
  const src = ctx.tensorOf(name);
  if (src.dtype !== 'f32') throw rtError('UNSUPPORTED', `output '${name}': an integer output must be computed as integers`);
  const raw = ctx.newTensor(name, 'plain', (b) => ctx.shapeOf(name, b), undefined, 'i32');
  ctx.addStep(
    {
      name: `${name}__convert_out`,
      ops: ['OutputConversion'],
      reads: [src],
      writes: [raw],
      emit(b, ref) {
        const s = src.shape(b);
        const strides = operandStrides(s, src.layout, s);
        return [
          {
            kind: 'ew',
            name: this.name,
            a: ref(src, b),
            b: null,
            c: null,
            y: ref(raw, b),
            ta: 'f32',
            tb: 'f16',
            tc: 'f16',
            ty: 'i32',
            dims: s,
            sa: strides,
            sb: s.map(() => 0),
            sc: s.map(() => 0),
            op: EWOP.copy,
            int: 1,
          },
        ];
      },
    },
    [],
  );
  return { name, raw, datatype: 'INT32' };
}
