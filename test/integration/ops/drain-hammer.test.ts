/**
 * The drain ends when the work does (issue 37): after SIGTERM, clients that ignore 503 and keep opening connections
 * do not keep the real `rtserve serve` process up. It exits drainQuietMs after the last admitted request finished,
 * far inside its exit timeout, with every request admitted before the signal answered 200, and the resets at the
 * listener's close counted in a log line. Before, every connection restarted the quiet period, so 32 such clients
 * held the server for the whole exit timeout.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainLogLine, postOnce, startHammers, startRestLoad, startSlowCli } from '../../helpers/drain-load.ts';
import { waitFor } from './helpers.ts';

const BODY = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }] };
const EXIT_TIMEOUT_SECS = 60;

describe('SIGTERM with clients that keep connecting', () => {
  test('the process exits drainQuietMs after the admitted work, not at the exit timeout; admitted requests answered', async () => {
    const { child, urls, exited, stderr, exitedAt, cleanup } = await startSlowCli(EXIT_TIMEOUT_SECS);
    const url = `${urls['http'] ?? ''}/v2/models/slow/infer`;
    try {
      // Well-behaved clients (they stop at their 503) whose requests are admitted before the signal.
      const admitted = startRestLoad(url, BODY, 8, 'keep-alive');
      await waitFor('answers before the signal', () => (admitted.tally.ok >= 50 ? true : undefined), 60_000);
      const bytes = Buffer.from(JSON.stringify(BODY));
      const { counts, done: hammers } = startHammers(
        32,
        () => postOnce(new URL(url), bytes),
        () => exitedAt() !== undefined,
      );
      admitted.markSignal();
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr());
      await hammers;
      await admitted.done;
      const t = admitted.tally;
      const tookMs = (exitedAt() ?? Date.now()) - signalledAt;
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
      const line = drainLogLine(stderr());
      assert.ok(line !== undefined, `the drain's log line: ${stderr()}`);
      process.stdout.write(`# drain log: ${JSON.stringify(line)}\n`);
      assert.equal(typeof line.open, 'number');
      assert.equal(typeof line.acceptQueue, 'number', 'the accept queue is read from /proc/net/tcp on Linux');
    } finally {
      await cleanup();
    }
  });
});
