import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Metadata } from '@grpc/grpc-js';
import { credentialsFromGrpcMetadata, credentialsFromWsUpgrade, ipFromGrpcPeer, isCredentialProtocol } from '../../../src/security/credentials.ts';

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
