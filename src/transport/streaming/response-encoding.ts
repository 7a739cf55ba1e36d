import type { InferResponse, Parameters, RequestedOutput } from '../../api/types.ts';
import { encodeInferResponse, responseOptionsFor, type EncodeResponseOptions, type EncodedResponse } from '../../codec/kserve-json.ts';
import { utf8Encode } from '../../codec/tensor-data.ts';

/** What of the request decides how its responses are encoded. */
export interface ResponseEncodingContext {
  readonly parameters?: Parameters | undefined;
  readonly outputs?: readonly RequestedOutput[] | undefined;
  /** The session's default for `binary_data_output` when the request does not say (WebSocket session.update). */
  readonly binaryDefault?: boolean;
  /** Never send binary outputs (SSE is text only). */
  readonly jsonOnly?: boolean;
}

export function encodeOptionsFor(ctx: ResponseEncodingContext): EncodeResponseOptions {
  let parameters = ctx.parameters;
  if (ctx.jsonOnly === true) {
    parameters = { ...parameters, binary_data_output: false };
  } else if (ctx.binaryDefault === true && parameters?.['binary_data_output'] === undefined) {
    parameters = { ...parameters, binary_data_output: true };
  }
  let outputs = ctx.outputs;
  if (ctx.jsonOnly === true && outputs !== undefined) {
    outputs = outputs.map((o) => (o.parameters?.['binary_data'] === undefined ? o : { ...o, parameters: { ...o.parameters, binary_data: false } }));
  }
  return responseOptionsFor({ parameters, outputs });
}

/**
 * Encodes a response as the body of an event: `prefix` is the opening of the event's JSON object up to and
 * including a trailing comma (e.g. `{"type":"result","id":"r1","seq":1,`), the response fields follow. The
 * response's own `id` is left out (the event carries it). Binary outputs come back as separate chunks.
 */
export function encodeResponseEvent(prefix: string, response: InferResponse, opts: EncodeResponseOptions): EncodedResponse {
  const { id: _id, ...rest } = response;
  const encoded = encodeInferResponse(rest, opts);
  const head = utf8Encode(prefix);
  // encodeInferResponse's JSON starts with '{': splice the prefix in front of its first field.
  const body = encoded.json.subarray(1);
  const json = new Uint8Array(head.byteLength + body.byteLength);
  json.set(head, 0);
  json.set(body, head.byteLength);
  return { json, binary: encoded.binary, headerLength: json.byteLength };
}
