/**
 * The smoke test `.ci/run` also runs on the oldest Node line `engines` allows (the suite itself runs once, on the
 * current LTS): `npx rtserve serve` in this checkout, as a user starts it after `npm ci`, loads every bundled model,
 * answers `simple` and stops on SIGTERM with exit code 0. It needs the built dist/ (npm ci's `prepare` builds it).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { packageRoot } from '../../src/util/package-root.ts';
import { groupAlive, startCli } from '../helpers/cli.ts';
import { until } from '../helpers/until.ts';

const root = packageRoot();

describe(`npx rtserve serve on Node ${process.versions.node}`, {
  skip: existsSync(join(root, 'dist', 'src', 'cli', 'main.js')) ? false : 'dist/ not built (npm ci builds it)',
}, () => {
  test('loads the bundled models, answers simple, and exits 0 on SIGTERM', async () => {
    const server = await startCli(['--offline', '--no', 'rtserve'], ['--http-port', '0', '--grpc-port', '0', '--metrics-port', '0'], {
      command: 'npx',
      detached: true,
      env: { ...process.env, RTSERVE_LOG_LEVEL: 'info', npm_config_update_notifier: 'false' },
      timeoutMs: 90_000,
    });
    const pid = server.child.pid;
    assert.ok(pid !== undefined);
    try {
      const http = server.urls['http'] ?? '';
      const index = (await (await fetch(`${http}/v2/repository/index`, { method: 'POST' })).json()) as { name: string; state: string }[];
      assert.deepEqual(
        index.filter((m) => m.state !== 'READY'),
        [],
        'every bundled model is ready',
      );
      const body = JSON.stringify({
        inputs: ['INPUT0', 'INPUT1'].map((name) => ({
          name,
          shape: [1, 16],
          datatype: 'INT32',
          data: new Array(16).fill(name === 'INPUT0' ? 5 : 3),
        })),
      });
      const res = await fetch(`${http}/v2/models/simple/infer`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 200);
      const outputs = ((await res.json()) as { outputs: { name: string; data: number[] }[] }).outputs;
      assert.deepEqual(outputs.find((o) => o.name === 'OUTPUT0')?.data, new Array(16).fill(8));
      assert.deepEqual(outputs.find((o) => o.name === 'OUTPUT1')?.data, new Array(16).fill(2));
      // SIGTERM to the server (npx runs it under `sh -c`; its log lines carry its pid), as a process manager stops
      // it: it drains and exits 0, and npx exits with its code.
      const serverPid = Number(/"pid":(\d+)/.exec(server.stderr())?.[1]);
      assert.ok(serverPid > 0 && serverPid !== pid, `the server's pid in its log: ${server.stderr()}`);
      process.kill(serverPid, 'SIGTERM');
      assert.equal(await server.exited, 0, `exit code; stderr: ${server.stderr()}`);
      await until(() => !groupAlive(pid), 'no process of the group is left');
      assert.match(server.stderr(), /"signal":"SIGTERM","msg":"draining"/);
      assert.match(server.stderr(), /"msg":"stopped"/);
      assert.doesNotMatch(server.stderr(), /"level":50/, 'no error logged while stopping');
    } finally {
      if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
    }
  });
});
