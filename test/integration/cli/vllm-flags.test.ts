/**
 * A vLLM user's `rtserve serve` flags through the real CLI: `--port` is the HTTP port, `--api-key` (or
 * RTSERVE_API_KEY) requires that key, `--served-model-name` is refused saying why, and no flag is answered with a
 * did-you-mean to an unrelated one (`--port` used to suggest `--host`, `--api-key` `--tls-key`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_FROM_SOURCES, serveToExit, startCli, type CliProcess } from '../../helpers/cli.ts';
import { makeRepository } from '../../helpers/server.ts';

const failingServe = (args: readonly string[]) => serveToExit(CLI_FROM_SOURCES, args);

async function stop(p: CliProcess | undefined): Promise<void> {
  if (p === undefined) return;
  p.child.kill('SIGTERM');
  await p.exited;
}

let repo: { dir: string; cleanup: () => Promise<void> };
before(async () => {
  repo = await makeRepository({ simple: { from: 'simple' } });
});
after(async () => repo?.cleanup());

const otherPorts = ['--grpc-port', '0', '--metrics-port', '0', '--log-level', 'warn'];

describe("vLLM's serve flags", () => {
  let server: CliProcess | undefined;
  after(async () => stop(server));

  test('--port is the HTTP port and --api-key guards every call but health', async () => {
    server = await startCli(CLI_FROM_SOURCES, ['--model-repository', repo.dir, '--port', '0', ...otherPorts, '--api-key', 'sk-cli-key']);
    const http = server.urls['http'] as string;
    assert.match(http, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await fetch(`${http}/v2/health/ready`)).status, 200, 'health stays open');
    assert.equal((await fetch(`${http}/v2/models/simple`)).status, 401);
    assert.equal((await fetch(`${http}/v2/models/simple`, { headers: { authorization: 'Bearer sk-wrong' } })).status, 401);
    assert.equal((await fetch(`${http}/v2/models/simple`, { headers: { authorization: 'Bearer sk-cli-key' } })).status, 200);
    const repoIndex = await fetch(`${http}/v2/repository/index`, { method: 'POST', headers: { authorization: 'Bearer sk-cli-key' } });
    assert.equal(repoIndex.status, 200, 'the key may do everything, as vLLM’s does');
    const openai = await fetch(`${http}/v1/models`);
    assert.equal(openai.status, 401);
    assert.equal(((await openai.json()) as { error: { type: string } }).error.type, 'authentication_error');
  });

  test('RTSERVE_API_KEY is the same setting from the environment', async () => {
    const p = await startCli(CLI_FROM_SOURCES, ['--model-repository', repo.dir, '--http-port', '0', ...otherPorts], {
      env: { ...process.env, RTSERVE_API_KEY: 'sk-env-key' },
    });
    try {
      const http = p.urls['http'] as string;
      assert.equal((await fetch(`${http}/v2/models/simple`)).status, 401);
      assert.equal((await fetch(`${http}/v2/models/simple`, { headers: { authorization: 'Bearer sk-env-key' } })).status, 200);
      assert.doesNotMatch(p.stderr(), /ignoring environment variables/, 'RTSERVE_API_KEY is a setting, not an unknown name');
    } finally {
      await stop(p);
    }
  });

  test('--port with --http-port, and --served-model-name, are refused naming the reason; no unrelated did-you-mean', async () => {
    const both = await failingServe(['--model-repository', repo.dir, '--port', '0', '--http-port', '0']);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /give --port or --http-port, not both/);
    const named = await failingServe(['--model-repository', repo.dir, '--served-model-name', 'my-llm']);
    assert.equal(named.status, 2);
    assert.match(named.stderr, /--served-model-name 'my-llm': .*under its folder's name; name the folder \(or a symlink to it\) 'my-llm'/);
    for (const flag of ['--tensor-parallel-size', '--max-model-len', '--dtype']) {
      const r = await failingServe([flag, '2']);
      assert.notEqual(r.status, 0, flag);
      assert.match(r.stderr, new RegExp(`unknown option '${flag}'`));
      assert.doesNotMatch(r.stderr, /did you mean/i, flag);
    }
  });
});
