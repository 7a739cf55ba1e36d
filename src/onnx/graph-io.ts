import { defaultOpsetVersion, loadModel, toNumber } from './proto.ts';
import type { IValueInfoProto, ModelProto } from './proto.ts';

/** One graph input or output as a server sees it. */
export interface GraphTensor {
  readonly name: string;
  /** onnx TensorProto.DataType; 0 (UNDEFINED) for non-tensor values (sequences, maps, optionals). */
  readonly elemType: number;
  /** -1 for a dimension that is symbolic (`dim_param`) or unknown. Empty when the rank is unknown, see `rankKnown`. */
  readonly dims: readonly number[];
  /** False when the value has no shape at all (any rank); `dims` is then empty. */
  readonly rankKnown: boolean;
}

export interface GraphIO {
  readonly inputs: readonly GraphTensor[];
  readonly outputs: readonly GraphTensor[];
  /** Version of the default (ai.onnx) operator set; 0 when the model imports none. */
  readonly opsetVersion: number;
}

function describe(info: IValueInfoProto): GraphTensor {
  const name = info.name ?? '';
  const tensorType = info.type?.tensorType;
  if (tensorType === null || tensorType === undefined) {
    return { name, elemType: 0, dims: [], rankKnown: false };
  }
  const elemType = tensorType.elemType ?? 0;
  const shape = tensorType.shape;
  if (shape === null || shape === undefined) return { name, elemType, dims: [], rankKnown: false };
  const dims = (shape.dim ?? []).map((d) => {
    // A dimension is fixed only when dim_value is set and >= 0; dim_param (symbolic) or nothing means dynamic.
    if (d.dimValue !== null && d.dimValue !== undefined && d.dimParam == null) {
      const v = toNumber(d.dimValue);
      return v >= 0 ? v : -1;
    }
    return -1;
  });
  return { name, elemType, dims, rankKnown: true };
}

/**
 * The inputs and outputs a caller must feed and may fetch. Graph inputs that also have an initializer are
 * parameters with defaults (IR >= 4 allows them in `graph.input`), not inputs a client sends.
 */
export function readGraphIO(model: Uint8Array | ModelProto): GraphIO {
  const proto = model instanceof Uint8Array ? loadModel(model) : model;
  const graph = proto.graph;
  const initializers = new Set<string>();
  for (const init of graph?.initializer ?? []) initializers.add(init.name ?? '');
  for (const init of graph?.sparseInitializer ?? []) initializers.add(init.values?.name ?? '');
  const inputs = (graph?.input ?? []).filter((i) => !initializers.has(i.name ?? '')).map(describe);
  const outputs = (graph?.output ?? []).map(describe);
  return { inputs, outputs, opsetVersion: defaultOpsetVersion(proto) };
}
