/**
 * TLS, authentication, authorization and rate limits on the gRPC port, with a real grpc-js client: the same
 * certificates, API keys and buckets as REST, with gRPC's own statuses (UNAUTHENTICATED 16, PERMISSION_DENIED 7,
 * RESOURCE_EXHAUSTED 8 with a `retry-after-ms` trailer).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { decodeModelInferResponse, encodeModelInferRequest } from '../../../src/codec/grpc/infer-client-codec.ts';
import { makeCerts, type Certs } from './helpers.ts';

type Outcome = { ok: true; bytes: Buffer } | { ok: false; code: number; details: string; metadata: grpc.Metadata };

const INFER = '/inference.GRPCInferenceService/ModelInfer';

function infer(client: grpc.Client, model: string, token?: string): Promise<Outcome> {
  const md = new grpc.Metadata();
  if (token !== undefined) md.set('authorization', `Bearer ${token}`);
  const req = encodeModelInferRequest({
    model,
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16).fill(2) },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Int32Array(16).fill(5) },
    ],
  });
  return new Promise((resolve) => {
    client.makeUnaryRequest<Buffer, Buffer>(
      INFER,
      (b) => b,
      (b) => b,
      req,
      md,
      { deadline: Date.now() + 15_000 },
      (err, res) =>
        resolve(
          err === null ? { ok: true, bytes: res ?? Buffer.alloc(0) } : { ok: false, code: err.code, details: err.details, metadata: err.metadata },
        ),
    );
  });
}

function sum(o: Outcome): number[] {
  assert.ok(o.ok, o.ok ? '' : `${o.code} ${o.details}`);
  return Array.from(decodeModelInferResponse(o.bytes).outputs.find((t) => t.name === 'OUTPUT0')?.data as Int32Array);
}

describe('gRPC with mutual TLS, API keys and rate limits', () => {
  let certs: Certs;
  let server: RunningServer;
  let creds: grpc.ChannelCredentials;
  const clients: grpc.Client[] = [];
  const client = (c: grpc.ChannelCredentials): grpc.Client => {
    assert.ok(server.grpcAddress !== undefined);
    const cl = new grpc.Client(server.grpcAddress, c);
    clients.push(cl);
    return cl;
  };
  before(async () => {
    certs = await makeCerts();
    server = await startTestServer({
      tlsCert: certs.serverCert,
      tlsKey: certs.serverKey,
      tlsCa: certs.caCert,
      auth: {
        enabled: true,
        apiKeys: [
          { id: 'simple-only', sha256: hashApiKey('k-simple'), scopes: ['infer'], models: ['simple'] },
          { id: 'limited', sha256: hashApiKey('k-limited'), scopes: ['infer'] },
        ],
      },
      rateLimit: { enabled: true, perModel: { identity_all: { ratePerSec: 0.01, burst: 1 }, simple: { ratePerSec: 0.01, burst: 2 } } },
    });
    creds = grpc.credentials.createSsl(readFileSync(certs.caCert), readFileSync(certs.clientKey), readFileSync(certs.clientCert));
  });
  after(async () => {
    for (const c of clients) c.close();
    await server.close();
    await certs.cleanup();
  });

  test('with a client certificate and a valid key, inference works over TLS', async () => {
    assert.deepEqual(sum(await infer(client(creds), 'simple', 'k-simple')), new Array(16).fill(7));
  });

  test('no credentials: UNAUTHENTICATED; a key without access to the model: PERMISSION_DENIED', async () => {
    const c = client(creds);
    const none = await infer(c, 'simple');
    assert.ok(!none.ok && none.code === grpc.status.UNAUTHENTICATED, JSON.stringify(none));
    assert.equal(none.metadata.get('rtserve-error-code')[0], 'UNAUTHENTICATED');
    const wrong = await infer(c, 'simple', 'k-wrong');
    assert.ok(!wrong.ok && wrong.code === grpc.status.UNAUTHENTICATED);
    const denied = await infer(c, 'mlp', 'k-simple');
    assert.ok(!denied.ok && denied.code === grpc.status.PERMISSION_DENIED && /may not use model 'mlp'/.test(denied.details), JSON.stringify(denied));
  });

  test('over the rate limit: RESOURCE_EXHAUSTED with a retry-after-ms trailer', async () => {
    const c = client(creds);
    const first = await infer(c, 'identity_all', 'k-limited');
    // identity_all has other inputs: the request is refused by validation, but only after it was admitted
    assert.ok(!first.ok && first.code === grpc.status.INVALID_ARGUMENT, JSON.stringify(first));
    const second = await infer(c, 'identity_all', 'k-limited');
    assert.ok(!second.ok && second.code === grpc.status.RESOURCE_EXHAUSTED, JSON.stringify(second));
    assert.equal(second.metadata.get('rtserve-error-code')[0], 'RATE_LIMITED');
    assert.ok(Number(second.metadata.get('retry-after-ms')[0]) > 1000);
  });

  test('without a client certificate, or with plaintext, the call fails with UNAVAILABLE (no hang)', async () => {
    const noCert = await infer(client(grpc.credentials.createSsl(readFileSync(certs.caCert))), 'simple', 'k-simple');
    // The refusal is the TLS handshake's, not an RPC status: no connection was ever established, and without a
    // certificate the reason is the server's certificate_required alert (TLS 1.3, alert 116).
    assert.ok(!noCert.ok && noCert.code === grpc.status.UNAVAILABLE, JSON.stringify(noCert));
    assert.match(noCert.details, /No connection established.*alert certificate required/s);
    const plain = await infer(client(grpc.credentials.createInsecure()), 'simple', 'k-simple');
    assert.ok(!plain.ok && plain.code === grpc.status.UNAVAILABLE, JSON.stringify(plain));
    assert.match(plain.details, /No connection established/);
    const rogue = await infer(
      client(grpc.credentials.createSsl(readFileSync(certs.caCert), readFileSync(certs.rogueKey), readFileSync(certs.rogueCert))),
      'simple',
      'k-simple',
    );
    assert.ok(!rogue.ok && rogue.code === grpc.status.UNAVAILABLE, JSON.stringify(rogue));
    assert.match(rogue.details, /No connection established/);
    assert.deepEqual(sum(await infer(client(creds), 'simple', 'k-simple')), new Array(16).fill(7), 'still serving');
  });
});
