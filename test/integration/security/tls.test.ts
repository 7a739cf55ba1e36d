import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
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

/**
 * Runs a request that the TLS layer must refuse and checks where it was refused: the client's error code is one of
 * `clientCodes` (never a timeout, never an HTTP answer), the server's TLS layer reported a client error (with code
 * `serverCode` when given: OpenSSL's reason) and never completed a secure connection, and no route ran.
 */
async function refusedInHandshake(
  server: RunningServer,
  p: () => Promise<unknown>,
  what: string,
  clientCodes: readonly string[],
  serverCode?: string,
): Promise<void> {
  const tlsServer = server.http.server;
  let secured = 0;
  const onSecure = (): void => {
    secured++;
  };
  tlsServer.on('secureConnection', onSecure);
  const serverError = once(tlsServer, 'tlsClientError') as Promise<[Error & { code?: string }]>;
  try {
    await assert.rejects(p(), (err: unknown) => {
      assert.ok(err instanceof Error, what);
      const code = (err as { code?: string }).code ?? '';
      assert.ok(clientCodes.includes(code), `${what}: client error ${code} (${err.message}), expected one of ${clientCodes.join(', ')}`);
      return true;
    });
    const [err] = await serverError;
    if (serverCode !== undefined) assert.equal(err.code, serverCode, `${what}: the server's TLS error: ${err.message}`);
    assert.equal(secured, 0, `${what}: no secure connection was established`);
  } finally {
    tlsServer.off('secureConnection', onSecure);
  }
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
    const r = await call(`${server.httpUrl}/v2/models/simple/infer`, {
      ca,
      body: JSON.stringify(simpleRequest(2, 3)),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(r.status, 200, r.body);
    const out = (JSON.parse(r.body) as { outputs: { name: string; data: number[] }[] }).outputs.find((o) => o.name === 'OUTPUT1');
    assert.deepEqual(
      out?.data,
      Array.from({ length: 16 }, (_, i) => 2 * i - 3),
    );
  });

  test('clients that do not trust the certificate, and plain-HTTP clients, fail cleanly; the server keeps serving', async () => {
    // The client refuses the server's certificate (its CA is unknown to the client) and aborts the handshake.
    await refusedInHandshake(server, () => call(`${server.httpUrl}/v2/health/live`), 'untrusted certificate', [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'SELF_SIGNED_CERT_IN_CHAIN',
    ]);
    // OpenSSL on the server recognises an HTTP request where a ClientHello should be, and drops the connection.
    const plain = server.httpUrl.replace('https:', 'http:');
    await refusedInHandshake(server, () => call(`${plain}/v2/health/live`), 'plain HTTP to the TLS port', ['ECONNRESET'], 'ERR_SSL_HTTP_REQUEST');
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
    // TLS 1.3: the server answers a missing certificate with the certificate_required alert (116).
    await refusedInHandshake(
      server,
      () => call(`${server.httpUrl}/v2/health/live`, { ca }),
      'no client certificate',
      ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'],
      'ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE',
    );
    // TLS 1.2: the same refusal inside the handshake, as a handshake_failure alert (40).
    await refusedInHandshake(
      server,
      () => call(`${server.httpUrl}/v2/health/live`, { ca, maxVersion: 'TLSv1.2' }),
      'no client certificate (TLS 1.2)',
      ['EPROTO'],
      'ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE',
    );
    // A certificate from another CA: node verifies it when the handshake ends and drops the socket without an
    // alert, so the client sees a reset; what shows it was the TLS layer is that no secure connection was made.
    await refusedInHandshake(
      server,
      () => call(`${server.httpUrl}/v2/health/live`, { ca, cert: readFileSync(certs.rogueCert), key: readFileSync(certs.rogueKey) }),
      'client certificate from another CA',
      ['ECONNRESET'],
    );
    assert.equal(
      (await call(`${server.httpUrl}/v2/health/live`, { ca, cert: readFileSync(certs.clientCert), key: readFileSync(certs.clientKey) })).status,
      200,
      'still serving',
    );
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
