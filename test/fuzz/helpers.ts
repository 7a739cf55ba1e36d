import assert from 'node:assert/strict';
import type { RunningServer } from '../../src/app/rtserve-server.ts';

/** Cases per property (FUZZ_RUNS overrides it: test/helpers/fuzz.ts): enough to find shallow crashes, bounded so each file runs in a few seconds. */
export const FUZZ_RUNS = 150;

/** The valid request the server must answer correctly after every bad one. */
export const A = Array.from({ length: 16 }, (_, i) => i * 3 - 7);
export const B = Array.from({ length: 16 }, (_, i) => 100 - i);
export function validSimpleJson(): Record<string, unknown> {
  return {
    id: 'ok',
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: [...A] },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: [...B] },
    ],
  };
}
export const EXPECTED_SUM = A.map((a, i) => a + B[i]!);

export interface HttpOutcome {
  status: number;
  body: Uint8Array;
  headers: Headers;
}

/** POST with a hard time limit: a hang fails the property (AbortSignal.timeout rejects the fetch). */
export async function post(url: string, body: Uint8Array<ArrayBuffer> | string, headers: Record<string, string> = {}): Promise<HttpOutcome> {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
}

/**
 * The invariant for a client-caused error: a 4xx whose body is `{"error": "<non-empty message>", "code": ...}`.
 * The one 5xx allowed is 501 UNSUPPORTED: asking for a feature the server does not implement (shared memory,
 * load/unload outside explicit mode) is a well-formed request, and 501 is what RFC 9110 §15.6.2 prescribes.
 */
export function assertClientError(o: HttpOutcome, what: string): void {
  const text = new TextDecoder().decode(o.body);
  const body = JSON.parse(text) as { error?: unknown; code?: unknown };
  const unsupported = o.status === 501 && body.code === 'UNSUPPORTED';
  assert.ok((o.status >= 400 && o.status < 500) || unsupported, `${what}: expected a 4xx, got ${o.status}: ${text.slice(0, 300)}`);
  assert.notEqual(o.status, 429, `${what}: overload is not a client error here`);
  assert.ok(typeof body.error === 'string' && body.error.length > 0, `${what}: no error message in ${text.slice(0, 300)}`);
  assert.ok(typeof body.code === 'string', `${what}: no error code`);
  assert.doesNotMatch(body.error, /\n\s+at /, `${what}: a stack trace leaked`);
}

/** The server answers a valid request correctly (right after a bad one). */
export async function assertStillServes(server: RunningServer): Promise<void> {
  const o = await post(`${server.httpUrl}/v2/models/simple/infer`, JSON.stringify(validSimpleJson()));
  assert.equal(o.status, 200, new TextDecoder().decode(o.body));
  const out = (JSON.parse(new TextDecoder().decode(o.body)) as { outputs: { name: string; data: number[] }[] }).outputs.find(
    (t) => t.name === 'OUTPUT0',
  );
  assert.deepEqual(out?.data, EXPECTED_SUM);
}

/** Nothing is left in flight or queued once every request has been answered (no leaked slots). */
export function assertNoLeaks(server: RunningServer): void {
  assert.equal(server.core.inFlightCount, 0, 'requests still in flight after all were answered');
}
