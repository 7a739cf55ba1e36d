import { BYTE_SIZE, bytesOf, elementCount, TYPED_ARRAY_OF } from '../tensor/datatype.ts';
import type { BytesArray, NumericArray, TensorData } from '../tensor/datatype.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { BatchFeed } from './engine.ts';
import { rtError } from '../errors/registry.ts';

/**
 * Batch assembly for the dynamic batcher: requests are joined along dim 0 into one tensor per input (exactly
 * one copy, into a fresh buffer, because the engine may transfer the buffer to its worker thread) and the
 * engine's outputs are cut back per request as views (no copy). Triton batcher.md: requests batch only when
 * every non-batch dimension matches, so that concatenation along dim 0 is well defined.
 */

/**
 * The key under which requests may share a batch: the set of input names with their datatype and their
 * shape without dim 0. Two requests with equal keys can be concatenated input by input; any difference (a
 * missing input, another dtype, another image size) means they must never meet in one batch.
 */
export function batchKey(inputs: readonly Tensor[]): string {
  const parts = inputs.map((t) => `${t.name}\u0000${t.datatype}\u0000${t.shape.slice(1).join('x')}`);
  if (parts.length > 1) parts.sort();
  return parts.join('\u0001');
}

/** Rows (dim 0) of a tensor that carries a batch dimension; a scalar cannot be batched. */
function rowsOf(t: Tensor, what: string): number {
  const rows = t.shape[0];
  if (rows === undefined) throw rtError('BAD_SHAPE', `${what} '${t.name}' has no batch dimension (shape [])`);
  return rows;
}

function checkElements(t: Tensor, what: string): void {
  const expected = elementCount(t.shape);
  if (t.data.length !== expected) {
    throw rtError('BAD_DATA', `${what} '${t.name}' has ${t.data.length} elements, but its shape [${t.shape.join(',')}] needs ${expected}`);
  }
}

/**
 * Checks that several requests' inputs can be concatenated along dim 0 and says how: one plan per input, in the
 * input order of the first request. `requests[i]` is request i's inputs; every request must have the same batch
 * key (see `batchKey`). Nothing is copied.
 */
export function planBatch(requests: readonly (readonly Tensor[])[]): BatchFeed[] {
  const first = requests[0];
  if (first === undefined) return [];
  return first.map((proto) => {
    const parts: Tensor[] = requests.map((inputs, i) => {
      const t = inputs.find((x) => x.name === proto.name);
      if (t === undefined) throw rtError('MISSING_INPUT', `request ${i} of the batch lacks input '${proto.name}'`);
      if (t.datatype !== proto.datatype) {
        throw rtError('BAD_DATATYPE', `input '${proto.name}': ${t.datatype} cannot be batched with ${proto.datatype}`);
      }
      checkElements(t, 'input');
      if (t.datatype !== 'BYTES' && (Array.isArray(t.data) || t.data.BYTES_PER_ELEMENT !== BYTE_SIZE[t.datatype])) {
        throw rtError('BAD_DATA', `input '${t.name}' data does not hold ${t.datatype} elements`);
      }
      return t;
    });
    let rows = 0;
    for (const p of parts) rows += rowsOf(p, 'input');
    return { name: proto.name, datatype: proto.datatype, shape: [rows, ...proto.shape.slice(1)], parts };
  });
}

/**
 * Concatenates the inputs of several requests along dim 0 (see `planBatch`). Each output tensor is a fresh
 * allocation filled with one copy of each request's bytes.
 */
export function concatBatch(requests: readonly (readonly Tensor[])[]): Tensor[] {
  return planBatch(requests).map((plan) => ({
    name: plan.name,
    datatype: plan.datatype,
    shape: [...plan.shape],
    data: concatData(plan.datatype, plan.parts, elementCount(plan.shape)),
  }));
}

function concatData(datatype: Tensor['datatype'], parts: readonly Tensor[], total: number): TensorData {
  if (datatype === 'BYTES') {
    // BYTES elements are separate byte strings: the batch is a new array of the same element references.
    const out: BytesArray = new Array<Uint8Array>(total);
    let at = 0;
    for (const p of parts) {
      if (!Array.isArray(p.data)) throw rtError('BAD_DATA', `input '${p.name}' is BYTES but holds a typed array`);
      for (const el of p.data) out[at++] = el;
    }
    return out;
  }
  const out = new TYPED_ARRAY_OF[datatype](total);
  const dst = bytesOf(out);
  let at = 0;
  for (const p of parts) {
    if (Array.isArray(p.data)) throw rtError('BAD_DATA', `input '${p.name}' data does not hold ${datatype} elements`);
    // A byte copy is one memcpy whatever the element type (FP16/BF16 patterns, BigInt64, ...).
    dst.set(bytesOf(p.data), at);
    at += p.data.byteLength;
  }
  return out;
}

/**
 * Splits batched outputs along dim 0: `result[i]` holds request i's outputs, in the order of `outputs`, each
 * with shape [batchSizes[i], ...rest] and data that is a view (typed arrays: `subarray`) into the batch output.
 * Throws ENGINE_FAILED when an output's dim 0 is not the batch size (the engine broke the batching contract).
 */
export function splitBatch(outputs: readonly Tensor[], batchSizes: readonly number[]): Tensor[][] {
  let total = 0;
  for (const b of batchSizes) total += b;
  const result: Tensor[][] = batchSizes.map(() => []);
  for (const out of outputs) {
    const rows = out.shape[0];
    if (rows !== total) {
      throw rtError('ENGINE_FAILED', `output '${out.name}' has shape [${out.shape.join(',')}]; expected dim 0 = ${total} (the batch size)`);
    }
    const rest = out.shape.slice(1);
    const rowElems = elementCount(rest);
    if (out.data.length !== total * rowElems) {
      throw rtError(
        'ENGINE_FAILED',
        `output '${out.name}' has ${out.data.length} elements, but its shape [${out.shape.join(',')}] needs ${total * rowElems}`,
      );
    }
    let row = 0;
    batchSizes.forEach((b, i) => {
      const from = row * rowElems;
      const to = (row + b) * rowElems;
      row += b;
      const data: TensorData = Array.isArray(out.data) ? out.data.slice(from, to) : (out.data as NumericArray).subarray(from, to);
      (result[i] as Tensor[]).push({ name: out.name, datatype: out.datatype, shape: [b, ...rest], data });
    });
  }
  return result;
}
