/**
 * Triton's classification extension (docs/protocol.md §2.2; S:docs/protocol/extension_classification.md): a requested
 * output with parameter `"classification": N` is answered with a BYTES tensor of the top-N entries as
 * `"value:index"` strings, or `"value:index:label"` when the output has labels.
 *
 * Matches Triton's HTTP/gRPC front ends (S:src/classification.cc, S:src/http_server.cc): for a batching model the
 * top-N is taken per batch item and the result has shape [batch, min(N, per-item count)], otherwise shape
 * [min(N, count)]; values are printed like C++ `std::to_string` ("%f", six decimals, for floating point; plain
 * integers for integer types); labels are appended only for indices that have one. BOOL and BYTES outputs
 * cannot be classified. Ties keep the lower index first (Triton's sort is unstable; we pick the deterministic
 * order).
 */
import type { NumericArray } from '../tensor/datatype.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { rtError } from '../errors/registry.ts';
import { bf16ArrayToFloat32, halfArrayToFloat32 } from '../tensor/half.ts';
import { utf8Encode } from '../codec/tensor-data.ts';

export interface ClassificationOptions {
  /** Top-N to return. */
  readonly count: number;
  /** True when the first dimension is the batch dimension (the model's max_batch_size > 0). */
  readonly batched: boolean;
  /** Class labels by index (Triton's label_filename), if any. */
  readonly labels?: readonly string[];
}

/** C++ std::to_string for a floating-point value: printf("%f"). */
function formatFloat(v: number): string {
  if (v !== v) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return v.toFixed(6);
}

/**
 * Indices of the `k` largest values in [start, start + length), largest first, ties by lower index. A bounded
 * insertion keeps it O(length · k) for the usual small k; a full sort takes over for large k.
 */
function topIndices(values: ArrayLike<number | bigint>, start: number, length: number, k: number): number[] {
  const greater = (a: number, b: number): boolean => {
    const va = values[a]!;
    const vb = values[b]!;
    // NaN sorts last so that real scores come first.
    if (va !== va) return false;
    if (vb !== vb) return true;
    return va > vb || (va === vb && a < b);
  };
  if (k * 8 > length) {
    const all = Array.from({ length }, (_, i) => start + i);
    all.sort((a, b) => (greater(a, b) ? -1 : greater(b, a) ? 1 : 0));
    return all.slice(0, k).map((i) => i - start);
  }
  const top: number[] = [];
  for (let i = start; i < start + length; i++) {
    if (top.length === k && !greater(i, top[k - 1]!)) continue;
    let pos = top.length === k ? k - 1 : top.length;
    while (pos > 0 && greater(i, top[pos - 1]!)) {
      top[pos] = top[pos - 1]!;
      pos--;
    }
    top[pos] = i;
  }
  return top.map((i) => i - start);
}

/** Replaces `output` with its top-N classification (a BYTES tensor of the same name). */
export function classifyOutput(output: Tensor, options: ClassificationOptions): Tensor {
  const { datatype, shape, name } = output;
  const n = options.count;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw rtError('BAD_PARAMETER', `output '${name}': classification must be a positive integer, got ${n}`);
  }
  if (datatype === 'BYTES' || datatype === 'BOOL') {
    throw rtError('BAD_PARAMETER', `output '${name}': classification needs a numeric output, got ${datatype}`);
  }
  let values: ArrayLike<number | bigint> = output.data as NumericArray;
  if (datatype === 'FP16') values = halfArrayToFloat32(output.data as Uint16Array);
  else if (datatype === 'BF16') values = bf16ArrayToFloat32(output.data as Uint16Array);
  const isFloat = datatype === 'FP16' || datatype === 'BF16' || datatype === 'FP32' || datatype === 'FP64';

  const batched = options.batched && shape.length > 0;
  const batchSize = batched ? shape[0]! : 1;
  let perItem = 1;
  for (let d = batched ? 1 : 0; d < shape.length; d++) perItem *= shape[d]!;
  const k = Math.min(n, perItem);
  const labels = options.labels;

  const strings: Uint8Array[] = [];
  for (let b = 0; b < batchSize; b++) {
    const start = b * perItem;
    for (const idx of topIndices(values, start, perItem, k)) {
      const v = values[start + idx]!;
      let text = `${isFloat ? formatFloat(v as number) : String(v)}:${idx}`;
      const label = labels?.[idx];
      if (label !== undefined) text += `:${label}`;
      strings.push(utf8Encode(text));
    }
  }
  return { name, datatype: 'BYTES', shape: batched ? [batchSize, k] : [k], data: strings };
}
