/**
 * Keys are reloadable without a restart (docs/security.md "Key rotation"): the real `rtserve serve` re-reads its
 * config file when the file changes, and on SIGHUP (which also re-reads files the config points to, such as
 * auth.jwt.secretFile, that are not watched).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { hashApiKey } from '../../../src/security/authenticator.ts';
import { CLI_FROM_SOURCES, startCli, type CliProcess } from '../../helpers/cli.ts';

const SECRET_1 = 'first-hs256-secret-with-at-least-32-chars';
const SECRET_2 = 'second-hs256-secret-with-at-least-32-chars';

function configFor(dir: string, keys: string[]): string {
  return JSON.stringify({
    host: '127.0.0.1',
    httpPort: 0,
    grpcPort: 0,
    metricsPort: 0,
    logLevel: 'warn',
    auth: {
      enabled: true,
      apiKeys: keys.map((k, i) => ({ id: `key${i}`, sha256: hashApiKey(k), scopes: ['metadata'] })),
      jwt: { secretFile: join(dir, 'jwt-secret'), algorithms: ['HS256'] },
    },
  });
}

async function statusWith(base: string, token: string): Promise<number> {
  return (await fetch(`${base}/v2/models/simple`, { headers: { authorization: `Bearer ${token}` } })).status;
}

/** Polls until `check` holds (bounded: 15 s), for effects that happen asynchronously in the server. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${what} did not happen within 15 s`);
}

describe('auth reload in the running CLI', () => {
  let dir: string;
  let cli: CliProcess;
  let base: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-reload-'));
    await writeFile(join(dir, 'jwt-secret'), `${SECRET_1}\n`);
    await writeFile(join(dir, 'rtserve.json'), configFor(dir, ['key-one']));
    cli = await startCli(CLI_FROM_SOURCES, ['--config', join(dir, 'rtserve.json')]);
    base = cli.urls['http'] ?? '';
    assert.match(base, /^http:\/\//);
  });
  after(async () => {
    if (cli.child.exitCode === null) {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  test('a changed config file replaces the API keys', async () => {
    assert.equal(await statusWith(base, 'key-one'), 200);
    assert.equal(await statusWith(base, 'key-two'), 401);
    // Written the way editors and config management do it: a new file renamed over the old one.
    await writeFile(join(dir, 'rtserve.json.tmp'), configFor(dir, ['key-two']));
    await rename(join(dir, 'rtserve.json.tmp'), join(dir, 'rtserve.json'));
    await eventually('key-two accepted', async () => (await statusWith(base, 'key-two')) === 200);
    assert.equal(await statusWith(base, 'key-one'), 401, 'the removed key is refused');
  });

  test('a broken config file keeps the running keys (and says so in the log)', async () => {
    await writeFile(join(dir, 'rtserve.json'), '{"auth": {"enabled": true, "apiKeys": [{"id": "x", "sha256": "not-hex"}]}}');
    await eventually('the reload failure logged', async () => cli.stderr().includes('auth reload failed'));
    assert.equal(await statusWith(base, 'key-two'), 200);
  });

  test('SIGHUP re-reads the JWT secret file', async () => {
    await writeFile(join(dir, 'rtserve.json'), configFor(dir, ['key-two']));
    const token = await new SignJWT({ scope: 'metadata' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('s')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET_2));
    assert.equal(await statusWith(base, token), 401);
    await writeFile(join(dir, 'jwt-secret'), `${SECRET_2}\n`);
    cli.child.kill('SIGHUP');
    await eventually('the new JWT secret accepted', async () => (await statusWith(base, token)) === 200);
    assert.equal(cli.child.exitCode, null, 'SIGHUP does not stop the server');
  });
});
