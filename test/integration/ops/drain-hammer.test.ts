/**
 * The drain ends when the work does (issue 37): after SIGTERM, clients that ignore 503 and keep opening connections
 * do not keep the real `rtserve serve` process up. It exits drainQuietMs after the last admitted request finished,
 * far inside its exit timeout, with every request admitted before the signal answered 200, and the resets at the
 * listener's close counted in a log line. Before, every connection restarted the quiet period, so 32 such clients
 * held the server for the whole exit timeout.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, test } from 'node:test';
import { CLI_FROM_SOURCES, repositoryArgs, startCli } from '../../helpers/cli.ts';
import { startRestLoad } from '../../helpers/drain-load.ts';
import { makeRepository, slowMlpConfig } from '../../helpers/server.ts';
import { waitFor } from './helpers.ts';

const BODY = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }] };
const EXIT_TIMEOUT_SECS = 60;

/** A client that ignores every answer: a new connection per request, one after another, until `stopped()`. */
async function hammer(url: URL, body: Buffer, stopped: () => boolean, counts: { sent: number; failed: number }): Promise<void> {
  while (!stopped()) {
    counts.sent++;
    const ok = await new Promise<boolean>((resolve) => {
      const req = httpRequest(
        url,
        { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(true));
          res.on('error', () => resolve(false));
        },
      );
      req.on('error', () => resolve(false));
      req.end(body);
    });
    if (!ok) counts.failed++;
  }
}

describe('SIGTERM with clients that keep connecting', () => {
  test('the process exits drainQuietMs after the admitted work, not at the exit timeout; admitted requests answered', async () => {
    // Partial batches wait 50 ms: requests are in flight when the signal comes.
    const repo = await makeRepository({ slow: slowMlpConfig(50_000) });
    const { child, urls, exited, stderr } = await startCli(
      CLI_FROM_SOURCES,
      repositoryArgs(repo.dir, '--exit-timeout-secs', String(EXIT_TIMEOUT_SECS)),
      {
        env: { ...process.env, RTSERVE_LOG_LEVEL: 'info' },
      },
    );
    let exitedAt: number | undefined;
    void exited.then(() => (exitedAt = Date.now()));
    const url = `${urls['http'] ?? ''}/v2/models/slow/infer`;
    try {
      // Well-behaved clients (they stop at their 503) whose requests are admitted before the signal.
      const admitted = startRestLoad(url, BODY, 8, 'keep-alive');
      await waitFor('answers before the signal', () => (admitted.tally.ok >= 50 ? true : undefined), 60_000);
      const counts = { sent: 0, failed: 0 };
      const hammers = Array.from({ length: 32 }, () => hammer(new URL(url), Buffer.from(JSON.stringify(BODY)), () => exitedAt !== undefined, counts));
      admitted.markSignal();
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr());
      await Promise.all(hammers);
      await admitted.done;
      const t = admitted.tally;
      const tookMs = (exitedAt ?? Date.now()) - signalledAt;
      process.stdout.write(
        `# exited ${tookMs} ms after SIGTERM; hammer requests ${counts.sent}, failed ${counts.failed}; admitted ${JSON.stringify(t)}\n`,
      );
      // Generous: the drain itself is drainQuietMs (1 s) after the last admitted request; the old one lasted the
      // whole exit timeout under these clients.
      assert.ok(tookMs < (EXIT_TIMEOUT_SECS * 1000) / 2, `exited ${tookMs} ms after SIGTERM (exit timeout ${EXIT_TIMEOUT_SECS} s)`);
      assert.deepEqual(t.lostErrors, [], JSON.stringify(t));
      assert.equal(t.lost, 0, 'every request of the well-behaved clients was answered');
      assert.equal(t.otherStatus, 0, JSON.stringify(t));
      assert.ok(counts.sent > 32, 'the hammering clients kept connecting after the signal');
      const line = stderr()
        .split('\n')
        .map((l) => {
          try {
            return JSON.parse(l) as { msg?: string; acceptQueue?: number; open?: number };
          } catch {
            return {};
          }
        })
        .find((l) => l.msg?.startsWith('drain: REST port closed') === true);
      assert.ok(line !== undefined, `the drain's log line: ${stderr()}`);
      process.stdout.write(`# drain log: ${JSON.stringify(line)}\n`);
      assert.equal(typeof line.open, 'number');
      assert.equal(typeof line.acceptQueue, 'number', 'the accept queue is read from /proc/net/tcp on Linux');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await repo.cleanup();
    }
  });
});
