/**
 * SIGTERM to `rtserve serve --workers 2` (the real CLI, docs/workers.md): requests in flight through both workers
 * are all answered, new ones are refused SERVER_DRAINING, and the owner and both workers exit 0.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_FROM_SOURCES, startCli } from '../../helpers/cli.ts';
import { makeRepository, slowMlpConfig } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf, waitFor } from '../ops/helpers.ts';

const BODY = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }] });

describe('graceful drain with front-end workers', () => {
  test('every request in flight through either worker is answered; the server exits 0', async () => {
    // A batch waits 3 s for company: the requests are certainly queued in the owner when the signal comes.
    const repo = await makeRepository({ slow: slowMlpConfig(3_000_000) });
    const { child, urls, exited, stderr } = await startCli(
      CLI_FROM_SOURCES,
      ['--model-repository', repo.dir, '--http-port', '0', '--grpc-port', '0', '--metrics-port', '0', '--exit-timeout-secs', '30', '--workers', '2'],
      { env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' } },
    );
    const http = urls['http'] ?? '';
    const metrics = urls['metrics'] ?? '';
    try {
      // Six requests, each on its own connection: node:cluster spreads them over both workers.
      const N = 6;
      const answers = Array.from({ length: N }, () =>
        fetch(`${http}/v2/models/slow/infer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', connection: 'close' },
          body: BODY,
        }).then(
          async (r) => ({ status: r.status, body: await r.text() }),
          (err: unknown) => ({ status: -1, body: String(err) }),
        ),
      );
      await waitFor(
        'every request queued in the owner',
        async () => (valueOf(parseSamples(await scrape(metrics)), 'nv_inference_pending_request_count', { model: 'slow' }) === N ? true : undefined),
        30_000,
      );
      child.kill('SIGTERM');
      await waitFor(
        'readiness to drop',
        async () => ((await fetch(`${http}/v2/health/ready`, { headers: { connection: 'close' } })).status !== 200 ? true : undefined),
        10_000,
        20,
      );
      const late = await fetch(`${http}/v2/models/slow/infer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
      assert.equal(late.status, 503);
      assert.equal(((await late.json()) as { code: string }).code, 'SERVER_DRAINING');
      const results = await Promise.all(answers);
      assert.deepEqual(
        results.map((r) => r.status),
        new Array<number>(N).fill(200),
        JSON.stringify(results),
      );
      assert.equal(await exited, 0, stderr());
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await repo.cleanup();
    }
  });
});
