/**
 * The shared integration table's client over the WebSocket protocol (test/integration/cases.ts): tensors as JSON
 * `data`, or as binary frames both ways; answers matched by id, so many requests may be in flight on one socket.
 */
import assert from 'node:assert/strict';
import type { ErrorCategory } from '../../../src/errors/registry.ts';
import { BinarySection, decodeWireTensor, encodeWireTensor } from '../../../src/codec/wire-tensor.ts';
import { TableError, type TableClient } from '../cases.ts';
import type { TestWs } from './ws-test-client.ts';

export function wsTableClient(ws: TestWs, binary: boolean): TableClient {
  let n = 0;
  return async (req) => {
    const id = req.id ?? `t${++n}`;
    const chunks: Uint8Array[] = [];
    const inputs = req.inputs.map((t) => JSON.parse(encodeWireTensor('input', t, binary, chunks)) as unknown);
    const outputs = binary ? req.outputs?.map((o) => ({ ...o, parameters: { ...o.parameters, binary_data: true } })) : req.outputs;
    ws.send({
      type: 'infer',
      id,
      model: req.model,
      ...(req.version === undefined ? {} : { version: req.version }),
      inputs,
      ...(outputs === undefined ? {} : { outputs }),
      ...(binary
        ? { parameters: { ...req.parameters, binary_data_output: true } }
        : req.parameters === undefined
          ? {}
          : { parameters: req.parameters }),
    });
    for (const c of chunks) ws.sendBinary(c);
    const e = await ws.terminal(id);
    if (e.type === 'error') {
      const err = e.error as { category: ErrorCategory; message: string };
      throw new TableError(err.category, err.message);
    }
    assert.equal(e.type, 'result');
    let k = 0;
    const raw = e['outputs'] as unknown[];
    const tensors = raw.map((o, i) => {
      const hasBinary = typeof (o as { parameters?: { binary_data_size?: number } }).parameters?.binary_data_size === 'number';
      return decodeWireTensor('output', i, o, new BinarySection(hasBinary ? e.binary[k++] : undefined));
    });
    if (binary) assert.equal(k, tensors.length, 'every output came as a binary frame');
    return { model_name: String(e['model_name']), outputs: tensors, id };
  };
}
