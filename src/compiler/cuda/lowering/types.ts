import type { CudaLayer, OperandRef } from '../../../plan/cuda-network.ts';
import type { WeightBlob } from '../weights.ts';
import type { Layout } from './layout.ts';

/** What the CUDA lowering produces: tensors with a layout and storage slot, and batch-independent steps. */

export interface LTensor {
  readonly id: number;
  readonly name: string;
  readonly layout: Layout;
  /** f32 also holds integer and boolean values (exact below 2^24); i32 only for raw integer graph outputs. */
  readonly dtype: 'f16' | 'f32' | 'i32';
  /** Storage id: aliases (Reshape, Flatten, layout relabels of 1x1 maps) share one. */
  readonly storage: number;
  /** Logical (ONNX, NCHW) shape at batch size b. */
  shape(b: number): number[];
}

export type RefOf = (t: LTensor, b: number) => OperandRef;

export interface Step {
  readonly name: string;
  /** ONNX operators this step computes (fused ones included). */
  readonly ops: readonly string[];
  readonly reads: readonly LTensor[];
  readonly writes: readonly LTensor[];
  emit(b: number, ref: RefOf): CudaLayer[];
}

export interface LoweredIo {
  readonly name: string;
  readonly raw: LTensor;
  readonly datatype: 'FP32' | 'FP16' | 'INT32';
}

export interface Lowered {
  readonly tensors: readonly LTensor[];
  readonly steps: readonly Step[];
  readonly weights: WeightBlob;
  readonly inputs: readonly LoweredIo[];
  readonly outputs: readonly LoweredIo[];
  readonly notes: readonly string[];
  /**
   * Outputs computed through positions a TopK chose (a detector's boxes and classes of its best peaks): where two
   * candidates score nearly alike, FP16 may rank them the other way round, so they are compared through the values
   * that ranked them, not element by element.
   */
  readonly rankedOutputs: readonly string[];
  /** Source node name → the step that computes it (for the manifest's nodePrecision). */
  readonly nodeSteps: ReadonlyMap<string, string>;
}
