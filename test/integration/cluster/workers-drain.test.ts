/**
 * SIGTERM to `rtserve serve --workers 2` (the real CLI, docs/workers.md): requests in flight through both workers
 * are all answered, new ones are refused SERVER_DRAINING, and the owner and both workers exit 0; when the owner dies,
 * the workers leave with it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { CLI_FROM_SOURCES, startCli } from '../../helpers/cli.ts';
import { makeRepository, slowMlpConfig } from '../../helpers/server.ts';
import { parseSamples, scrape, valueOf, waitFor } from '../ops/helpers.ts';
import { until } from '../../helpers/until.ts';

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

  test('the owner killed: the workers leave at once and the port stops answering', async () => {
    const { child, urls } = await startCli(CLI_FROM_SOURCES, ['--http-port', '0', '--grpc-port', '0', '--metrics-port', '0', '--workers', '2'], {
      env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' },
    });
    const http = urls['http'] ?? '';
    const owner = child.pid;
    assert.ok(owner !== undefined);
    try {
      assert.equal((await fetch(`${http}/v2/health/ready`)).status, 200);
      const workers = (await readFile(`/proc/${owner}/task/${owner}/children`, 'utf8')).trim().split(/\s+/).map(Number);
      assert.equal(workers.length, 2);
      child.kill('SIGKILL');
      await until(() => workers.every((pid) => !alive(pid)), 'both workers to exit');
      await assert.rejects(fetch(`${http}/v2/health/live`));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

/** Whether `pid` is a running process (an exited one not yet reaped, a zombie, counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
