/**
 * Server configuration layering, defaults < file < environment < flags (src/config/load-server-config.ts), as a
 * table: for each key, the value each layer gives (as that layer spells it: typed in a file, a string in the
 * environment, a string or list from commander) and the typed value it must become; every combination of layers
 * present must end with the highest one's value, or the default with none. Then what a file may hold (YAML or
 * JSON, a `server:` section, nested sections) and that a layer's bad value is refused naming that layer.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import type { ServerConfig } from '../../../src/config/server-config.ts';
import { RtError } from '../../../src/errors/registry.ts';

interface Layered {
  readonly key: keyof ServerConfig;
  readonly env: string;
  readonly default: unknown;
  /** [as the layer gives it, the typed value]; absent: the key has no such layer (no flag for it). */
  readonly file: readonly [unknown, unknown];
  readonly envValue: readonly [string, unknown];
  readonly flag?: readonly [unknown, unknown];
}

const TABLE: readonly Layered[] = [
  { key: 'httpPort', env: 'RTSERVE_HTTP_PORT', default: 8000, file: [9001, 9001], envValue: ['9002', 9002], flag: ['9003', 9003] },
  {
    key: 'host',
    env: 'RTSERVE_HOST',
    default: '127.0.0.1',
    file: ['0.0.0.0', '0.0.0.0'],
    envValue: ['::1', '::1'],
    flag: ['localhost', 'localhost'],
  },
  { key: 'logLevel', env: 'RTSERVE_LOG_LEVEL', default: 'info', file: ['warn', 'warn'], envValue: ['error', 'error'], flag: ['debug', 'debug'] },
  {
    key: 'modelRepository',
    env: 'RTSERVE_MODEL_REPOSITORY',
    default: [],
    file: [['/from/file'], ['/from/file']],
    envValue: ['/env/a, /env/b', ['/env/a', '/env/b']],
    flag: [['/from/flag'], ['/from/flag']],
  },
  {
    key: 'providers',
    env: 'RTSERVE_PROVIDERS',
    default: ['cpu'],
    file: [
      ['webgpu', 'cpu'],
      ['webgpu', 'cpu'],
    ],
    envValue: ['cuda,cpu', ['cuda', 'cpu']],
    flag: [
      ['tensorrt', 'cpu'],
      ['tensorrt', 'cpu'],
    ],
  },
  { key: 'strictReadiness', env: 'RTSERVE_STRICT_READINESS', default: true, file: [false, false], envValue: ['true', true], flag: [false, false] },
  { key: 'exitTimeoutSecs', env: 'RTSERVE_EXIT_TIMEOUT_SECS', default: 30, file: [5, 5], envValue: ['7', 7], flag: ['9', 9] },
  {
    key: 'modelControlMode',
    env: 'RTSERVE_MODEL_CONTROL_MODE',
    default: 'none',
    file: ['poll', 'poll'],
    envValue: ['explicit', 'explicit'],
    flag: ['none', 'none'],
  },
  {
    key: 'grpcKeepalivePermitWithoutCalls',
    env: 'RTSERVE_GRPC_KEEPALIVE_PERMIT_WITHOUT_CALLS',
    default: false,
    file: [true, true],
    envValue: ['false', false],
  },
  { key: 'maxBodyBytes', env: 'RTSERVE_MAX_BODY_BYTES', default: 64 * 1024 * 1024, file: [2048, 2048], envValue: ['4096', 4096] },
];

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rtserve-config-'));
});
after(() => rm(dir, { recursive: true, force: true }));

let files = 0;
async function writeConfig(content: string, ext = '.yaml'): Promise<string> {
  const path = join(dir, `config-${files++}${ext}`);
  await writeFile(path, content);
  return path;
}

const rejectsNaming = (p: Promise<unknown>, ...parts: RegExp[]) =>
  assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof RtError && e.code === 'BAD_CONFIG', String(e));
    for (const part of parts) assert.match(e.message, part);
    return true;
  });

describe('server config layering: defaults < file < environment < flags', () => {
  for (const row of TABLE) {
    test(`${row.key}: each combination of layers ends with the highest one's value`, async () => {
      const layers = ['file', 'env', 'flag'] as const;
      for (let mask = 0; mask < 8; mask++) {
        const has = (l: (typeof layers)[number]): boolean => (mask & (1 << layers.indexOf(l))) !== 0;
        if (has('flag') && row.flag === undefined) continue;
        let expected = row.default;
        const sources: { file?: string; env: Record<string, string>; flags: Record<string, unknown> } = { env: {}, flags: {} };
        if (has('file')) {
          sources.file = await writeConfig(JSON.stringify({ [row.key]: row.file[0] }), '.json');
          expected = row.file[1];
        }
        if (has('env')) {
          sources.env[row.env] = row.envValue[0];
          expected = row.envValue[1];
        }
        if (has('flag') && row.flag !== undefined) {
          sources.flags[row.key] = row.flag[0];
          expected = row.flag[1];
        }
        const config = await loadServerConfig(sources);
        assert.deepEqual(config[row.key], expected, `${row.key} with ${layers.filter(has).join(' + ') || 'defaults only'}`);
      }
    });
  }

  test('layers set different keys independently; a flag left undefined (not given) does not hide lower layers', async () => {
    const file = await writeConfig('httpPort: 9101\nlogLevel: warn\nexitTimeoutSecs: 4\n');
    const config = await loadServerConfig({
      file,
      env: { RTSERVE_LOG_LEVEL: 'error', RTSERVE_GRPC_PORT: '9102' },
      flags: { exitTimeoutSecs: '6', httpPort: undefined, logLevel: undefined },
    });
    assert.deepEqual([config.httpPort, config.grpcPort, config.logLevel, config.exitTimeoutSecs, config.metricsPort], [9101, 9102, 'error', 6, 8002]);
  });

  test('variables without the RTSERVE_ prefix and variables set to undefined are not configuration', async () => {
    const config = await loadServerConfig({ env: { HTTP_PORT: '1', PATH: '/bin', FUZZ_SEED: '3', RTSERVE_HTTP_PORT: undefined } });
    assert.equal(config.httpPort, 8000);
  });

  test('a file may be YAML or JSON, flat or under `server:`; an empty file is no settings; nested sections come through whole', async () => {
    const yaml = await writeConfig('server:\n  httpPort: 9201\n  rateLimit:\n    enabled: true\n    perIp: { ratePerSec: 2, burst: 5 }\n');
    const a = await loadServerConfig({ file: yaml });
    assert.equal(a.httpPort, 9201);
    assert.equal(a.rateLimit.enabled, true);
    assert.deepEqual(a.rateLimit.perIp, { ratePerSec: 2, burst: 5 });
    const json = await writeConfig(JSON.stringify({ httpPort: 9202, auth: { enabled: false } }), '.json');
    assert.equal((await loadServerConfig({ file: json })).httpPort, 9202);
    const empty = await writeConfig('');
    assert.equal((await loadServerConfig({ file: empty, env: { RTSERVE_HTTP_PORT: '9203' } })).httpPort, 9203);
  });

  test('the result is frozen, nested sections included', async () => {
    const config = await loadServerConfig({ env: { RTSERVE_MODEL_REPOSITORY: '/a' } });
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.modelRepository) && Object.isFrozen(config.rateLimit));
  });

  test('a bad value is refused naming its layer, even where a higher layer sets the key', async () => {
    const file = await writeConfig('httpPort: 70000\n');
    await rejectsNaming(loadServerConfig({ file, flags: { httpPort: '8080' } }), /config file .*config-\d+\.yaml/, /httpPort/);
    await rejectsNaming(
      loadServerConfig({ env: { RTSERVE_HTTP_PORT: 'eighty' }, flags: { httpPort: '8080' } }),
      /environment variable RTSERVE_HTTP_PORT/,
      /httpPort/,
    );
    await rejectsNaming(loadServerConfig({ flags: { logLevel: 'loud' } }), /command-line flags/, /logLevel/);
    await rejectsNaming(loadServerConfig({ file: await writeConfig('[1, 2]') }), /must hold an object/);
    await rejectsNaming(loadServerConfig({ file: await writeConfig('{"httpPort": ', '.json') }), /is not valid JSON/);
    await rejectsNaming(loadServerConfig({ file: join(dir, 'missing.yaml') }), /cannot read config file/);
  });
});
