/**
 * The CUDA engine's network description: what `rtserve build --target cuda` writes into the plan payload and
 * what the native addon (native/src/*.cu) executes. One *program* per batch size of the profile: every
 * layer in it is fully concrete (dimensions, arena offsets, chosen tactic), so the addon does no shape logic.
 * Tensors are FP16 inside (FP32 arithmetic in every kernel and library call); graph inputs and outputs keep
 * their model types and are converted by the first and last layers. The codes and keys below are what the addon
 * reads; test/unit/plan/native-contract.test.ts parses both sides and fails when one adds a code or a key.
 */

/** An operand: a range of the activation arena (`off`) or of the weights blob (`woff`). */
export type OperandRef = { readonly off: number; readonly bytes: number } | { readonly woff: number; readonly bytes: number };

/** Activation codes shared with native/src/kernels.cuh (`enum Act`). */
export const ACT = {
  none: 0,
  relu: 1,
  clip: 2,
  sigmoid: 3,
  tanh: 4,
  silu: 5,
  geluErf: 6,
  geluTanh: 7,
  leakyRelu: 8,
  hardSigmoid: 9,
  hardSwish: 10,
} as const;
export interface ActSpec {
  readonly kind: number;
  readonly p0: number;
  readonly p1: number;
}
export const NO_ACT: ActSpec = { kind: ACT.none, p0: 0, p1: 0 };

/** Binary operator codes shared with native/src/kernels.cuh (`enum BinOp`). */
export const BINOP = { Add: 0, Sub: 1, Mul: 2, Div: 3 } as const;

/** A tactic as the addon names it: `{impl: 'cudnn-fused', algo: 1}`, `{impl: 'cublaslt', algo: '<hex>', ws}`, ... */
export type Tactic = Readonly<Record<string, string | number | boolean>>;

interface LayerBase {
  readonly name: string;
}
export interface ConvertInLayer extends LayerBase {
  readonly kind: 'convert_in';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly srcType: 'f32' | 'f16';
  readonly layout: 'nhwc' | 'plain';
  readonly n: number;
  readonly c: number;
  readonly h: number;
  readonly w: number;
  readonly cp: number;
}
export interface ConvertOutLayer extends LayerBase {
  readonly kind: 'convert_out';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly dstType: 'f32' | 'f16';
  readonly layout: 'nhwc' | 'plain';
  readonly n: number;
  readonly c: number;
  readonly h: number;
  readonly w: number;
}
export interface ConvLayer extends LayerBase {
  readonly kind: 'conv';
  readonly x: OperandRef;
  readonly w: OperandRef;
  readonly b: OperandRef;
  readonly z: OperandRef | null;
  readonly y: OperandRef;
  readonly n: number;
  readonly c: number;
  readonly h: number;
  readonly w_: number;
  readonly k: number;
  readonly r: number;
  readonly s: number;
  readonly oh: number;
  readonly ow: number;
  /** [top, left, bottom, right] */
  readonly pads: readonly number[];
  readonly strides: readonly number[];
  readonly dil: readonly number[];
  readonly groups: number;
  readonly act: ActSpec;
  tactic?: Tactic;
  fallback?: Tactic;
}
export interface GemmLayer extends LayerBase {
  readonly kind: 'gemm';
  readonly x: OperandRef;
  readonly w: OperandRef;
  readonly b: OperandRef | null;
  readonly z: OperandRef | null;
  readonly y: OperandRef;
  readonly batch: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly strideA: number;
  readonly strideB: number;
  readonly strideY: number;
  /** 1: w is [n, k] (weights, transposed use); 0: w is [k, n]. */
  readonly bNK: 0 | 1;
  readonly act: ActSpec;
  tactic?: Tactic;
  fallback?: Tactic;
}
export interface UnaryLayer extends LayerBase {
  readonly kind: 'unary';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly count: number;
  readonly act: ActSpec;
}
export interface AffineLayer extends LayerBase {
  readonly kind: 'affine';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly scale: OperandRef | null;
  readonly shift: OperandRef | null;
  readonly z: OperandRef | null;
  readonly count: number;
  readonly channels: number;
  readonly inner: number;
  readonly act: ActSpec;
}
export interface BinaryLayer extends LayerBase {
  readonly kind: 'binary';
  readonly a: OperandRef;
  readonly b: OperandRef;
  readonly y: OperandRef;
  /** Output dims in physical order; sa/sb: element strides of each operand per output dim (0 = broadcast). */
  readonly dims: readonly number[];
  readonly sa: readonly number[];
  readonly sb: readonly number[];
  readonly op: number;
  readonly act: ActSpec;
}
/** A 4-D tensor (logical NCHW, stored NHWC) read as `x` and written as `y` at another spatial size: pooling, resizing. */
export interface SpatialMapLayer extends LayerBase {
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly n: number;
  readonly c: number;
  readonly h: number;
  readonly w: number;
  readonly oh: number;
  readonly ow: number;
}
export interface PoolLayer extends SpatialMapLayer {
  readonly kind: 'pool';
  readonly kernel: readonly number[];
  readonly strides: readonly number[];
  /** [top, left, bottom, right] */
  readonly pads: readonly number[];
  readonly dil: readonly number[];
  readonly mode: 'max' | 'avg';
  readonly countIncludePad: 0 | 1;
}
export interface GlobalPoolLayer extends LayerBase {
  readonly kind: 'global_pool';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly n: number;
  readonly hw: number;
  readonly c: number;
  readonly layout: 'nhwc' | 'plain';
  readonly mode: 'max' | 'avg';
}
export interface SoftmaxLayer extends LayerBase {
  readonly kind: 'softmax';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly outer: number;
  readonly len: number;
  readonly inner: number;
  readonly log: 0 | 1;
}
export interface TransposeLayer extends LayerBase {
  readonly kind: 'transpose';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly dims: readonly number[];
  readonly inStrides: readonly number[];
}
export interface Copy2dLayer extends LayerBase {
  readonly kind: 'copy2d';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly rows: number;
  readonly rowElems: number;
  readonly srcStride: number;
  readonly dstStride: number;
  readonly srcOff: number;
  readonly dstOff: number;
}

/**
 * Typed element-wise operator codes shared with native/src/index-kernels.cuh (`enum EwOp`): comparisons, logic,
 * integer arithmetic (`int`: ONNX integer semantics, truncating Div, Mod with the divisor's sign), Where, Not and
 * copies between element types (Cast).
 */
export const EWOP = {
  add: 0,
  sub: 1,
  mul: 2,
  div: 3,
  mod: 4,
  less: 5,
  greater: 6,
  equal: 7,
  and: 8,
  or: 9,
  xor: 10,
  not: 11,
  where: 12,
  copy: 13,
  lessOrEqual: 14,
  greaterOrEqual: 15,
  min: 16,
  max: 17,
} as const;

/** Storage element types: FP16 (floats) and FP32 (graph I/O, and integer or boolean values, held exactly). */
export type StoreType = 'f16' | 'f32';

/** y = op(a, b, c) over output dims (physical order) with per-operand strides (0 = broadcast); b, c optional. */
export interface EwLayer extends LayerBase {
  readonly kind: 'ew';
  readonly a: OperandRef;
  readonly b: OperandRef | null;
  readonly c: OperandRef | null;
  readonly y: OperandRef;
  readonly ta: StoreType;
  readonly tb: StoreType;
  readonly tc: StoreType;
  /** i32: an integer graph output (INT32 / INT64 models' outputs are answered as INT32). */
  readonly ty: StoreType | 'i32';
  readonly dims: readonly number[];
  readonly sa: readonly number[];
  readonly sb: readonly number[];
  readonly sc: readonly number[];
  readonly op: number;
  /** 1: the operands are integers (Div truncates, Mod follows the divisor's sign, a copy to f32 truncates). */
  readonly int: 0 | 1;
}
/** y[i] = x[xOff + sum(idx_d * inStrides_d)] for elements of `elem` bytes: Slice, Gather, Expand, Transpose. */
export interface GatherLayer extends LayerBase {
  readonly kind: 'gather';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly elem: 2 | 4;
  readonly dims: readonly number[];
  readonly inStrides: readonly number[];
  readonly xOff: number;
}
/** ONNX GatherElements over row-major tensors: y[i] = x[i with its `axis` index replaced by idx[i]] (idx in f32). */
export interface GatherElementsLayer extends LayerBase {
  readonly kind: 'gather_elements';
  readonly x: OperandRef;
  readonly idx: OperandRef;
  readonly y: OperandRef;
  readonly elem: 2 | 4;
  /** Output (= index) dims and the data tensor's row-major strides. */
  readonly dims: readonly number[];
  readonly xStrides: readonly number[];
  readonly axis: number;
  readonly axisLen: number;
}
/** The k largest (or smallest) of `len` f16 values spaced `inner` apart, sorted, ties by lower index (onnxruntime's order). */
export interface TopKLayer extends LayerBase {
  readonly kind: 'topk';
  readonly x: OperandRef;
  readonly values: OperandRef;
  /** f32 indices. */
  readonly indices: OperandRef;
  readonly outer: number;
  readonly len: number;
  readonly inner: number;
  readonly k: number;
  readonly largest: 0 | 1;
}
/** Resize codes shared with native/src/index-kernels.cuh. */
export const RESIZE_COORD = { half_pixel: 0, asymmetric: 1, align_corners: 2, pytorch_half_pixel: 3 } as const;
export const RESIZE_NEAREST = { round_prefer_floor: 0, round_prefer_ceil: 1, floor: 2, ceil: 3 } as const;
/** 2-D Resize of an NHWC tensor (ONNX Resize / Upsample): nearest or bilinear. */
export interface ResizeLayer extends SpatialMapLayer {
  readonly kind: 'resize';
  /** Output / input scale per axis, as ONNX's coordinate transformations use it. */
  readonly scaleH: number;
  readonly scaleW: number;
  readonly linear: 0 | 1;
  readonly coord: number;
  readonly nearest: number;
}
/** Constant padding of an NHWC or plain tensor: y = x placed at `before` offsets per dim, `value` elsewhere. */
export interface PadLayer extends LayerBase {
  readonly kind: 'pad';
  readonly x: OperandRef;
  readonly y: OperandRef;
  readonly elem: 2 | 4;
  /** Output dims, input dims and the offsets of the input inside the output, in physical order. */
  readonly dims: readonly number[];
  readonly inDims: readonly number[];
  readonly before: readonly number[];
  readonly value: number;
}

export type CudaLayer =
  | EwLayer
  | GatherLayer
  | GatherElementsLayer
  | TopKLayer
  | ResizeLayer
  | PadLayer
  | ConvertInLayer
  | ConvertOutLayer
  | ConvLayer
  | GemmLayer
  | UnaryLayer
  | AffineLayer
  | BinaryLayer
  | PoolLayer
  | GlobalPoolLayer
  | SoftmaxLayer
  | TransposeLayer
  | Copy2dLayer;

export interface CudaProgram {
  readonly batch: number;
  readonly layers: CudaLayer[];
}

export interface CudaIoBinding {
  readonly name: string;
  /** Arena offset of the raw (host-format) tensor. */
  readonly off: number;
  /** Bytes of one batch row. */
  readonly rowBytes: number;
  readonly datatype: 'FP32' | 'FP16' | 'INT32';
  /** Shape of one batch row (the model's shape without its batch dimension). */
  readonly rowShape: readonly number[];
}

/** What the CUDA device looked like when the plan was tuned (addon `deviceInfo()`). */
export interface CudaDeviceInfo {
  readonly name: string;
  readonly cc: readonly number[];
  readonly sms: number;
  readonly memoryBytes: number;
  readonly cudaRuntime: number;
  readonly cudaDriver: number;
  readonly cudnn: number;
  readonly cublasLt: number;
}

export const CUDA_NETWORK_FORMAT = 'rtserve-cuda-network';
export const CUDA_OPSET_DOMAIN = 'ai.rtserve.cuda';
/** Payload metadata keys (ONNX metadata_props of the plan payload). */
export const CUDA_NETWORK_KEY = 'rtserve.cuda.network';
export const CUDA_WEIGHTS_NAME = 'rtserve.cuda.weights';

export interface CudaNetwork {
  readonly format: typeof CUDA_NETWORK_FORMAT;
  readonly version: 1;
  readonly maxBatch: number;
  readonly batches: readonly number[];
  readonly arenaBytes: number;
  readonly weightBytes: number;
  readonly workspaceLimit: number;
  readonly cudaGraphs: 0 | 1;
  readonly inputs: readonly CudaIoBinding[];
  readonly outputs: readonly CudaIoBinding[];
  readonly programs: readonly CudaProgram[];
  /** The device the tactics were chosen on; null when built without one (tests). */
  readonly device: CudaDeviceInfo | null;
}
