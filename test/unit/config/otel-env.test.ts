/**
 * OpenTelemetry's OTEL_* variables as a configuration source (src/config/otel-env.ts): below rtserve's own
 * settings, mapped onto traceLevel / traceRate, with a warning where rtserve cannot do what the spec says.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTracing } from '../../../src/app/front-ends.ts';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { otlpTracesEndpointInEnv } from '../../../src/config/otel-env.ts';

async function withEnv(
  env: Record<string, string>,
  flags: Record<string, unknown> = {},
): Promise<{ level: string; rate: number; warnings: string[] }> {
  const warnings: string[] = [];
  const config = await loadServerConfig({ env, flags, warn: (m) => warnings.push(m) });
  return { level: config.traceLevel, rate: config.traceRate, warnings };
}

describe('OTEL_* variables', () => {
  test('the ratio samplers set the trace rate: one trace in round(1 / ratio)', async () => {
    assert.deepEqual(await withEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.01' }), {
      level: 'TIMESTAMPS',
      rate: 100,
      warnings: [],
    });
    assert.equal((await withEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' })).rate, 1, 'no argument: ratio 1');
    assert.equal((await withEnv({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' })).rate, 1);
    assert.equal((await withEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' })).level, 'OFF');
  });

  test('always_off, OTEL_TRACES_EXPORTER=none and OTEL_SDK_DISABLED=true turn traces off', async () => {
    for (const env of [{ OTEL_TRACES_SAMPLER: 'always_off' }, { OTEL_TRACES_EXPORTER: 'none' }, { OTEL_SDK_DISABLED: 'true' }])
      assert.equal((await withEnv(env)).level, 'OFF', JSON.stringify(env));
  });

  test("rtserve's own settings win over the OTEL_* variables", async () => {
    const env = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5', RTSERVE_TRACE_RATE: '20' };
    assert.equal((await withEnv(env)).rate, 20);
    assert.equal((await withEnv({ OTEL_TRACES_EXPORTER: 'none' }, { traceLevel: 'TIMESTAMPS' })).level, 'TIMESTAMPS');
  });

  test('what rtserve cannot honour as the spec says is warned about, and the rest still applies', async () => {
    const root = await withEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' });
    assert.equal(root.rate, 4);
    assert.match(root.warnings.join('\n'), /traceidratio: rtserve samples parent-based/);
    const unknown = await withEnv({ OTEL_TRACES_SAMPLER: 'jaeger_remote', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_TRACES_EXPORTER: 'zipkin' });
    assert.equal(unknown.rate, 1000, 'the default stays');
    assert.match(unknown.warnings.join('\n'), /jaeger_remote is not one rtserve implements/);
    assert.match(unknown.warnings.join('\n'), /OTEL_EXPORTER_OTLP_PROTOCOL=grpc: rtserve exports traces over http\/protobuf only/);
    assert.match(unknown.warnings.join('\n'), /OTEL_TRACES_EXPORTER=zipkin/);
    const bad = await withEnv({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' });
    assert.equal(bad.rate, 1000);
    assert.match(bad.warnings.join('\n'), /OTEL_TRACES_SAMPLER_ARG=2 is not a ratio/);
  });

  test('an OTLP endpoint variable turns tracing on without traceOtlpEndpoint; none keeps it off', async () => {
    assert.equal(otlpTracesEndpointInEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), true);
    assert.equal(otlpTracesEndpointInEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }), true);
    assert.equal(otlpTracesEndpointInEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }), false);
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/' };
    assert.equal(createTracing(await loadServerConfig({ env: {} }), {}), undefined);
    const on = createTracing(await loadServerConfig({ env }), env);
    assert.ok(on !== undefined);
    assert.deepEqual(on.settings().trace_level, ['TIMESTAMPS']);
    await on.close();
    const none = { ...env, OTEL_TRACES_EXPORTER: 'none' };
    const off = createTracing(await loadServerConfig({ env: none }), none);
    assert.deepEqual(off?.settings().trace_level, ['OFF']);
    await off?.close();
  });
});
