import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { LocalHistogram } from '../../../src/observability/local-histogram.ts';

const BUCKETS = [0.001, 0.01, 0.1, 1];
// Values on a bound, between bounds, below the first and above the last bound, for two label sets.
const OBSERVED: readonly [Record<string, string>, number][] = [
  [{ model: 'a', version: '1' }, 0.0005],
  [{ model: 'a', version: '1' }, 0.001],
  [{ model: 'b', version: '2' }, 0.05],
  [{ model: 'a', version: '1' }, 0.5],
  [{ model: 'b', version: '2' }, 3],
  [{ model: 'a', version: '1' }, 0.01],
];

describe('LocalHistogram', () => {
  test('exposes the same Prometheus text as prom-client Histogram for the same observations', async () => {
    const theirs = new Registry();
    const reference = new Histogram({
      name: 'h_seconds',
      help: 'a latency',
      labelNames: ['model', 'version'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    const ours = new Registry();
    const local = new LocalHistogram('h_seconds', 'a latency', ['model', 'version'], BUCKETS, ours);
    const handles = new Map<string, ReturnType<LocalHistogram['series']>>();
    for (const [labels, v] of OBSERVED) {
      reference.observe(labels, v);
      const key = `${labels['model']}/${labels['version']}`;
      if (!handles.has(key)) handles.set(key, local.series(labels));
      handles.get(key)?.observe(v);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
    assert.deepEqual(await ours.getMetricsAsJSON(), await theirs.getMetricsAsJSON());
  });

  test('a series shows from its first observation on; reset hides it again until the next one', async () => {
    const registry = new Registry();
    const h = new LocalHistogram('h', 'help', ['model'], BUCKETS, registry);
    const s = h.series({ model: 'm' });
    assert.doesNotMatch(await registry.metrics(), /h_count/);
    s.observe(0.2);
    assert.match(await registry.metrics(), /^h_count\{model="m"\} 1$/m);
    assert.match(await registry.metrics(), /^h_bucket\{le="1",model="m"\} 1$/m);
    registry.resetMetrics();
    assert.doesNotMatch(await registry.metrics(), /h_count/);
    s.observe(2);
    assert.match(await registry.metrics(), /^h_bucket\{le="1",model="m"\} 0$/m);
    assert.match(await registry.metrics(), /^h_bucket\{le="\+Inf",model="m"\} 1$/m);
    assert.match(await registry.metrics(), /^h_sum\{model="m"\} 2$/m);
  });

  test('the same label set gives the same series, whatever the key order', () => {
    const h = new LocalHistogram('h', 'help', ['model', 'version'], BUCKETS, new Registry());
    assert.equal(h.series({ model: 'm', version: '1' }), h.series({ version: '1', model: 'm' }));
    assert.notEqual(h.series({ model: 'm', version: '1' }), h.series({ model: 'm', version: '2' }));
  });

  test('a value that is not a finite number is refused, as prom-client refuses it', () => {
    const h = new LocalHistogram('h', 'help', ['model'], BUCKETS, new Registry());
    assert.throws(() => h.series({ model: 'm' }).observe(Number.NaN), /not a valid number/);
  });
});
