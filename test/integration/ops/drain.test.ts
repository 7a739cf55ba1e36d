import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_FROM_SOURCES, repositoryArgs, startCli, type CliProcess } from '../../helpers/cli.ts';
import { makeRepository, postJson, slowMlpConfig } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf, waitFor } from './helpers.ts';

const BODY = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }] };

/** The real CLI from source (`node --import tsx src/cli/main.ts serve ...`). */
const startSources = (args: string[]): Promise<CliProcess> =>
  startCli(CLI_FROM_SOURCES, args, { env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' } });

describe('graceful drain of the real CLI on SIGTERM', () => {
  test('under load: not ready at once, new requests refused with 503, every accepted request answered, exit 0', async () => {
    const repo = await makeRepository({ slow: slowMlpConfig(3_000_000) });
    const { child, urls, exited, stderr } = await startSources(repositoryArgs(repo.dir, '--exit-timeout-secs', '30', '--strict-readiness'));
    const http = urls['http'] ?? '';
    const metrics = urls['metrics'] ?? '';
    try {
      // Load: 12 clients, each sending its next request as soon as the last is answered.
      const CLIENTS = 12;
      let phase: 'run' | 'hold' = 'run';
      const results: { status: number; code?: string }[] = [];
      const errors: string[] = [];
      let outstanding = 0;
      const client = async (): Promise<void> => {
        for (let i = 0; i < 200 && phase === 'run'; i++) {
          outstanding++;
          try {
            const r = await postJson(`${http}/v2/models/slow/infer`, BODY);
            results.push({ status: r.status });
          } catch (err) {
            errors.push(String(err));
          } finally {
            outstanding--;
          }
        }
      };
      const load = Array.from({ length: CLIENTS }, () => client());
      await waitFor('a first round of answers', () => (results.length >= CLIENTS ? true : undefined), 30_000);
      // Stop starting new requests, then wait until every outstanding one is queued in the server: those are the
      // in-flight requests the drain must finish.
      phase = 'hold';
      await waitFor(
        'all outstanding requests queued',
        async () => {
          const pending = valueOf(parseSamples(await scrape(metrics)), 'nv_inference_pending_request_count', { model: 'slow' });
          return outstanding > 0 && pending === outstanding ? true : undefined;
        },
        30_000,
      );
      // The queued batch waits 3 s for company: nothing is answered between here and the signal.
      const inFlight = outstanding;
      const answeredBefore = results.length;
      child.kill('SIGTERM');
      // Draining: not ready, and a new request is refused (503 SERVER_DRAINING, Retry-After), not queued.
      await waitFor('readiness to drop', async () => ((await fetch(`${http}/v2/health/ready`)).status === 400 ? true : undefined), 10_000, 20);
      const late = await postJson(`${http}/v2/models/slow/infer`, BODY);
      assert.equal(late.status, 503);
      assert.equal((late.json() as { code: string }).code, 'SERVER_DRAINING');
      assert.ok(late.headers.get('retry-after') !== null);

      await Promise.all(load);
      assert.equal(await exited, 0, stderr());
      assert.deepEqual(errors, [], 'no request failed at the network level');
      const afterSignal = results.slice(answeredBefore);
      assert.equal(afterSignal.length, inFlight, 'every in-flight request was answered');
      assert.deepEqual(
        afterSignal.filter((r) => r.status !== 200),
        [],
        'every in-flight request succeeded',
      );
      assert.deepEqual(
        results.filter((r) => r.status !== 200),
        [],
      );
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await repo.cleanup();
    }
  });

  test('past --exit-timeout-secs, queued requests are answered 503 SERVER_DRAINING and the process still exits 0', async () => {
    // Batches wait 60 s: nothing can finish within the 1 s exit timeout.
    const repo = await makeRepository({ stuck: slowMlpConfig(60_000_000) });
    const { child, urls, exited, stderr } = await startSources(repositoryArgs(repo.dir, '--exit-timeout-secs', '1'));
    const http = urls['http'] ?? '';
    try {
      const pending = [postJson(`${http}/v2/models/stuck/infer`, BODY), postJson(`${http}/v2/models/stuck/infer`, BODY)];
      await waitFor(
        'both queued',
        async () => {
          const p = valueOf(parseSamples(await scrape(urls['metrics'] ?? '')), 'nv_inference_pending_request_count', { model: 'stuck' });
          return p === 2 ? true : undefined;
        },
        30_000,
      );
      child.kill('SIGTERM');
      const answers = await Promise.all(pending);
      for (const a of answers) {
        assert.equal(a.status, 503);
        assert.equal((a.json() as { code: string }).code, 'SERVER_DRAINING');
      }
      assert.equal(await exited, 0, stderr());
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await repo.cleanup();
    }
  });
});
