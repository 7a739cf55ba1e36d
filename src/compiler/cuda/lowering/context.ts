import { rtError } from '../../../errors/registry.ts';
import { DT } from '../../../tensor/onnx-dtype.ts';
import type { Graph, Node } from '../../ir/graph.ts';
import { toFloat32, type ConstTensor } from '../../ir/tensor.ts';
import { WeightBlob } from '../weights.ts';
import { batchStaticValues, isIntegerType } from './batch-static.ts';
import { PERM_NHWC, nhwcStrides, rowMajorStrides, type Layout } from './layout.ts';
import type { CudaLayer } from '../../../plan/cuda-network.ts';
import type { LTensor, RefOf, Step } from './types.ts';

/**
 * The state of one lowering: the graph's values as lowered tensors (with layout conversions made on demand),
 * the steps emitted so far, the FP16 weight blob, and the order in which fused chains run. The per-operator
 * lowerers (src/compiler/cuda/lowering/*.ts) read and extend it.
 */
export class LoweringContext {
  readonly maxB: number;
  readonly consumers: ReadonlyMap<string, readonly Node[]>;
  readonly weights = new WeightBlob();
  readonly tensors: LTensor[] = [];
  readonly steps: Step[] = [];
  readonly notes: string[] = [];
  readonly nodeSteps = new Map<string, string>();
  /** Graph value → the tensor that holds it. */
  readonly valueTensor = new Map<string, LTensor>();
  /** Nodes absorbed into another node's step (activations, residual Adds). */
  readonly fused = new Set<Node>();
  /** Steps whose execution waits for the last node they absorbed (a residual's producer may come later). */
  readonly deferred = new Map<Node, () => void>();
  /** Shape arithmetic known per batch at build time (lowering/batch-static.ts): no step. */
  readonly batchStatic: ReadonlySet<string>;
  private readonly converted = new Map<string, LTensor>();
  private storageCounter = 0;

  constructor(
    readonly g: Graph,
    readonly batches: readonly number[],
    private readonly shapes: ReadonlyMap<number, ReadonlyMap<string, number[]>>,
    private readonly elemTypes: ReadonlyMap<string, number> = new Map(),
  ) {
    this.maxB = Math.max(...batches);
    this.consumers = g.consumers();
    this.batchStatic = batchStaticValues(g);
  }

  /** Integer and boolean values are held exactly in FP32 storage; floats in FP16. */
  isInt(value: string): boolean {
    const c = this.constOf(value);
    return isIntegerType(c !== undefined ? c.elemType : (this.elemTypes.get(value) ?? this.g.typeOf(value)?.elemType));
  }

  shapeOf(value: string, b: number): number[] {
    const s = this.shapes.get(b)?.get(value);
    if (s === undefined || s.some((d) => d < 0)) {
      throw rtError(
        'UNSUPPORTED',
        `the CUDA target cannot tell the shape of '${value}' at batch ${b}: every dimension must be static once the batch is known`,
      );
    }
    return s;
  }

  newTensor(name: string, layout: Layout, shape: (b: number) => number[], storage?: number, dtype: LTensor['dtype'] = 'f16'): LTensor {
    const t: LTensor = { id: this.tensors.length, name, layout, dtype, storage: storage ?? this.storageCounter++, shape };
    this.tensors.push(t);
    return t;
  }

  addStep(s: Step, sourceNodes: readonly Node[]): void {
    this.steps.push(s);
    for (const n of sourceNodes) this.nodeSteps.set(n.name, s.name);
  }

  /** One node's own step (nothing fused into it): named after the node, writing `y`. */
  addNodeStep(n: Node, reads: readonly LTensor[], y: LTensor, emit: (b: number, ref: RefOf) => CudaLayer[]): void {
    this.addStep({ name: n.name, ops: [n.opType], reads, writes: [y], emit }, [n]);
  }

  constOf(name: string | undefined): ConstTensor | undefined {
    return name === undefined || name === '' ? undefined : this.g.initializers.get(name);
  }

  tensorOf(value: string): LTensor {
    const t = this.valueTensor.get(value);
    if (t === undefined && this.batchStatic.has(value))
      throw rtError('UNSUPPORTED', `'${value}' is computed from tensor shapes and read as data: the CUDA target computes shapes at build time only`);
    if (t === undefined) throw rtError('INTERNAL', `cuda lowering: '${value}' is used before it is computed`);
    return t;
  }

  /** The value in the given layout: a conversion step is added the first time another layout is asked for. */
  need(value: string, layout: Layout): LTensor {
    const t = this.tensorOf(value);
    if (t.layout === layout || t.shape(this.maxB).length !== 4) return t;
    if (t.dtype !== 'f16') throw rtError('INTERNAL', `cuda lowering: layout conversion of the non-FP16 value '${value}'`);
    const key = `${t.id}|${layout}`;
    const hit = this.converted.get(key);
    if (hit !== undefined) return hit;
    let out: LTensor;
    if (this.spatialIsOne(t)) {
      // [N, C, 1, 1] is the same bytes in NCHW and NHWC: relabel, no copy
      out = this.newTensor(`${t.name}__${layout}`, layout, t.shape, t.storage);
    } else {
      out = this.newTensor(`${t.name}__${layout}`, layout, t.shape);
      const src = t;
      const dst = out;
      this.addStep(
        {
          name: `${src.name}__to_${layout}`,
          ops: ['LayoutConversion'],
          reads: [src],
          writes: [dst],
          emit(b, ref) {
            const d = src.shape(b);
            const phys = layout === 'nhwc' ? PERM_NHWC.map((p) => d[p] ?? 1) : d;
            const srcStrides = src.layout === 'nhwc' ? nhwcStrides(d) : rowMajorStrides(d);
            const inStrides = layout === 'nhwc' ? PERM_NHWC.map((p) => srcStrides[p] ?? 0) : srcStrides;
            return [{ kind: 'transpose', name: this.name, x: ref(src, b), y: ref(dst, b), dims: phys, inStrides }];
          },
        },
        [],
      );
    }
    this.converted.set(key, out);
    return out;
  }

  /** The tensor name of a value: graph outputs get an FP16 twin (the raw output is written by a conversion). */
  valueName(v: string): string {
    return this.g.isGraphOutput(v) ? `${v}__f16` : v;
  }

  defineValue(value: string, layout: Layout, storage?: number): LTensor {
    const dtype = this.isInt(value) ? 'f32' : 'f16';
    const t = this.newTensor(this.valueName(value), layout, (b) => this.shapeOf(value, b), storage, dtype);
    this.valueTensor.set(value, t);
    return t;
  }

  /** A value that reuses another tensor's bytes (reshape-like operators): no step, only a new name. */
  aliasValue(n: Node, value: string, layout: Layout, storage: number, dtype: LTensor['dtype'] = 'f16'): void {
    const t = this.newTensor(this.valueName(value), layout, (b) => this.shapeOf(value, b), storage, dtype);
    this.valueTensor.set(value, t);
    this.nodeSteps.set(n.name, `${n.name} (alias)`);
  }

  weightRef(t: ConstTensor, name: string): { woff: number; bytes: number } {
    if (t.elemType !== DT.FLOAT && t.elemType !== DT.FLOAT16 && t.elemType !== DT.DOUBLE) {
      throw rtError('UNSUPPORTED', `constant '${name}' has element type ${t.elemType}; the CUDA target computes on floats`);
    }
    return this.weights.addHalf(toFloat32(t));
  }

  sameShapeAllBatches(a: string, b: string): boolean {
    return this.batches.every((x) => this.shapeOf(a, x).join(',') === this.shapeOf(b, x).join(','));
  }

  /**
   * Runs a chain's lowering where its last absorbed node stands in the graph (every input of the chain exists
   * by then); the absorbed nodes are skipped when the main loop reaches them.
   */
  schedule(n: Node, absorbed: readonly Node[], run: () => void): void {
    for (const x of absorbed) this.fused.add(x);
    let last: Node = n;
    let lastIdx = this.g.nodes.indexOf(n);
    for (const x of absorbed) {
      const i = this.g.nodes.indexOf(x);
      if (i > lastIdx) {
        last = x;
        lastIdx = i;
      }
    }
    if (last === n) run();
    else this.deferred.set(last, run);
  }

  private spatialIsOne(t: LTensor): boolean {
    return this.batches.every((b) => {
      const s = t.shape(b);
      return s.length === 4 && s[2] === 1 && s[3] === 1;
    });
  }
}
