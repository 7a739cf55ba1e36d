import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { CLI_FROM_BIN, startCli } from '../../helpers/cli.ts';
import { packageRoot } from '../../../src/util/package-root.ts';

const PORTS = ['--http-port', '0', '--grpc-port', '0', '--metrics-port', '0'];
const built = existsSync(`${packageRoot()}/dist/src/cli/main.js`);

/** The environment without the caller's own RTSERVE_* settings. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RTSERVE_')));
  return { ...env, RTSERVE_LOG_LEVEL: 'warn', ...extra };
}

/** Runs `rtserve serve` expecting it to refuse its configuration; resolves with its exit code and stderr. */
async function refused(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [...CLI_FROM_BIN, 'serve', ...PORTS], { cwd: packageRoot(), env: cleanEnv(env) });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', () => child.kill('SIGKILL'));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

describe('rtserve serve under a Kubernetes-style environment (the installed CLI)', {
  skip: built ? false : 'dist/ not built (npm ci builds it)',
}, () => {
  test("a Service's injected RTSERVE_* names are warned about and ignored; RTSERVE_CUDA_ADDON, a JSON RTSERVE_AUTH and the hardening flags work", async () => {
    const sha256 = createHash('sha256').update('k8s-key').digest('hex');
    // Triton's flag form, and a restricted API, from the command line alongside.
    const { child, urls, exited, stderr } = await startCli(CLI_FROM_BIN, [...PORTS, '--allow-client-shm=true', '--disable-api', 'demo,logging'], {
      env: cleanEnv({
        // What Kubernetes injects into every pod of a namespace with a Service named "rtserve".
        RTSERVE_PORT: 'tcp://10.0.0.1:8000',
        RTSERVE_SERVICE_HOST: '10.0.0.1',
        RTSERVE_SERVICE_PORT: '8000',
        RTSERVE_PORT_8000_TCP: 'tcp://10.0.0.1:8000',
        RTSERVE_PORT_8000_TCP_ADDR: '10.0.0.1',
        RTSERVE_PORT_8000_TCP_PORT: '8000',
        RTSERVE_PORT_8000_TCP_PROTO: 'tcp',
        // Documented in docs/cuda-engine.md: where the native addon is (absent here: the server falls back).
        RTSERVE_CUDA_ADDON: '/nonexistent/rtcuda.node',
        RTSERVE_AUTH: JSON.stringify({ enabled: true, apiKeys: [{ id: 'k8s', sha256, scopes: ['infer', 'metadata'] }] }),
        RTSERVE_AUTH_ENABLED: 'true',
      }),
      timeoutMs: 60_000,
    });
    try {
      const http = urls['http'] ?? '';
      assert.equal((await fetch(`${http}/v2/health/ready`)).status, 200);
      // RTSERVE_AUTH took effect: no key 401, the key 200.
      assert.equal((await fetch(`${http}/v2/models/mlp`)).status, 401);
      assert.equal((await fetch(`${http}/v2/models/mlp`, { headers: { authorization: 'Bearer k8s-key' } })).status, 200);
      const auth = { headers: { authorization: 'Bearer k8s-key' } };
      const meta = (await (await fetch(`${http}/v2`, auth)).json()) as { extensions: string[] };
      assert.ok(meta.extensions.includes('system_shared_memory'), '--allow-client-shm=true turned client shared memory on');
      assert.equal((await fetch(`${http}/`)).status, 404, '--disable-api demo');
      const warning = stderr()
        .split('\n')
        .find((l) => l.includes('ignoring environment variables'));
      assert.ok(warning !== undefined, stderr());
      for (const name of ['RTSERVE_PORT', 'RTSERVE_SERVICE_HOST', 'RTSERVE_PORT_8000_TCP_ADDR'])
        assert.ok(warning.includes(name), `${name} in ${warning}`);
      assert.ok(!warning.includes('RTSERVE_CUDA_ADDON'), warning);
      // A variable meant for a field of a JSON section says how to set the section.
      assert.match(warning, /RTSERVE_AUTH_ENABLED \(the auth section is set as one JSON object: RTSERVE_AUTH=/);
      assert.equal(JSON.parse(warning).level, 'warn', 'logged at warn level, by name');
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('a bad value is refused naming its variable: JSON sections and plain keys', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ RTSERVE_AUTH: '{enabled: true}' }, /environment variable RTSERVE_AUTH must hold the auth section as a JSON object/],
      [{ RTSERVE_RATE_LIMIT: '[1, 2]' }, /environment variable RTSERVE_RATE_LIMIT must hold the rateLimit section as a JSON object, got an array/],
      [{ RTSERVE_AUTH: '{"enabled": true, "apiKey": []}' }, /environment variable RTSERVE_AUTH: .*apiKey.*apiKeys/],
      [{ RTSERVE_HTTP_PORT: 'eighty' }, /environment variable RTSERVE_HTTP_PORT: .*httpPort/],
    ];
    for (const [env, message] of cases) {
      const r = await refused(env);
      assert.equal(r.code, 2, `${JSON.stringify(env)}: ${r.stderr}`);
      assert.match(r.stderr, /BAD_CONFIG/);
      assert.match(r.stderr, message);
    }
  });
});
