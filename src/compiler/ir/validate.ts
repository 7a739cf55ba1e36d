import { rtError } from '../../errors/registry.ts';
import type { Graph } from './graph.ts';

/** Operators of the default ONNX domain (ai.onnx), including deprecated ones onnxruntime still loads. */
export const ONNX_OPERATORS: ReadonlySet<string> = new Set(
  `Abs Acos Acosh Add AffineGrid And ArgMax ArgMin Asin Asinh Atan Atanh Attention AveragePool BatchNormalization
  Bernoulli BitShift BitwiseAnd BitwiseNot BitwiseOr BitwiseXor BlackmanWindow Cast CastLike Ceil Celu CenterCropPad
  Clip Col2Im Compress Concat ConcatFromSequence Constant ConstantOfShape Conv ConvInteger ConvTranspose Cos Cosh CumSum
  DFT DeformConv DepthToSpace DequantizeLinear Det Div Dropout DynamicQuantizeLinear Einsum Elu Equal Erf Exp Expand
  EyeLike Flatten Floor GRU Gather GatherElements GatherND Gelu Gemm GlobalAveragePool GlobalLpPool GlobalMaxPool Greater
  GreaterOrEqual GridSample GroupNormalization HammingWindow HannWindow HardSigmoid HardSwish Hardmax Identity If
  ImageDecoder InstanceNormalization IsInf IsNaN LRN LSTM LayerNormalization LeakyRelu Less LessOrEqual Log LogSoftmax
  Loop LpNormalization LpPool MatMul MatMulInteger Max MaxPool MaxRoiPool MaxUnpool Mean MeanVarianceNormalization
  MelWeightMatrix Min Mish Mod Mul Multinomial Neg NegativeLogLikelihoodLoss NonMaxSuppression NonZero Not OneHot
  Optional OptionalGetElement OptionalHasElement Or PRelu Pad Pow QLinearConv QLinearMatMul QuantizeLinear
  RMSNormalization RNN RandomNormal RandomNormalLike RandomUniform RandomUniformLike Range Reciprocal ReduceL1 ReduceL2
  ReduceLogSum ReduceLogSumExp ReduceMax ReduceMean ReduceMin ReduceProd ReduceSum ReduceSumSquare RegexFullMatch Relu
  Reshape Resize ReverseSequence RoiAlign RotaryEmbedding Round STFT Scan Scatter ScatterElements ScatterND Selu
  SequenceAt SequenceConstruct SequenceEmpty SequenceErase SequenceInsert SequenceLength SequenceMap Shape Shrink Sigmoid
  Sign Sin Sinh Size Slice Softmax SoftmaxCrossEntropyLoss Softplus Softsign SpaceToDepth Split SplitToSequence Sqrt
  Squeeze StringConcat StringNormalizer StringSplit Sub Sum Swish Tan Tanh TensorScatter TfIdfVectorizer ThresholdedRelu
  Tile TopK Transpose Trilu Unique Unsqueeze Upsample Where Xor
  Affine Crop DynamicSlice GRUUnit GivenTensorFill ImageScaler ParametricSoftplus ScaledTanh`
    .split(/\s+/)
    .filter((s) => s !== ''),
);

/** Domains whose operators onnxruntime registers itself (ai.onnx.ml, contrib ops); the runtime checks names. */
const RUNTIME_DOMAINS = new Set([
  'ai.onnx.ml',
  'com.microsoft',
  'com.microsoft.nchwc',
  'com.ms.internal.nhwc',
  'ai.onnx.training',
  'ai.onnx.preview.training',
]);

/** The oldest default-domain opset the compiler accepts (onnxruntime's floor). */
export const MIN_OPSET = 7;

/**
 * Structural checks with clear errors: one producer per value, every graph output defined, known operators.
 * Unknown operators are UNSUPPORTED with the node named; malformed graphs are BAD_CONFIG.
 */
export function validateGraph(g: Graph, what = 'the model'): string[] {
  const warnings: string[] = [];
  if (g.opset < MIN_OPSET) {
    throw rtError('UNSUPPORTED', `${what} imports ONNX opset ${g.opset}; the compiler needs opset ${MIN_OPSET} or newer`);
  }
  const produced = new Map<string, string>();
  for (const i of g.inputs) produced.set(i.name, 'graph input');
  for (const k of g.initializers.keys()) produced.set(k, 'initializer');
  const functions = new Set(g.meta.functions.map((f) => `${f.domain ?? ''}::${f.name ?? ''}`));
  for (const n of g.nodes) {
    for (const o of n.outputs) {
      if (o === '') continue;
      const prev = produced.get(o);
      if (prev !== undefined)
        throw rtError(
          'BAD_CONFIG',
          `${what}: value '${o}' is produced twice (by ${prev} and by node '${n.name}'); ONNX graphs are single-assignment`,
        );
      produced.set(o, `node '${n.name}'`);
    }
    if (functions.has(`${n.domain}::${n.opType}`)) continue;
    if (n.domain === '') {
      if (!ONNX_OPERATORS.has(n.opType)) {
        throw rtError(
          'UNSUPPORTED',
          `${what}: node '${n.name}' uses operator '${n.opType}', which is not an ONNX operator (custom operators need their domain and a runtime that registers them)`,
        );
      }
    } else if (!RUNTIME_DOMAINS.has(n.domain)) {
      throw rtError(
        'UNSUPPORTED',
        `${what}: node '${n.name}' uses operator '${n.opType}' from the custom domain '${n.domain}', which onnxruntime does not provide; supported domains: ai.onnx, ${[...RUNTIME_DOMAINS].join(', ')}`,
      );
    } else if (!g.opsets.has(n.domain)) {
      throw rtError('BAD_CONFIG', `${what}: node '${n.name}' uses domain '${n.domain}' but the model does not import an opset for it`);
    }
  }
  for (const o of g.outputs) {
    if (!produced.has(o.name)) throw rtError('BAD_CONFIG', `${what}: graph output '${o.name}' is not produced by any node, input or initializer`);
  }
  for (const i of g.inputs) {
    if (i.type.shape === null) warnings.push(`input '${i.name}' has no declared shape`);
  }
  return warnings;
}
