import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { makeCerts, simpleRequest, type Certs } from './helpers.ts';

interface Reply {
  status: number;
  body: string;
}

/** One request with node's own https client; resolves with the reply or rejects with the client-side error. */
function call(url: string, options: RequestOptions & { body?: string } = {}): Promise<Reply> {
  const u = new URL(url);
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(u, { method: options.body === undefined ? 'GET' : 'POST', ...options, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    // A hang would be a failure: the timeout turns it into a distinct error the assertions reject.
    req.on('timeout', () => req.destroy(new Error('TIMEOUT: no answer within 10 s')));
    req.on('error', reject);
    req.end(options.body);
  });
}

function rejectsCleanly(p: Promise<unknown>, what: string): Promise<void> {
  return assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof Error, what);
    assert.doesNotMatch(err.message, /TIMEOUT/, `${what}: must fail fast, not hang`);
    return true;
  });
}

describe('TLS on the HTTP port', () => {
  let certs: Certs;
  let server: RunningServer;
  let ca: Buffer;
  before(async () => {
    certs = await makeCerts();
    ca = readFileSync(certs.caCert);
    server = await startTestServer({ tlsCert: certs.serverCert, tlsKey: certs.serverKey });
  });
  after(async () => {
    await server.close();
    await certs.cleanup();
  });

  test('serves HTTPS: a client that trusts the CA gets answers, inference included', async () => {
    assert.match(server.httpUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await call(`${server.httpUrl}/v2/health/live`, { ca })).status, 200);
    const r = await call(`${server.httpUrl}/v2/models/simple/infer`, { ca, body: JSON.stringify(simpleRequest(2, 3)), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 200, r.body);
    const out = (JSON.parse(r.body) as { outputs: { name: string; data: number[] }[] }).outputs.find((o) => o.name === 'OUTPUT1');
    assert.deepEqual(out?.data, Array.from({ length: 16 }, (_, i) => 2 * i - 3));
  });

  test('clients that do not trust the certificate, and plain-HTTP clients, fail cleanly; the server keeps serving', async () => {
    await rejectsCleanly(call(`${server.httpUrl}/v2/health/live`), 'untrusted certificate');
    const plain = server.httpUrl.replace('https:', 'http:');
    await rejectsCleanly(call(`${plain}/v2/health/live`), 'plain HTTP to the TLS port');
    assert.equal((await call(`${server.httpUrl}/v2/health/live`, { ca })).status, 200);
  });
});

describe('mutual TLS (--tls-ca)', () => {
  let certs: Certs;
  let server: RunningServer;
  before(async () => {
    certs = await makeCerts();
    server = await startTestServer({ tlsCert: certs.serverCert, tlsKey: certs.serverKey, tlsCa: certs.caCert });
  });
  after(async () => {
    await server.close();
    await certs.cleanup();
  });

  test('a client certificate from the CA is required', async () => {
    const ca = readFileSync(certs.caCert);
    const ok = await call(`${server.httpUrl}/v2/health/live`, { ca, cert: readFileSync(certs.clientCert), key: readFileSync(certs.clientKey) });
    assert.equal(ok.status, 200);
    await rejectsCleanly(call(`${server.httpUrl}/v2/health/live`, { ca }), 'no client certificate');
    await rejectsCleanly(call(`${server.httpUrl}/v2/health/live`, { ca, cert: readFileSync(certs.rogueCert), key: readFileSync(certs.rogueKey) }), 'client certificate from another CA');
  });
});

test('TLS configuration errors are BAD_CONFIG and name the setting', async () => {
  const certs = await makeCerts();
  try {
    const expectBadConfig = (overrides: Record<string, string>, re: RegExp) =>
      assert.rejects(startTestServer(overrides), (e: unknown) => e instanceof RtError && e.code === 'BAD_CONFIG' && re.test(e.message));
    await expectBadConfig({ tlsCert: certs.serverCert }, /--tls-key/);
    await expectBadConfig({ tlsCa: certs.caCert }, /tlsCa \(--tls-ca\) needs tlsCert and tlsKey/);
    await expectBadConfig({ tlsCert: `${certs.dir}/missing.crt`, tlsKey: certs.serverKey }, /tlsCert: cannot read .*missing\.crt/);
    await expectBadConfig({ tlsCert: `${certs.dir}/server.ext`, tlsKey: certs.serverKey }, /not a PEM file/);
  } finally {
    await certs.cleanup();
  }
});
