/** A TableClient over KServe v2 REST, JSON or binary tensor data (docs/protocol.md §2.3), shared by the transport tests. */
import assert from 'node:assert/strict';
import { encodeInferRequest, decodeInferResponse } from '../../../src/codec/kserve-client-codec.ts';
import type { ErrorCategory } from '../../../src/errors/registry.ts';
import { TableError, type TableClient } from '../cases.ts';

/** Status → category, as the error registry maps them (src/errors/registry.ts). */
const CATEGORY_OF_STATUS: Record<number, ErrorCategory> = {
  400: 'INVALID_ARGUMENT',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
};

export function restClient(baseUrl: string, binary: boolean): TableClient {
  return async (req) => {
    const path = `/v2/models/${req.model}${req.version === undefined ? '' : `/versions/${req.version}`}/infer`;
    const outputs = binary ? (req.outputs ?? []).map((o) => ({ ...o, parameters: { ...o.parameters, binary_data: true } })) : req.outputs;
    const enc = encodeInferRequest(req.inputs, {
      binary,
      ...(req.id === undefined ? {} : { id: req.id }),
      ...(binary
        ? { parameters: { ...req.parameters, binary_data_output: true } }
        : req.parameters === undefined
          ? {}
          : { parameters: req.parameters }),
      ...(outputs === undefined ? {} : { outputs }),
    });
    const headers: Record<string, string> = { 'content-type': binary ? 'application/octet-stream' : 'application/json' };
    if (enc.headerLength !== undefined) headers['inference-header-content-length'] = String(enc.headerLength);
    const res = await fetch(baseUrl + path, { method: 'POST', headers, body: enc.body });
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) {
      const err = JSON.parse(new TextDecoder().decode(body)) as { error: string };
      assert.equal(typeof err.error, 'string', 'error body is {"error": "..."}');
      throw new TableError(CATEGORY_OF_STATUS[res.status] ?? 'INTERNAL', err.error);
    }
    const hl = res.headers.get('inference-header-content-length');
    const decoded = decodeInferResponse(body, hl === null ? undefined : Number(hl));
    return { model_name: decoded.model_name, outputs: decoded.outputs, ...(decoded.id === undefined ? {} : { id: decoded.id }) };
  };
}
