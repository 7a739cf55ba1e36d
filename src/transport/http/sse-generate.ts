/**
 * Request and response bodies of Triton's generate extension (docs/protocol.md §2.4 "generate (provisional)";
 * S:docs/protocol/extension_generate.md), served for any model, plus the SSE event framing
 * (WHATWG HTML §9.2 server-sent events: `id:`, `event:`, `data:` lines, a blank line ends an event).
 *
 * Two body forms (docs/ws-protocol.md "SSE"):
 * - generate form: `{"id"?, "parameters"?, "<input>": value, ...}`; values are scalars or (nested) arrays, the
 *   shape is the model's with batch 1 and one variable dimension deduced from the count. Answers are
 *   `{"id"?, "model_name", "model_version", "<output>": value}` with a flat array, or the value itself for a
 *   one-element output.
 * - KServe form: a body with an `inputs` array is an $inference_request; answers are $inference_response JSON.
 */
import type { InferenceApi } from '../../api/inference-api.ts';
import type { InferResponse, Parameters } from '../../api/types.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import { rtError, type RtError } from '../../errors/registry.ts';
import { decodeInferRequestJson, encodeInferResponse, type DecodedInferRequest } from '../../codec/kserve-json.ts';
import { describeValue, formatShape } from '../../codec/tensor-data.ts';
import { tensorDataToJson } from '../../codec/json-data-encode.ts';
import { jsonToTensorData } from '../../codec/json-data-decode.ts';
import { checkParameters, isPlainObject } from '../../codec/wire-tensor.ts';
import { encodeOptionsFor } from '../streaming/response-encoding.ts';

export type GenerateForm = 'generate' | 'kserve';

export interface DecodedGenerate {
  readonly form: GenerateForm;
  readonly decoded: DecodedInferRequest;
}

/** Decodes a generate / generate_stream body for `model`. */
export function decodeGenerateBody(api: InferenceApi, model: string, version: string | undefined, body: unknown): DecodedGenerate {
  if (!isPlainObject(body)) throw rtError('BAD_JSON', `the generate request must be a JSON object, got ${describeValue(body)}`);
  const inputs = body['inputs'];
  if (Array.isArray(inputs) && inputs.every((i) => isPlainObject(i))) {
    return { form: 'kserve', decoded: decodeInferRequestJson(body) };
  }
  const id = body['id'];
  if (id !== undefined && typeof id !== 'string') throw rtError('BAD_JSON', `'id' must be a string, got ${describeValue(id)}`);
  const parameters = checkParameters('request parameters', body['parameters']);
  const meta = api.modelMetadata(model, version);
  const batched = api.modelConfig(model, version).max_batch_size > 0;
  const tensors: Tensor[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'id' || key === 'parameters') continue;
    const input = meta.inputs.find((t) => t.name === key);
    if (input === undefined) {
      throw rtError(
        'UNEXPECTED_INPUT',
        `generate: '${key}' is not an input of model '${model}' (inputs: ${meta.inputs.map((t) => t.name).join(', ')})`,
      );
    }
    const values = Array.isArray(value) ? (value as unknown[]).flat(Infinity) : [value];
    const dims = batched ? input.shape.slice(1) : input.shape.slice();
    const shape = deduceShape(key, dims, values.length);
    const full = batched ? [1, ...shape] : shape;
    tensors.push({
      name: key,
      datatype: input.datatype,
      shape: full,
      data: jsonToTensorData('input', key, input.datatype, full, values.length, values),
    });
  }
  return {
    form: 'generate',
    decoded: { ...(id !== undefined && { id }), ...(parameters !== undefined && { parameters }), inputs: tensors },
  };
}

/** The model's dims with at most one variable (-1) dimension filled in from the element count. */
function deduceShape(name: string, dims: readonly number[], count: number): number[] {
  const shape = dims.slice();
  const variable: number[] = [];
  let fixed = 1;
  for (let i = 0; i < dims.length; i++) {
    if (dims[i]! < 0) variable.push(i);
    else fixed *= dims[i]!;
  }
  if (variable.length === 0) {
    if (fixed !== count) throw rtError('BAD_SHAPE', `input '${name}': the model's shape ${formatShape(dims)} needs ${fixed} values, got ${count}`);
    return shape;
  }
  if (variable.length > 1) {
    throw rtError(
      'BAD_SHAPE',
      `input '${name}': the shape cannot be deduced from a flat value because the model's shape ${formatShape(dims)} has more than one variable dimension; use the KServe form ('inputs' with shapes)`,
    );
  }
  if (fixed === 0 || count % fixed !== 0) {
    throw rtError(
      'BAD_SHAPE',
      `input '${name}': ${count} values are not a whole number of slices of the model's shape ${formatShape(dims)} (${fixed} values per step of the variable dimension)`,
    );
  }
  shape[variable[0]!] = count / fixed;
  return shape;
}

/** A response body in the request's form (JSON text, no binary data). */
export function encodeGenerateResponse(
  form: GenerateForm,
  decoded: { readonly parameters?: Parameters | undefined; readonly outputs?: DecodedInferRequest['outputs'] },
  response: InferResponse,
): string {
  if (form === 'kserve') {
    const opts = encodeOptionsFor({ parameters: decoded.parameters, outputs: decoded.outputs, jsonOnly: true });
    return new TextDecoder().decode(encodeInferResponse(response, opts).json);
  }
  let text = '{';
  if (response.id !== undefined) text += `"id":${JSON.stringify(response.id)},`;
  text += `"model_name":${JSON.stringify(response.model_name)},"model_version":${JSON.stringify(response.model_version)}`;
  for (const t of response.outputs) {
    const json = tensorDataToJson('output', t.name, t.datatype, t.data);
    text += `,${JSON.stringify(t.name)}:${t.data.length === 1 ? json.slice(1, -1) : json}`;
  }
  return `${text}}`;
}

// ---------------------------------------------------------------------------------------------------------------
// SSE framing

/** One SSE event. `data` must be one line (JSON text never holds a raw newline). */
export function sseEvent(id: string | undefined, event: string | undefined, data: string): string {
  let out = '';
  if (id !== undefined) out += `id: ${id}\n`;
  if (event !== undefined) out += `event: ${event}\n`;
  return `${out}data: ${data}\n\n`;
}

/** The in-band error event body after the stream started (Triton/vLLM convention: an `error` field). */
export function sseErrorData(err: RtError): string {
  return JSON.stringify({
    error: err.message,
    code: err.code,
    retryable: err.retryable,
    ...(err.retryAfterMs !== undefined && { retry_after_ms: err.retryAfterMs }),
  });
}

/** `<stream id>:<seq>`, the SSE `id:` of an event and what Last-Event-ID sends back. */
export function sseEventId(streamId: string, seq: number): string {
  return `${streamId}:${seq}`;
}

export function parseLastEventId(value: string): { streamId: string; seq: number } | undefined {
  const at = value.lastIndexOf(':');
  if (at <= 0) return undefined;
  const seqText = value.slice(at + 1).trim();
  if (!/^\d{1,15}$/.test(seqText)) return undefined;
  return { streamId: value.slice(0, at).trim(), seq: Number(seqText) };
}
