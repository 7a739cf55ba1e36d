/**
 * The OpenTelemetry SDK's environment variables on a real `rtserve serve` process (src/config/otel-env.ts): with
 * no rtserve trace setting at all, OTEL_EXPORTER_OTLP_ENDPOINT (a base URL: the exporter appends /v1/traces),
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES and OTEL_TRACES_SAMPLER /
 * OTEL_TRACES_SAMPLER_ARG decide where the spans go, with which headers, under which resource, and how often.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CLI_FROM_SOURCES, repositoryArgs, startCli, type CliProcess } from '../../helpers/cli.ts';
import { makeRepository } from '../../helpers/server.ts';
import { until } from '../../helpers/until.ts';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.ts';

describe('OTEL_* variables configure the traces of a real server', () => {
  let receiver: OtlpReceiver;
  let repo: { dir: string; cleanup: () => Promise<void> };
  let server: CliProcess;

  before(async () => {
    receiver = await startOtlpReceiver();
    repo = await makeRepository({ mlp: { from: 'mlp' } });
    // Only OTEL_* variables: no traceOtlpEndpoint, no RTSERVE_TRACE_* (the test runner's own are dropped).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_') && !k.startsWith('RTSERVE_TRACE')));
    server = await startCli(CLI_FROM_SOURCES, repositoryArgs(repo.dir), {
      env: {
        ...env,
        RTSERVE_LOG_LEVEL: 'warn',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.port}`,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme',
        OTEL_SERVICE_NAME: 'edge-7',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci,service.name=overridden-by-otel-service-name',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '1',
        // The SDK's batch span processor (OTEL_BSP_*) is rtserve's own setting; spans leave within its 1 s delay.
      },
      timeoutMs: 90_000,
    });
  });
  after(async () => {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await receiver.close();
    await repo.cleanup();
  });

  test('the sampler sets the trace rate; a request is exported to <endpoint>/v1/traces with the headers and resource', async () => {
    const http = server.urls['http'] ?? '';
    const settings = (await (await fetch(`${http}/v2/trace/setting`)).json()) as { trace_level: string[]; trace_rate: string };
    assert.deepEqual([settings.trace_level, settings.trace_rate], [['TIMESTAMPS'], '1'], 'ratio 1: every request is traced');
    const body = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: new Array(64).fill(0.1) }] });
    const res = await fetch(`${http}/v2/models/mlp/infer`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 200);
    const traceId = (res.headers.get('traceparent') ?? '').split('-')[1];
    assert.ok(traceId !== undefined && traceId.length === 32, `traceparent on the answer: ${res.headers.get('traceparent')}`);
    await until(() => receiver.spans.some((s) => s.traceId === traceId && s.name === 'infer mlp'), 'the root span at the receiver');
    const root = receiver.spans.find((s) => s.traceId === traceId && s.name === 'infer mlp');
    assert.equal(root?.service, 'edge-7', 'OTEL_SERVICE_NAME over OTEL_RESOURCE_ATTRIBUTES and serverId');
    assert.equal(root?.resource['deployment.environment'], 'ci');
    assert.ok(receiver.requests.length > 0);
    for (const r of receiver.requests) {
      assert.equal(`${r.method} ${r.url}`, 'POST /v1/traces');
      assert.equal(r.headers['x-tenant'], 'acme', 'OTEL_EXPORTER_OTLP_HEADERS');
      assert.equal(r.headers['content-type'], 'application/x-protobuf');
    }
  });
});
