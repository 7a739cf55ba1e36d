/**
 * Authentication, authorization and limits on the WebSocket front end: credentials at the upgrade (Authorization
 * header, `rtserve.bearer.<token>` subprotocol, single-use tickets from POST /v2/auth/ws-ticket in the subprotocol
 * or the query), per-request scopes and rate limits as error events with retry_after_ms, the per-socket message
 * rate, and WSS with the server's TLS certificate.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { postJson, request, startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import type { Operation } from '../../../src/config/security-schema.ts';
import { TestWs, outputData, simpleInfer } from '../ws/ws-test-client.ts';
import { makeCerts, type Certs } from './helpers.ts';

const apiKeys: { id: string; sha256: string; scopes: Operation[]; models?: string[] }[] = [
  { id: 'simple-user', sha256: hashApiKey('k-simple'), scopes: ['infer'], models: ['simple'] },
  { id: 'mlp-user', sha256: hashApiKey('k-mlp'), scopes: ['infer'], models: ['mlp'] },
];
const MLP = { type: 'infer', model: 'mlp', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], data: new Array(64).fill(0.1) }] };

/** The HTTP status of a refused upgrade, or 101 when it was accepted. */
function upgradeStatus(url: string, protocols: string[], headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

describe('WebSocket auth and limits', () => {
  let server: RunningServer;
  let wsUrl: string;
  before(async () => {
    server = await startTestServer({
      auth: { enabled: true, apiKeys },
      rateLimit: { enabled: true, perModel: { simple: { ratePerSec: 0.01, burst: 3 } } },
      wsMaxMessagesPerSec: 5,
    });
    wsUrl = `${server.httpUrl.replace(/^http/, 'ws')}/v2/ws`;
  });
  after(async () => {
    await server.close();
  });

  test('no or wrong credentials: the upgrade is refused with 401', async () => {
    assert.equal(await upgradeStatus(wsUrl, ['rtserve.v1']), 401);
    assert.equal(await upgradeStatus(wsUrl, ['rtserve.v1', 'rtserve.bearer.k-wrong']), 401);
    assert.equal(await upgradeStatus(wsUrl, ['rtserve.v1'], { authorization: 'Bearer k-wrong' }), 401);
    assert.equal(await upgradeStatus(wsUrl, ['rtserve.v1'], { authorization: 'Bearer k-simple' }), 101);
  });

  test('bearer subprotocol: the credential is never echoed; scopes apply per request (PERMISSION_DENIED event)', async () => {
    const c = await TestWs.open(server.httpUrl, { protocols: ['rtserve.v1', 'rtserve.bearer.k-simple'] });
    try {
      assert.equal(c.ws.protocol, 'rtserve.v1');
      c.send(simpleInfer('ok-1', 10));
      const r = await c.terminal('ok-1');
      assert.equal(r.type, 'result', JSON.stringify(r));
      assert.deepEqual(
        outputData(r, 'OUTPUT0'),
        Array.from({ length: 16 }, (_, i) => i + 11),
      );
      c.send({ ...MLP, id: 'denied' });
      const d = (await c.terminal('denied')) as unknown as { type: string; error: { code: string; message: string } };
      assert.equal(d.type, 'error');
      assert.equal(d.error.code, 'PERMISSION_DENIED');
      assert.match(d.error.message, /may not use model 'mlp'/);
    } finally {
      c.close();
    }
  });

  test('tickets: issued over REST, accepted once in the subprotocol or the query', async () => {
    const issue = async (): Promise<string> => {
      const r = await request(`${server.httpUrl}/v2/auth/ws-ticket`, { method: 'POST', headers: { authorization: 'Bearer k-mlp' } });
      assert.equal(r.status, 200);
      return (r.json() as { ticket: string }).ticket;
    };
    const t1 = await issue();
    const c = await TestWs.open(server.httpUrl, { protocols: ['rtserve.v1', `rtserve.ticket.${t1}`] });
    try {
      assert.equal(c.ws.protocol, 'rtserve.v1');
      c.send({ ...MLP, id: 'via-ticket' });
      assert.equal((await c.terminal('via-ticket')).type, 'result');
    } finally {
      c.close();
    }
    assert.equal(await upgradeStatus(wsUrl, ['rtserve.v1', `rtserve.ticket.${t1}`]), 401, 'a ticket works once');
    const t2 = await issue();
    assert.equal(await upgradeStatus(`${wsUrl}?ticket=${t2}`, ['rtserve.v1']), 101);
    assert.equal(await upgradeStatus(`${wsUrl}?ticket=${t2}`, ['rtserve.v1']), 401);
    assert.equal((await postJson(`${server.httpUrl}/v2/auth/ws-ticket`, {})).status, 401, 'tickets need credentials');
  });

  test('per-model rate limit: the request over the bucket gets a RATE_LIMITED error event with retry_after_ms', async () => {
    const c = await TestWs.open(server.httpUrl, { headers: { authorization: 'Bearer k-simple' } });
    try {
      // ok-1 above took one of the 3 tokens
      for (const id of ['rl-1', 'rl-2']) {
        c.send(simpleInfer(id));
        assert.equal((await c.terminal(id)).type, 'result', id);
      }
      c.send(simpleInfer('rl-3'));
      const e = (await c.terminal('rl-3')) as unknown as { type: string; error: { code: string; retry_after_ms?: number } };
      assert.equal(e.type, 'error');
      assert.equal(e.error.code, 'RATE_LIMITED');
      assert.ok((e.error.retry_after_ms ?? 0) > 1000);
      const m = new TextDecoder().decode((await request(`${server.metricsUrl ?? ''}/metrics`)).body);
      assert.match(m, /^rtserve_rate_limited_total\{protocol="ws"\} [1-9]/m);
    } finally {
      c.close();
    }
  });

  test('message rate: events past wsMaxMessagesPerSec are refused unread, the socket stays open', async () => {
    const c = await TestWs.open(server.httpUrl, { headers: { authorization: 'Bearer k-mlp' } });
    try {
      // burst = 2 s worth = 10 events; 30 sent at once
      for (let i = 0; i < 30; i++) c.send({ ...MLP, id: `m-${i}` });
      await c.waitFor(
        (e) => e.type === 'error' && (e as unknown as { error: { code: string } }).error.code === 'RATE_LIMITED',
        'a RATE_LIMITED refusal',
      );
      const refused = c.events.filter(
        (e) =>
          e.type === 'error' &&
          e.id === undefined &&
          (e as unknown as { error: { code: string; retry_after_ms?: number } }).error.retry_after_ms !== undefined,
      );
      assert.ok(refused.length >= 1);
      await c.terminal('m-0');
      assert.equal(c.ws.readyState, WebSocket.OPEN);
    } finally {
      c.close();
    }
  });
});

describe('WSS on the TLS port', () => {
  let certs: Certs;
  let server: RunningServer;
  before(async () => {
    certs = await makeCerts();
    server = await startTestServer({ tlsCert: certs.serverCert, tlsKey: certs.serverKey });
  });
  after(async () => {
    await server.close();
    await certs.cleanup();
  });

  test('a wss:// client that trusts the CA runs inference; ws:// to the TLS port fails cleanly', async () => {
    const url = `${server.httpUrl.replace(/^https/, 'wss')}/v2/ws`;
    const ws = new WebSocket(url, ['rtserve.v1'], { ca: readFileSync(certs.caCert) });
    const events: Record<string, unknown>[] = [];
    ws.on('message', (d: Buffer) => events.push(JSON.parse(d.toString()) as Record<string, unknown>));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify(simpleInfer('tls-1', 1)));
    for (let i = 0; i < 200 && !events.some((e) => e['id'] === 'tls-1'); i++) await new Promise((r) => setTimeout(r, 50));
    ws.close();
    const result = events.find((e) => e['id'] === 'tls-1');
    assert.equal(result?.['type'], 'result', JSON.stringify(events));

    // Plain ws:// to the TLS port: the server's TLS layer drops it (OpenSSL sees an HTTP request, not a ClientHello).
    const plain = new WebSocket(url.replace(/^wss/, 'ws'), ['rtserve.v1']);
    await assert.rejects(
      new Promise((resolve, reject) => {
        plain.once('open', resolve);
        plain.once('error', reject);
      }),
      (err: Error & { code?: string }) => err.code === 'ECONNRESET' && /socket hang up/.test(err.message),
    );
  });
});
