/**
 * The shared integration table (test/integration/cases.ts) over the WebSocket protocol, on the wire: tensors
 * as JSON `data`, and as binary frames both ways. All cases of one run share one socket and are sent at once,
 * so they also exercise many requests in flight with answers matched by id.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startTestServer } from '../../helpers/server.ts';
import { INFER_CASES, plainValues, TableError } from '../cases.ts';
import { TestWs } from './ws-test-client.ts';
import { wsTableClient } from './ws-table-client.ts';

describe('WebSocket: the shared integration table', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  for (const binary of [false, true]) {
    test(`${binary ? 'binary frames' : 'json'}: every case, all in flight at once on one socket`, async () => {
      const ws = await TestWs.open(server.httpUrl);
      try {
        const client = wsTableClient(ws, binary);
        const runs = INFER_CASES.map(async (c) => {
          const expect = c.expect;
          if ('error' in expect) {
            await assert.rejects(client(c.request), (err: unknown) => {
              assert.ok(err instanceof TableError, `${c.name}: expected a TableError, got ${String(err)}`);
              assert.equal(err.category, expect.error, `${c.name}: ${err.message}`);
              for (const part of expect.messageIncludes)
                assert.ok(err.message.includes(part), `${c.name}: message ${JSON.stringify(err.message)} should mention ${part}`);
              return true;
            });
            return;
          }
          const res = await client(c.request);
          if (expect.id !== undefined) assert.equal(res.id, expect.id);
          assert.deepEqual(
            res.outputs.map((o) => o.name),
            expect.outputs.map((o) => o.name),
            c.name,
          );
          for (const [i, want] of expect.outputs.entries()) {
            const got = res.outputs[i]!;
            assert.equal(got.datatype, want.datatype, `${c.name}: ${want.name} datatype`);
            assert.deepEqual([...got.shape], want.shape, `${c.name}: ${want.name} shape`);
            assert.deepEqual(plainValues(got), want.data, `${c.name}: ${want.name} data`);
          }
        });
        await Promise.all(runs);
        assert.equal(ws.strayBinary, 0);
      } finally {
        ws.close();
      }
    });
  }
});
