import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { extractWsCredentials } from '../../../../src/transport/ws/ws-auth.ts';

const req = (headers: Record<string, string>, url = '/v2/ws'): IncomingMessage => ({ headers, url }) as unknown as IncomingMessage;

describe('extractWsCredentials', () => {
  test('Authorization: Bearer wins over a subprotocol token', () => {
    const c = extractWsCredentials(req({ authorization: 'Bearer abc.def', 'sec-websocket-protocol': 'rtserve.v1, rtserve.bearer.other' }));
    assert.deepEqual(c, { token: 'abc.def', source: 'authorization-header', protocols: ['rtserve.v1'] });
  });

  test('a browser token rides in a subprotocol entry, which never shows up among the protocols', () => {
    const c = extractWsCredentials(req({ 'sec-websocket-protocol': 'rtserve.v1,rtserve.bearer.tok123' }));
    assert.deepEqual(c, { token: 'tok123', source: 'subprotocol', protocols: ['rtserve.v1'] });
  });

  test('tickets come from a subprotocol entry or ?ticket=', () => {
    assert.deepEqual(extractWsCredentials(req({ 'sec-websocket-protocol': 'rtserve.v1, rtserve.ticket.T1' })), {
      source: 'none',
      protocols: ['rtserve.v1'],
      ticket: 'T1',
    });
    assert.deepEqual(extractWsCredentials(req({}, '/v2/ws?ticket=T2')), { source: 'none', protocols: [], ticket: 'T2' });
  });

  test('no credentials; other schemes and empty entries are not tokens', () => {
    assert.deepEqual(extractWsCredentials(req({})), { source: 'none', protocols: [] });
    assert.deepEqual(extractWsCredentials(req({ authorization: 'Basic dXNlcg==', 'sec-websocket-protocol': 'rtserve.bearer.' })), {
      source: 'none',
      protocols: [],
    });
  });
});
