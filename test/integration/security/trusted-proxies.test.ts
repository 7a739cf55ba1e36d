import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../../src/app/rtserve-server.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { createLogger, logControlOf } from '../../../src/observability/logger.ts';
import { clientAddressResolver } from '../../../src/security/client-address.ts';
import { request, startTestServer } from '../../helpers/server.ts';

const ready = (url: string, forwardedFor?: string) =>
  request(`${url}/v2/models/simple`, forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } });

describe('trusted proxies: X-Forwarded-For only from configured proxy addresses', () => {
  test('the resolver: untrusted peers are the client; trusted proxies are skipped from the right', () => {
    const none = clientAddressResolver([]);
    assert.equal(none('10.0.0.5', '1.2.3.4'), '10.0.0.5');
    const trusted = clientAddressResolver(['10.0.0.0/8', '127.0.0.1']);
    assert.equal(trusted('10.0.0.5', '1.2.3.4'), '1.2.3.4');
    assert.equal(trusted('10.0.0.5', '1.2.3.4, 10.9.9.9'), '1.2.3.4');
    // A client's own X-Forwarded-For entry left of an untrusted hop is not believed.
    assert.equal(trusted('10.0.0.5', '6.6.6.6, 1.2.3.4'), '1.2.3.4');
    assert.equal(trusted('192.168.1.1', '1.2.3.4'), '192.168.1.1');
    assert.equal(trusted('127.0.0.1', ['5.5.5.5', '10.1.1.1']), '5.5.5.5');
  });

  test('per-IP rate limit: without trusted proxies X-Forwarded-For cannot pick a fresh bucket', async () => {
    const server = await startTestServer({ rateLimit: { enabled: true, perIp: { ratePerSec: 0.01, burst: 2 } } });
    try {
      assert.equal((await ready(server.httpUrl, '1.1.1.1')).status, 200);
      assert.equal((await ready(server.httpUrl, '2.2.2.2')).status, 200);
      assert.equal((await ready(server.httpUrl, '3.3.3.3')).status, 429, 'one bucket: the socket peer');
    } finally {
      await server.close();
    }
  });

  test('per-IP rate limit behind a trusted proxy: one bucket per forwarded client; access log shows it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rtserve-xff-'));
    const logger = createLogger('info');
    logControlOf(logger).update({ log_file: 'access.log' }, dir);
    const config = await loadServerConfig({
      flags: {
        host: '127.0.0.1',
        httpPort: 0,
        grpcPort: 0,
        metricsPort: 0,
        drainQuietMs: 0,
        accessLog: true,
        trustedProxies: 'loopback',
        rateLimit: { enabled: true, perIp: { ratePerSec: 0.01, burst: 2 } },
      },
    });
    const server = await startServer({ config, logger });
    try {
      for (const ip of ['1.1.1.1', '2.2.2.2']) {
        assert.equal((await ready(server.httpUrl, ip)).status, 200, ip);
        assert.equal((await ready(server.httpUrl, ip)).status, 200, ip);
        assert.equal((await ready(server.httpUrl, ip)).status, 429, `${ip}: its own bucket is spent`);
      }
      logger.flush();
      const remotes = (await readFile(join(dir, 'access.log'), 'utf8'))
        .split('\n')
        .filter((l) => l.includes('"msg":"request"'))
        .map((l) => (JSON.parse(l) as { remote: string }).remote);
      assert.deepEqual([...new Set(remotes)].sort(), ['1.1.1.1', '2.2.2.2']);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
