/**
 * Rate limits and WebSocket tickets across front-end workers (docs/workers.md): kept in memory, they live in the
 * engine owner, so a per-principal limit counts the requests of every worker and a ticket issued through one worker
 * opens a WebSocket on another.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import type { Operation } from '../../../src/config/security-schema.ts';
import { startTestServer } from '../../helpers/server.ts';
import { simpleRequest } from '../security/helpers.ts';

const apiKeys: { id: string; sha256: string; scopes: Operation[] }[] = [{ id: 'a', sha256: hashApiKey('key-a'), scopes: ['admin'] }];

/** A request on a connection of its own: node:cluster hands each new connection to the next worker. */
async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: 'Bearer key-a', 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(body),
  });
}

function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['rtserve.v1']);
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

describe('rate limits and WebSocket tickets with two workers', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({
      workers: 2,
      auth: { enabled: true, apiKeys },
      // One token per 100 s: the count is exact whatever the machine's speed.
      rateLimit: { enabled: true, perPrincipal: { ratePerSec: 0.01, burst: 4 } },
    });
  });
  after(async () => {
    await server.close();
  });

  test('a per-principal burst of 4 holds for the whole server, not per worker', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await post(`${server.httpUrl}/v2/models/simple/infer`, simpleRequest());
      await r.arrayBuffer();
      statuses.push(r.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429, 429, 429]);
  });

  test('tickets issued through either worker open a WebSocket through either worker, once', async () => {
    const wsUrl = `${server.httpUrl.replace(/^http/, 'ws')}/v2/ws`;
    for (let i = 0; i < 4; i++) {
      const issued = await post(`${server.httpUrl}/v2/auth/ws-ticket`, {});
      assert.equal(issued.status, 200);
      const { ticket } = (await issued.json()) as { ticket: string };
      assert.equal(await upgradeStatus(`${wsUrl}?ticket=${ticket}`), 101);
      assert.equal(await upgradeStatus(`${wsUrl}?ticket=${ticket}`), 401, 'a ticket works once');
    }
  });
});
