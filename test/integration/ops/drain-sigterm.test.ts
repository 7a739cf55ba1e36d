import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_FROM_SOURCES, startCli } from '../../helpers/cli.ts';
import { startRestLoad, type RestClientKind } from '../../helpers/drain-load.ts';
import { makeRepository, slowMlpConfig } from '../../helpers/server.ts';
import { waitFor } from './helpers.ts';

const BODY = { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array<number>(64).fill(0.5) }] };

/**
 * The real `rtserve serve` process under load, stopped with a real SIGTERM: every request that reached it is
 * answered (200 when admitted before the signal, else 503 SERVER_DRAINING with Retry-After and Connection: close),
 * none is reset, and the process exits 0.
 */
describe('SIGTERM under REST load loses nothing', () => {
  for (const kind of ['per-request', 'keep-alive'] as const satisfies readonly RestClientKind[]) {
    test(`${kind} clients: sent = answered, lost = 0`, async () => {
      // Partial batches wait 50 ms: there is always work in flight when the signal comes.
      const repo = await makeRepository({ slow: slowMlpConfig(50_000) });
      const { child, urls, exited, stderr } = await startCli(CLI_FROM_SOURCES, ['--model-repository', repo.dir, '--http-port', '0', '--grpc-port', '0', '--metrics-port', '0'], {
        env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' },
      });
      try {
        const load = startRestLoad(`${urls['http'] ?? ''}/v2/models/slow/infer`, BODY, 24, kind);
        await waitFor('some answers before the signal', () => (load.tally.ok >= 100 ? true : undefined), 60_000);
        load.markSignal();
        child.kill('SIGTERM');
        await load.done;
        const t = load.tally;
        assert.equal(await exited, 0, stderr());
        assert.deepEqual(t.lostErrors, [], `lost: ${JSON.stringify(t)}`);
        assert.equal(t.lost, 0);
        assert.equal(t.sent, t.answered);
        assert.equal(t.otherStatus, 0, JSON.stringify(t));
        assert.equal(t.badDraining, 0, 'every 503 carried Retry-After and Connection: close');
        // Each client ends on SERVER_DRAINING (or, arriving after the listener closed, on a refused connection).
        assert.equal(t.draining + t.refused, 24, JSON.stringify(t));
        assert.ok(t.draining > 0, JSON.stringify(t));
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        await repo.cleanup();
      }
    });
  }
});
