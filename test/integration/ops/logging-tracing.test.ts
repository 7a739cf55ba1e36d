import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { startServer, type RunningServer } from '../../../src/app/rtserve-server.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { createLogger, type Logger } from '../../../src/observability/logger.ts';
import { postJson, request, startTestServer } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf } from './helpers.ts';
import * as grpc from '@grpc/grpc-js';
import { inferenceClient, streamAll, unary } from '../grpc/grpc-test-client.ts';
import { simpleInfer, TestWs } from '../ws/ws-test-client.ts';
import { digitPng, heldOutDigits } from '../image/image-helpers.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const MLP_BODY = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(1) }] });

interface LogLine {
  msg: string;
  level: number;
  [k: string]: unknown;
}

describe('request ids, W3C trace context, access log and /v2/logging', () => {
  let server: RunningServer;
  let logger: Logger;
  let dir: string;
  let logFile: string;

  const infer = (headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${server.httpUrl}/v2/models/mlp/infer`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: MLP_BODY });
  const logLines = async (): Promise<LogLine[]> => {
    logger.flush();
    const text = await readFile(logFile, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as LogLine);
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-logs-'));
    logFile = join(dir, 'rtserve.log');
    // A real pino logger (warn until the test moves it to a file), with the access log on.
    logger = createLogger('warn');
    // The operator lets /v2/logging move the log file inside this directory only (logDirectory).
    const config = await loadServerConfig({
      flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, accessLog: true, exitTimeoutSecs: 10, logDirectory: dir },
    });
    server = await startServer({ config, logger });
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('a valid traceparent is joined: same trace id and flags, rtserve span as the parent, tracestate echoed', async () => {
    const r = await infer({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'congo=t61rcWkgMzE' });
    assert.equal(r.status, 200);
    const tp = r.headers.get('traceparent') ?? '';
    const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(tp);
    assert.ok(m !== null, `traceparent ${tp}`);
    assert.equal(m[1], TRACE);
    assert.notEqual(m[2], PARENT);
    assert.equal(m[3], '01');
    assert.equal(r.headers.get('tracestate'), 'congo=t61rcWkgMzE');
  });

  test('an invalid or missing traceparent starts a new trace; errors carry ids too', async () => {
    const a = await infer({ traceparent: `00-${'0'.repeat(32)}-${PARENT}-01` });
    const b = await request(`${server.httpUrl}/v2/models/nope/ready`);
    assert.equal(b.status, 404);
    for (const tp of [a.headers.get('traceparent'), b.headers.get('traceparent')]) {
      assert.match(tp ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      assert.ok(!(tp ?? '').includes('0'.repeat(32)));
    }
    assert.notEqual(a.headers.get('traceparent')?.slice(3, 35), b.headers.get('traceparent')?.slice(3, 35));
  });

  test('X-Request-Id: a plain client id is echoed, an unsafe one is replaced, none gets a UUID', async () => {
    assert.equal((await infer({ 'x-request-id': 'client-42' })).headers.get('x-request-id'), 'client-42');
    const replaced = (await infer({ 'x-request-id': 'a b <script>' })).headers.get('x-request-id');
    assert.match(replaced ?? '', /^[0-9a-f-]{36}$/);
    assert.match((await infer()).headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  test('GET /v2/logging answers Triton keys; POST moves logs to a file and the access log has ids and stage timings', async () => {
    const get = await request(`${server.httpUrl}/v2/logging`);
    assert.equal(get.status, 200);
    assert.deepEqual(get.json(), { log_file: '', log_info: false, log_warning: true, log_error: true, log_verbose_level: 0, log_format: 'default' });

    const post = await postJson(`${server.httpUrl}/v2/logging`, { log_file: logFile, log_info: true });
    assert.equal(post.status, 200);
    assert.deepEqual(post.json(), {
      log_file: logFile,
      log_info: true,
      log_warning: true,
      log_error: true,
      log_verbose_level: 0,
      log_format: 'default',
    });

    assert.equal((await infer({ 'x-request-id': 'access-1', traceparent: `00-${TRACE}-${PARENT}-01` })).status, 200);
    const line = (await logLines()).find((l) => l.msg === 'request' && l['requestId'] === 'access-1');
    assert.ok(line !== undefined, 'access log line');
    assert.equal(line['traceId'], TRACE);
    assert.equal(line['parentSpanId'], PARENT);
    assert.equal(line['status'], 200);
    assert.equal(line['route'], '/v2/models/:model/infer');
    assert.equal(line['model'], 'mlp');
    assert.equal(line['version'], '1');
    assert.equal(line['batchSize'], 1);
    for (const k of ['totalUs', 'decodeUs', 'validateUs', 'schedulerUs', 'encodeUs']) assert.equal(typeof line[k], 'number', k);
    assert.ok((line['totalUs'] as number) >= (line['schedulerUs'] as number));
  });

  test('verbose level 1 adds the core inference line (debug) with the same ids; warn-only drops the access log', async () => {
    await postJson(`${server.httpUrl}/v2/logging`, { log_file: logFile, log_verbose_level: 1 });
    assert.equal((await infer({ 'x-request-id': 'debug-1', traceparent: `00-${TRACE}-${PARENT}-01` })).status, 200);
    const core = (await logLines()).find((l) => l.msg === 'inference' && l['requestId'] === 'debug-1');
    assert.ok(core !== undefined, 'core inference line');
    assert.equal(core['traceId'], TRACE);
    assert.equal(core['outcome'], 'success');
    assert.equal(typeof core['schedulerUs'], 'number');

    const warnOnly = await postJson(`${server.httpUrl}/v2/logging`, { log_verbose_level: 0, log_info: false });
    assert.equal((warnOnly.json() as { log_info: boolean }).log_info, false);
    assert.equal((await infer({ 'x-request-id': 'quiet-1' })).status, 200);
    assert.equal(
      (await logLines()).some((l) => l['requestId'] === 'quiet-1'),
      false,
    );
  });

  test('gRPC (unary and streams), WebSocket and the image route hand the core the same edge context, tracing off', async () => {
    await postJson(`${server.httpUrl}/v2/logging`, { log_file: logFile, log_verbose_level: 1 });
    assert.ok(server.grpcAddress !== undefined);
    const grpcClient = inferenceClient(server.grpcAddress);
    const ws = await TestWs.open(server.httpUrl);
    try {
      const traceparent = `00-${TRACE}-${PARENT}-01`;
      const mlp = (id: string) => ({
        model_name: 'mlp',
        id,
        inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], contents: { fp32_contents: new Array<number>(64).fill(1) } }],
      });
      const metadata = (requestId?: string): grpc.Metadata => {
        const m = new grpc.Metadata();
        m.set('traceparent', traceparent);
        if (requestId !== undefined) m.set('x-request-id', requestId);
        return m;
      };
      await unary(grpcClient, 'ModelInfer', mlp('u'), {}, metadata('grpc-unary-1'));
      // A stream's messages are requests of their own: each is named by its id.
      const answers = await streamAll(grpcClient, [mlp('grpc-stream-1'), mlp('grpc-stream-2')], metadata());
      assert.deepEqual(
        answers.map((a) => a.error_message),
        ['', ''],
      );
      ws.send(simpleInfer('ws-1', 0, { traceparent }));
      assert.equal((await ws.terminal('ws-1')).type, 'result');
      const png = await digitPng(heldOutDigits().images[0] ?? '');
      const image = await fetch(`${server.httpUrl}/v2/models/digits/image`, {
        method: 'POST',
        headers: { 'content-type': 'image/png', 'x-request-id': 'image-1', traceparent },
        body: png,
      });
      assert.equal(image.status, 200);
      await image.arrayBuffer();

      const lines = (await logLines()).filter((l) => l.msg === 'inference');
      for (const [requestId, protocol] of [
        ['grpc-unary-1', 'grpc'],
        ['grpc-stream-1', 'grpc'],
        ['grpc-stream-2', 'grpc'],
        ['ws-1', 'ws'],
        ['image-1', 'http'],
      ] as const) {
        const line = lines.find((l) => l['requestId'] === requestId);
        assert.ok(line !== undefined, `core inference line of ${requestId}`);
        assert.equal(line['traceId'], TRACE, requestId);
        assert.equal(line['protocol'], protocol, requestId);
      }
    } finally {
      ws.close();
      grpcClient.close();
      await postJson(`${server.httpUrl}/v2/logging`, { log_verbose_level: 0 });
    }
  });

  test('requests the security hooks refuse (401) still carry the ids and are counted', async () => {
    const guarded = await startTestServer({ auth: { enabled: true, apiKeys: [{ id: 'k', sha256: 'a'.repeat(64), scopes: ['infer'] }] } });
    try {
      const r = await fetch(`${guarded.httpUrl}/v2/models/mlp/infer`, {
        method: 'POST',
        headers: { 'x-request-id': 'refused-1', traceparent: `00-${TRACE}-${PARENT}-01` },
        body: MLP_BODY,
      });
      assert.equal(r.status, 401);
      assert.equal(r.headers.get('x-request-id'), 'refused-1');
      assert.equal(r.headers.get('traceparent')?.slice(3, 35), TRACE);
      const m = parseSamples(await scrape(`${guarded.metricsUrl ?? ''}/metrics`));
      assert.equal(valueOf(m, 'rtserve_http_requests_total', { route: '/v2/models/:model/infer', code: '401' }), 1);
    } finally {
      await guarded.close();
    }
  });

  test('invalid settings are refused with 400 naming the key', async () => {
    for (const body of [{ log_verbose_level: -1 }, { log_infoo: true }, { log_format: 'xml' }]) {
      const r = await postJson(`${server.httpUrl}/v2/logging`, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match((r.json() as { error: string }).error, new RegExp(Object.keys(body)[0] ?? ''));
    }
    const notJson = await request(`${server.httpUrl}/v2/logging`, { method: 'POST', body: '{nope' });
    assert.equal(notJson.status, 400);
  });

  test('log_file outside the configured log directory is refused: .., absolute paths, symbolic links out', async () => {
    const { symlink } = await import('node:fs/promises');
    await symlink(tmpdir(), join(dir, 'out'));
    for (const file of ['../escaped.log', join(tmpdir(), 'escaped.log'), 'out/escaped.log', '/etc/rtserve-escaped']) {
      const r = await postJson(`${server.httpUrl}/v2/logging`, { log_file: file, log_info: true });
      assert.equal(r.status, 403, file);
      assert.equal((r.json() as { code: string }).code, 'PERMISSION_DENIED');
      assert.match((r.json() as { error: string }).error, /outside the log directory/);
    }
    await assert.rejects(readFile(join(tmpdir(), 'escaped.log'), 'utf8'));
    // A relative name resolves inside the directory.
    const ok = await postJson(`${server.httpUrl}/v2/logging`, { log_file: 'relative.log' });
    assert.equal(ok.status, 200);
    assert.equal((ok.json() as { log_file: string }).log_file, join(dir, 'relative.log'));
    await postJson(`${server.httpUrl}/v2/logging`, { log_file: logFile });
  });
});

describe('/v2/logging on a server without a log directory (the default)', () => {
  let server: RunningServer;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-nologdir-'));
    server = await startServer({
      config: await loadServerConfig({ flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, exitTimeoutSecs: 10 } }),
      logger: createLogger('warn'),
    });
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("log_file cannot be changed over the network (Triton's UNSUPPORTED); no file is created; other settings change", async () => {
    const target = join(dir, 'created-by-a-client');
    const r = await postJson(`${server.httpUrl}/v2/logging`, { log_file: target, log_info: true });
    assert.equal(r.status, 501);
    const body = r.json() as { code: string; error: string };
    assert.equal(body.code, 'UNSUPPORTED');
    assert.match(body.error, /log file location can not be updated through network protocol/);
    await assert.rejects(readFile(target), 'the file was not created');
    // The refused request changed nothing, and the other settings stay changeable.
    assert.equal(((await request(`${server.httpUrl}/v2/logging`)).json() as { log_info: boolean }).log_info, false);
    const level = await postJson(`${server.httpUrl}/v2/logging`, { log_info: true, log_format: 'ISO8601' });
    assert.equal(level.status, 200);
    assert.deepEqual(level.json(), { log_file: '', log_info: true, log_warning: true, log_error: true, log_verbose_level: 0, log_format: 'ISO8601' });
    // Naming the current destination ('' = standard error) is no change, so it is accepted.
    assert.equal((await postJson(`${server.httpUrl}/v2/logging`, { log_file: '' })).status, 200);
  });
});

describe('/v2/logging needs the admin scope when auth is on', () => {
  const key = (k: string): string => createHash('sha256').update(k).digest('hex');
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({
      auth: {
        enabled: true,
        apiKeys: [
          { id: 'user', sha256: key('user-key'), scopes: ['infer', 'metadata', 'metrics', 'repository'] },
          { id: 'ops', sha256: key('admin-key'), scopes: ['admin'] },
        ],
      },
    });
  });
  after(async () => server?.close());

  test('no credentials: 401; every scope but admin: 403; admin: 200', async () => {
    const url = `${server.httpUrl}/v2/logging`;
    assert.equal((await request(url)).status, 401);
    assert.equal((await request(url, { method: 'POST', body: '{"log_info":true}' })).status, 401);
    const user = { authorization: 'Bearer user-key' };
    const denied = await request(url, { headers: user });
    assert.equal(denied.status, 403);
    assert.match((denied.json() as { error: string }).error, /'admin' scope/);
    assert.equal((await request(url, { method: 'POST', headers: user, body: '{"log_info":true}' })).status, 403);
    const admin = { authorization: 'Bearer admin-key' };
    assert.equal((await request(url, { headers: admin })).status, 200);
    assert.equal((await request(url, { method: 'POST', headers: admin, body: '{"log_verbose_level":0}' })).status, 200);
  });
});
