import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLI_FROM_BIN, repositoryArgs, startCli, type CliProcess } from '../../helpers/cli.ts';
import { makeRepository, slowMlpConfig } from '../../helpers/server.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = CLI_FROM_BIN[0] as string;

/** The real CLI as `npx rtserve serve` runs it (bin/rtserve.js). */
const startBin = (args: string[]): Promise<CliProcess> =>
  startCli(CLI_FROM_BIN, args, { env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' }, timeoutMs: 60_000 });

describe('rtserve serve (the installed CLI)', {
  skip: existsSync(`${root}dist/src/cli/main.js`) ? false : 'dist/ not built (npm ci builds it)',
}, () => {
  test('serves the bundled models and prints its addresses on one line', async () => {
    const { child, urls, exited } = await startBin(['--http-port', '0', '--grpc-port', '0', '--metrics-port', '0']);
    try {
      const http = urls['http'];
      assert.ok(http !== undefined && /^http:\/\/127\.0\.0\.1:\d+$/.test(http), `http address in ${JSON.stringify(urls)}`);
      const idx = (await (await fetch(`${http}/v2/repository/index`, { method: 'POST' })).json()) as { name: string; state: string }[];
      const names = idx.map((m) => m.name);
      for (const m of ['identity_all', 'mlp', 'resnet_tiny', 'simple']) assert.ok(names.includes(m), `${m} in ${names.join(', ')}`);
      assert.ok(
        idx.every((m) => m.state === 'READY'),
        JSON.stringify(idx),
      );
      child.kill('SIGINT');
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('SIGTERM drains: every queued request is answered, then the process exits 0', async () => {
    // Partial batches are held for 1.5 s, so all requests are certainly received and queued when SIGTERM comes.
    const repo = await makeRepository({
      mlp_slow: slowMlpConfig(1_500_000),
    });
    const { child, urls, stderr, exited } = await startBin(repositoryArgs(repo.dir));
    try {
      const http = urls['http'] ?? '';
      const body = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array(64).fill(0.1) }] });
      const n = 24;
      const inflight = Array.from({ length: n }, () =>
        fetch(`${http}/v2/models/mlp_slow/infer`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then((r) => r.status),
      );
      const pending = async (): Promise<number> => {
        const text = await (await fetch(`${http}/metrics`)).text();
        return Number(/nv_inference_pending_request_count\{model="mlp_slow",version="1"\} (\d+)/.exec(text)?.[1] ?? -1);
      };
      for (let i = 0; i < 200 && (await pending()) < n; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(await pending(), n, 'all requests are queued before SIGTERM');
      child.kill('SIGTERM');
      const statuses = await Promise.all(inflight);
      assert.deepEqual(
        statuses,
        statuses.map(() => 200),
        `every queued request completed; stderr: ${stderr()}`,
      );
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await repo.cleanup();
    }
  });

  test('a bad flag value is refused with a message naming it', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http-port', 'eighty'], { cwd: root });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.notEqual(code, 0);
    assert.match(err, /httpPort/);
  });

  test('an unknown key in the config file gets a did-you-mean hint', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(`${tmpdir()}/rtserve-cfg-`);
    await writeFile(`${dir}/server.yaml`, 'httpPrt: 9000\n');
    const child = spawn(process.execPath, [bin, 'serve', '--config', `${dir}/server.yaml`], { cwd: root });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.notEqual(code, 0);
    assert.match(err, /httpPrt/);
    assert.match(err, /httpPort/);
  });
});
