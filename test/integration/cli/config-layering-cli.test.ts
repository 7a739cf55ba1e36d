/**
 * Config layering through the real `rtserve serve` process (src/cli/serve-command.ts hands commander's flags,
 * process.env and --config to loadServerConfig): a flag that is not given must not hide the environment or the
 * file, the environment overrides the file, a flag overrides both. Observed from outside: which repository the
 * server serves (GET /v2/repository/index lists its one model). The per-key table is
 * test/unit/config/config-layering.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_FROM_SOURCES, startCli } from '../../helpers/cli.ts';
import { makeRepository } from '../../helpers/server.ts';

describe('rtserve serve: defaults < --config file < RTSERVE_* < flags', () => {
  const repos = {} as Record<'file' | 'env' | 'flag', { dir: string; cleanup: () => Promise<void> }>;
  let dir: string;
  let configFile: string;
  before(async () => {
    for (const layer of ['file', 'env', 'flag'] as const) repos[layer] = await makeRepository({ [`from_${layer}`]: { from: 'simple' } });
    dir = await mkdtemp(join(tmpdir(), 'rtserve-cli-config-'));
    configFile = join(dir, 'rtserve.yaml');
    await writeFile(
      configFile,
      `server:\n  modelRepository: [${JSON.stringify(repos.file.dir)}]\n  httpPort: 0\n  grpcPort: 0\n  metricsPort: 0\n  logLevel: silent\n`,
    );
  });
  after(async () => {
    for (const r of Object.values(repos)) await r.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  /** The models the CLI serves with these flags and RTSERVE_* variables (nothing else of the caller's RTSERVE_*). */
  async function servedModels(args: string[], env: Record<string, string>): Promise<string[]> {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RTSERVE_')));
    const cli = await startCli(CLI_FROM_SOURCES, ['--config', configFile, ...args], { env: { ...base, ...env } });
    try {
      const res = await fetch(`${cli.urls['http']}/v2/repository/index`, { method: 'POST' });
      assert.equal(res.status, 200);
      return ((await res.json()) as { name: string }[]).map((m) => m.name);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  }

  test('the file alone; the environment over the file; a flag over both', async () => {
    assert.deepEqual(await servedModels([], {}), ['from_file']);
    assert.deepEqual(await servedModels([], { RTSERVE_MODEL_REPOSITORY: repos.env.dir }), ['from_env']);
    assert.deepEqual(await servedModels(['--model-repository', repos.flag.dir], { RTSERVE_MODEL_REPOSITORY: repos.env.dir }), ['from_flag']);
  });
});
