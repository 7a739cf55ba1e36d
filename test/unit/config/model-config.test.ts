import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modelConfigSchema } from '../../../src/config/model-config.ts';

describe('model config: engine.failover', () => {
  test('defaults: on, 3 device errors, first probe after 5 s doubling up to 60 s, the failed batch retried', () => {
    const c = modelConfigSchema.parse({ name: 'm' });
    assert.deepEqual(c.engine.failover, {
      enabled: true,
      failure_threshold: 3,
      probe_interval_ms: 5000,
      max_probe_interval_ms: 60_000,
      retry_failed_batch: true,
    });
  });

  test('bad values are refused naming the key', () => {
    const cases: [unknown, RegExp][] = [
      [{ failure_threshold: 0 }, /failure_threshold/],
      [{ probe_interval_ms: 5 }, /probe_interval_ms/],
      [{ probe_interval_ms: 1000, max_probe_interval_ms: 500 }, /max_probe_interval_ms must be at least probe_interval_ms/],
      [{ probe_intervall_ms: 1000 }, /probe_intervall_ms/],
    ];
    for (const [failover, message] of cases) {
      const r = modelConfigSchema.safeParse({ name: 'm', engine: { failover } });
      assert.equal(r.success, false, JSON.stringify(failover));
      assert.match(JSON.stringify(r.error?.issues), message);
    }
  });
});
