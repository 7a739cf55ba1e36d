import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';

test('unknown RTSERVE_* names are ignored with one warning; known ones apply; lists and JSON sections parse', async () => {
  const warnings: string[] = [];
  const config = await loadServerConfig({
    env: {
      RTSERVE_PORT: 'tcp://10.0.0.1:8000',
      RTSERVE_SERVICE_HOST: '10.0.0.1',
      RTSERVE_HTP_PORT: '9000',
      RTSERVE_HTTP_PORT: '9001',
      RTSERVE_PROVIDERS: 'webgpu, cpu',
      RTSERVE_DISABLED_APIS: 'logging,demo',
      RTSERVE_RATE_LIMIT: '{"enabled":true,"perIp":{"ratePerSec":5,"burst":10}}',
      RTSERVE_CUDA_ADDON: '/x/rtcuda.node',
      RTSERVE_NVML_ADDON: '/x/rtnvml.node',
      HOME: '/root',
    },
    warn: (m) => warnings.push(m),
  });
  assert.equal(config.httpPort, 9001);
  assert.deepEqual(config.providers, ['webgpu', 'cpu']);
  assert.deepEqual(config.disabledApis, ['logging', 'demo']);
  assert.equal(config.rateLimit.enabled, true);
  assert.deepEqual(config.rateLimit.perIp, { ratePerSec: 5, burst: 10 });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', /RTSERVE_PORT, RTSERVE_SERVICE_HOST, RTSERVE_HTP_PORT \(did you mean 'httpPort'\?\)/);
  assert.ok(!(warnings[0] ?? '').includes('CUDA_ADDON'));
  assert.ok(!(warnings[0] ?? '').includes('NVML_ADDON'));
});

test('files and flags stay strict: an unknown key is an error naming its source', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-cfg-'));
  try {
    await writeFile(join(dir, 'c.json'), JSON.stringify({ port: 8000 }));
    await assert.rejects(loadServerConfig({ file: join(dir, 'c.json') }), /config file .*c\.json: .*port/);
    await assert.rejects(loadServerConfig({ flags: { servicHost: 'x' } }), /command-line flags: .*servicHost/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("client shared memory is off unless allowed; the flag takes Triton's --allow-client-shm=true form", async () => {
  assert.equal((await loadServerConfig({})).allowClientShm, false);
  assert.equal((await loadServerConfig({ flags: { allowClientShm: 'true' } })).allowClientShm, true);
  assert.equal((await loadServerConfig({ flags: { allowClientShm: true } })).allowClientShm, true);
  assert.equal((await loadServerConfig({ env: { RTSERVE_ALLOW_CLIENT_SHM: '1' } })).allowClientShm, true);
  assert.equal((await loadServerConfig({ flags: { allowClientShm: 'false' } })).allowClientShm, false);
});
