import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RtError } from '../../../src/errors/registry.ts';
import { createLogger, logControlOf, silentLogger } from '../../../src/observability/logger.ts';

describe('runtime log control (Triton logging extension settings)', () => {
  test('settings mirror the level: info shows error, warning and info, verbose 0', () => {
    const c = logControlOf(silentLogger());
    c.logger.level = 'info';
    assert.deepEqual(c.settings(), { log_file: '', log_info: true, log_warning: true, log_error: true, log_verbose_level: 0, log_format: 'default' });
  });

  test('updates map onto one pino threshold, children follow', () => {
    const c = logControlOf(silentLogger());
    c.logger.level = 'info';
    const child = c.logger.child({ model: 'm' });
    assert.equal(c.update({ log_verbose_level: 1 }).log_verbose_level, 1);
    assert.equal(c.logger.level, 'debug');
    assert.equal(child.isLevelEnabled('debug'), true);
    c.update({ log_verbose_level: 0, log_info: false });
    assert.equal(c.logger.level, 'warn');
    assert.equal(child.isLevelEnabled('info'), false);
    c.update({ log_warning: false });
    assert.equal(c.logger.level, 'error');
    c.update({ log_error: false });
    assert.equal(c.logger.level, 'silent');
    assert.deepEqual(c.update({ log_verbose_level: 2 }), {
      log_file: '',
      log_info: true,
      log_warning: true,
      log_error: true,
      log_verbose_level: 2,
      log_format: 'default',
    });
    assert.equal(c.logger.level, 'trace');
  });

  test('wrong types and unknown keys are refused with BAD_PARAMETER naming the key', () => {
    const c = logControlOf(silentLogger());
    for (const [patch, key] of [
      [{ log_verbose_level: -1 }, 'log_verbose_level'],
      [{ log_info: 'yes' }, 'log_info'],
      [{ log_colour: true }, 'log_colour'],
      [{ log_format: 'xml' }, 'log_format'],
    ] as const) {
      assert.throws(
        () => c.update(patch),
        (e: unknown) => e instanceof RtError && e.code === 'BAD_PARAMETER' && e.message.includes(key),
        JSON.stringify(patch),
      );
    }
  });

  test('log_file moves the logs of createLogger to a file; ISO8601 changes the time format', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rtserve-log-'));
    try {
      const logger = createLogger('warn');
      const c = logControlOf(logger);
      const file = join(dir, 'sub', 'rtserve.log');
      assert.equal(c.update({ log_file: file, log_info: true }, dir).log_file, file);
      logger.info({ n: 1 }, 'first');
      c.update({ log_format: 'ISO8601' });
      logger.child({ model: 'm' }).info({ n: 2 }, 'second');
      logger.flush();
      const lines = (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; time: unknown; model?: string });
      assert.deepEqual(
        lines.map((l) => l.msg),
        ['first', 'second'],
      );
      assert.equal(typeof lines[0]?.time, 'number');
      assert.match(String(lines[1]?.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(lines[1]?.model, 'm');
      assert.throws(
        () => c.update({ log_file: join(file, 'not-a-dir', 'x.log') }, dir),
        (e: unknown) => e instanceof RtError && e.code === 'BAD_PARAMETER',
      );
      c.update({ log_file: '' });
      assert.equal(c.settings().log_file, '');
      // Without a log directory the file cannot move at all (Triton's answer); outside it, it is refused.
      const refused = (patch: unknown, logDirectory: string | undefined, code: string): void =>
        assert.throws(
          () => c.update(patch, logDirectory),
          (e: unknown) => e instanceof RtError && e.code === code,
          JSON.stringify(patch),
        );
      refused({ log_file: file, log_info: false }, undefined, 'UNSUPPORTED');
      refused({ log_file: join(dir, '..', 'x.log') }, dir, 'PERMISSION_DENIED');
      refused({ log_file: '/etc/rtserve.log' }, dir, 'PERMISSION_DENIED');
      refused({ log_file: dir }, dir, 'PERMISSION_DENIED');
      assert.equal(c.settings().log_info, true, 'a refused update changes nothing');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
