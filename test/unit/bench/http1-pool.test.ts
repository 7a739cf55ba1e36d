import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { encodeHttp1Post, Http1Error, Http1Pool } from '../../../src/bench/clients/http1-pool.ts';

/** A real node:http server whose answer depends on the request path; counts the connections it accepted. */
async function startServer(): Promise<{ server: Server; port: number; connections: () => number; sockets: Set<Socket> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const echo = JSON.stringify({
        method: req.method,
        url: req.url,
        length: body.byteLength,
        type: req.headers['content-type'],
        extra: req.headers['x-extra'],
        first: body[0],
      });
      switch (req.url) {
        case '/length':
          res.writeHead(200, { 'content-type': 'application/json', 'inference-header-content-length': '7' }).end(echo);
          return;
        case '/chunked':
          // No Content-Length: node sends the body with chunked transfer coding.
          res.writeHead(201, { 'content-type': 'text/plain' });
          res.write('one,');
          setTimeout(() => res.end('two'), 5);
          return;
        case '/close':
          // HTTP/1.1 without a length and with Connection: close: the body ends with the connection.
          res.useChunkedEncodingByDefault = false;
          res.shouldKeepAlive = false;
          res.writeHead(200, { connection: 'close' });
          res.write('until ');
          setTimeout(() => res.end('the end'), 5);
          return;
        case '/empty':
          res.writeHead(204).end();
          return;
        case '/processing':
          res.writeProcessing();
          res.writeHead(200, { 'content-length': '2' }).end('ok');
          return;
        case '/never':
          return;
        default:
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such path"}');
      }
    });
  });
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections, sockets };
}

const post = (path: string, body: Uint8Array = Buffer.from('hello')): Buffer =>
  encodeHttp1Post('127.0.0.1', path, { 'content-type': 'application/octet-stream', 'x-extra': 'yes' }, body);

describe('Http1Pool (the net REST load client)', () => {
  let s: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    s = await startServer();
  });
  after(async () => {
    s.server.closeAllConnections();
    await new Promise<void>((resolve) => s.server.close(() => resolve()));
  });

  test('sends the head and body as written and reads a Content-Length response; headers by lowercase name', async () => {
    const pool = new Http1Pool('127.0.0.1', s.port, 1);
    try {
      const body = Buffer.alloc(100_000, 7);
      const r = await pool.request(post('/length', body));
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('inference-header-content-length'), '7');
      assert.deepEqual(JSON.parse(r.body.toString()), {
        method: 'POST',
        url: '/length',
        length: 100_000,
        type: 'application/octet-stream',
        extra: 'yes',
        first: 7,
      });
    } finally {
      pool.close();
    }
  });

  test('keeps connections alive: sequential requests share one connection, concurrent ones get one each up to the limit', async () => {
    const pool = new Http1Pool('127.0.0.1', s.port, 3);
    const before = s.connections();
    try {
      for (let i = 0; i < 5; i++) assert.equal((await pool.request(post('/length'))).status, 200);
      assert.equal(s.connections() - before, 1);
      // Ten at once with at most three connections: the rest wait for a free one.
      const all = await Promise.all(Array.from({ length: 10 }, () => pool.request(post('/length'))));
      assert.ok(all.every((r) => r.status === 200));
      assert.equal(s.connections() - before, 3);
    } finally {
      pool.close();
    }
  });

  test('reads chunked bodies, bodies that end with the connection, 204 and interim 1xx responses', async () => {
    const pool = new Http1Pool('127.0.0.1', s.port, 1);
    try {
      const chunked = await pool.request(post('/chunked'));
      assert.equal(chunked.status, 201);
      assert.equal(chunked.body.toString(), 'one,two');
      const closed = await pool.request(post('/close'));
      assert.equal(closed.body.toString(), 'until the end');
      const empty = await pool.request(post('/empty'));
      assert.equal(empty.status, 204);
      assert.equal(empty.body.byteLength, 0);
      const processing = await pool.request(post('/processing'));
      assert.equal(processing.status, 200);
      assert.equal(processing.body.toString(), 'ok');
      // An error status is a response like any other (the load client reports it).
      const missing = await pool.request(post('/nope'));
      assert.equal(missing.status, 404);
      assert.equal(missing.body.toString(), '{"error":"no such path"}');
    } finally {
      pool.close();
    }
  });

  test('a server that does not answer in time fails the request with ETIMEDOUT; the pool goes on with a new connection', async () => {
    const pool = new Http1Pool('127.0.0.1', s.port, 1, 100);
    try {
      await assert.rejects(pool.request(post('/never')), (e: unknown) => e instanceof Http1Error && e.code === 'ETIMEDOUT');
      assert.equal((await pool.request(post('/length'))).status, 200);
    } finally {
      pool.close();
    }
  });

  test('a kept-alive connection the server closed is replaced; a closed server is ECONNREFUSED', async () => {
    const pool = new Http1Pool('127.0.0.1', s.port, 1);
    try {
      assert.equal((await pool.request(post('/length'))).status, 200);
      assert.equal(pool.idleConnections, 1);
      for (const socket of s.sockets) socket.destroy();
      // Until the pool has seen the close, the next request could still be written to the dying connection.
      while (pool.idleConnections > 0) await new Promise((r) => setImmediate(r));
      assert.equal((await pool.request(post('/length'))).status, 200);
    } finally {
      pool.close();
    }
    const gone = await startServer();
    const port = gone.port;
    await new Promise<void>((resolve) => gone.server.close(() => resolve()));
    const refused = new Http1Pool('127.0.0.1', port, 1);
    await assert.rejects(refused.request(post('/length')), (e: unknown) => e instanceof Http1Error && e.code === 'ECONNREFUSED');
    refused.close();
  });

  test('close() fails requests still waiting and later ones', async () => {
    const pool = new Http1Pool('127.0.0.1', s.port, 1);
    const first = assert.rejects(pool.request(post('/never')), Http1Error);
    const waiting = assert.rejects(pool.request(post('/length')), Http1Error);
    pool.close();
    await first;
    await waiting;
    await assert.rejects(pool.request(post('/length')), Http1Error);
  });

  test('refuses a header value with a line break', () => {
    assert.throws(() => encodeHttp1Post('h', '/p', { 'x-bad': 'a\r\nInjected: 1' }, new Uint8Array(0)), /line breaks/);
  });
});
