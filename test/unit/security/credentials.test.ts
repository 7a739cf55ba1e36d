import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Metadata } from '@grpc/grpc-js';
import { credentialsFromGrpcMetadata, credentialsFromWsUpgrade, ipFromGrpcPeer, isCredentialProtocol } from '../../../src/security/credentials.ts';
import { operationOfRoute } from '../../../src/security/http-guard.ts';

function upgrade(headers: Record<string, string>, url = '/v2/ws'): IncomingMessage {
  return { headers, url } as unknown as IncomingMessage;
}

test('WebSocket upgrade credentials: Authorization, then subprotocol bearer or ticket, then ?ticket=', () => {
  assert.deepEqual(credentialsFromWsUpgrade(upgrade({ authorization: 'Bearer k' })), { authorization: 'Bearer k' });
  assert.deepEqual(credentialsFromWsUpgrade(upgrade({ 'sec-websocket-protocol': 'rtserve.v1, rtserve.bearer.abc.def' })), { bearer: 'abc.def' });
  assert.deepEqual(credentialsFromWsUpgrade(upgrade({ 'sec-websocket-protocol': 'rtserve.ticket.T1,rtserve.v1' })), { ticket: 'T1' });
  assert.deepEqual(credentialsFromWsUpgrade(upgrade({}, '/v2/ws?x=1&ticket=T2')), { ticket: 'T2' });
  assert.deepEqual(credentialsFromWsUpgrade(upgrade({}, '/v2/ws')), {});
  assert.ok(isCredentialProtocol('rtserve.bearer.x') && isCredentialProtocol('rtserve.ticket.x') && !isCredentialProtocol('rtserve.v1'));
});

test('gRPC metadata and peer addresses', () => {
  const md = new Metadata();
  assert.deepEqual(credentialsFromGrpcMetadata(md), { authorization: undefined });
  md.set('authorization', 'Bearer abc');
  assert.deepEqual(credentialsFromGrpcMetadata(md), { authorization: 'Bearer abc' });
  assert.equal(ipFromGrpcPeer('ipv4:127.0.0.1:5000'), '127.0.0.1');
  assert.equal(ipFromGrpcPeer('ipv6:[::1]:5000'), '::1');
  assert.equal(ipFromGrpcPeer('127.0.0.1:80'), '127.0.0.1');
  assert.equal(ipFromGrpcPeer('unix:/tmp/x'), undefined);
});

test('REST routes map to operations', () => {
  const cases: [string | undefined, string][] = [
    ['/v2/health/live', 'health'],
    ['/readyz', 'health'],
    ['/v2', 'metadata'],
    ['/v2/models/:model', 'metadata'],
    ['/v2/models/:model/versions/:version/config', 'metadata'],
    ['/v2/models/:model/stats', 'metrics'],
    ['/v2/models/stats', 'metrics'],
    ['/metrics', 'metrics'],
    ['/v2/repository/index', 'repository'],
    ['/v2/repository/models/:model/load', 'repository'],
    ['/v2/models/:model/infer', 'infer'],
    ['/v2/models/:model/versions/:version/infer', 'infer'],
    ['/v2/models/:model/generate_stream', 'infer'],
    ['/v1/chat/completions', 'infer'],
    ['/v2/auth/ws-ticket', 'any'],
    ['/openapi.json', 'public'],
    ['/docs', 'public'],
    ['/docs/:asset', 'public'],
    ['/', 'public'],
    ['/demo/app.js', 'public'],
    ['/v1/models', 'metadata'],
    ['/v2/models/:model/image', 'infer'],
    // Shared memory regions carry inference inputs and outputs.
    ['/v2/systemsharedmemory/status', 'infer'],
    ['/v2/systemsharedmemory/region/:region/status', 'infer'],
    ['/v2/systemsharedmemory/region/:region/register', 'infer'],
    ['/v2/systemsharedmemory/unregister', 'infer'],
    ['/v2/cudasharedmemory/region/:region/register', 'infer'],
    [undefined, 'metadata'],
  ];
  for (const [url, op] of cases) assert.equal(operationOfRoute(url), op, String(url));
});
