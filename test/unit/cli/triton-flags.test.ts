import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { registerServeCommand } from '../../../src/cli/serve-command.ts';
import { TRITON_FLAGS, parseTritonBool, translateTritonFlags, withTritonFlagTable } from '../../../src/cli/triton-flags.ts';
import { serverConfigSchema } from '../../../src/config/server-config.ts';

/** The real `serve` command, parsed without running its action: what its flags turn into. */
function parseServe(args: readonly string[]): Record<string, unknown> {
  const program = new Command('rtserve').exitOverride();
  registerServeCommand(program);
  const serve = program.commands.find((c) => c.name() === 'serve');
  assert.ok(serve !== undefined);
  serve.exitOverride().action(() => undefined);
  program.parse(['node', 'rtserve', 'serve', ...args]);
  return serve.opts();
}

describe('tritonserver flags on rtserve serve', () => {
  test('docs/triton-compat.md lists every flag of the table (run `npm run docs:triton` after changing it)', async () => {
    const doc = await readFile(new URL('../../../docs/triton-compat.md', import.meta.url), 'utf8');
    assert.equal(doc, withTritonFlagTable(doc));
    for (const f of TRITON_FLAGS) assert.ok(doc.includes(`\`--${f.name}`), f.name);
  });

  test('every flag of the table is an option of the real serve command (supported ones under their own name)', () => {
    const program = new Command('rtserve');
    registerServeCommand(program);
    const serve = program.commands.find((c) => c.name() === 'serve');
    const longs = new Set([...(serve?.options ?? []).map((o) => o.long), '--help']);
    const missing = TRITON_FLAGS.filter((f) => !longs.has(`--${f.name}`)).map((f) => f.name);
    assert.deepEqual(missing, []);
    assert.equal(new Set(TRITON_FLAGS.map((f) => f.name)).size, TRITON_FLAGS.length, 'no flag listed twice');
  });

  test("KServe's Triton runtime arguments become rtserve config keys", () => {
    const opts = parseServe(['--model-store=/mnt/models', '--grpc-port=9000', '--http-port=8080', '--allow-grpc=true', '--allow-http=true']);
    const { config, warnings } = translateTritonFlags(opts);
    assert.deepEqual(config, { modelRepository: ['/mnt/models'], allowGrpc: true, allowHttp: true });
    assert.deepEqual(warnings, []);
    assert.equal(opts['httpPort'], '8080');
    assert.equal(opts['grpcPort'], '9000');
  });

  test('Triton booleans in every spelling, "--flag value" and "--flag=value"', () => {
    for (const t of ['true', 'TRUE', 'on', '1']) assert.equal(parseTritonBool(t), true);
    for (const f of ['false', 'Off', '0']) assert.equal(parseTritonBool(f), false);
    assert.throws(() => parseTritonBool('yes'), /'yes' is not a boolean/);
    const { config } = translateTritonFlags(parseServe(['--allow-metrics', 'OFF', '--exit-on-error=1', '--strict-model-config', 'false']));
    assert.deepEqual(config, { allowMetrics: false, exitOnError: true, autoCompleteConfig: true });
  });

  test('a bad value is refused while parsing, naming the flag', () => {
    assert.throws(() => parseServe(['--allow-http=maybe']), /--allow-http <bool>.*'maybe' is not a boolean/);
    assert.throws(() => parseServe(['--model-load-thread-count=four']), /'four' is not an integer/);
  });

  test('native flags take Triton syntax: --strict-readiness=false, --model-control-mode=EXPLICIT', () => {
    const opts = parseServe(['--strict-readiness=false', '--model-control-mode=EXPLICIT']);
    assert.equal(serverConfigSchema.shape.strictReadiness.parse(opts['strictReadiness']), false);
    assert.equal(serverConfigSchema.shape.strictReadiness.parse(parseServe(['--strict-readiness'])['strictReadiness']), true);
    assert.equal(parseServe(['--no-strict-readiness'])['strictReadiness'], false);
    assert.equal(opts['modelControlMode'], 'EXPLICIT', 'lower-cased by the serve action before validation');
  });

  test('log flags make one level threshold; --log-format any case; --log-file', () => {
    const level = (args: string[]): unknown => translateTritonFlags(parseServe(args)).config['logLevel'];
    assert.equal(level(['--log-verbose=1']), 'debug');
    assert.equal(level(['--log-verbose=2']), 'trace');
    assert.equal(level(['--log-info=false']), 'warn');
    assert.equal(level(['--log-info=false', '--log-warning=false']), 'error');
    assert.equal(level(['--log-info=false', '--log-warning=false', '--log-error=false']), 'silent');
    assert.equal(level(['--log-info=true']), 'info');
    const { config } = translateTritonFlags(parseServe(['--log-format=iso8601', '--log-file=/tmp/x.log']));
    assert.deepEqual(config, { logFormat: 'ISO8601', logFile: '/tmp/x.log' });
    assert.throws(() => translateTritonFlags(parseServe(['--log-format=xml'])), /--log-format=xml: expected json or pretty .* or default or ISO8601/);
    // rtserve's line formats on the same flag: logStyle, the time format untouched.
    assert.deepEqual(translateTritonFlags(parseServe(['--log-format=PRETTY'])).config, { logStyle: 'pretty' });
    assert.deepEqual(translateTritonFlags(parseServe(['--log-format=json'])).config, { logStyle: 'json' });
  });

  test('--backend-config, --cache-config and --metrics-config map their known settings and refuse the rest', () => {
    const t = (args: string[]): Record<string, unknown> => translateTritonFlags(parseServe(args)).config;
    assert.deepEqual(t(['--backend-config=onnxruntime,default-max-batch-size=16']), { defaultMaxBatchSize: 16 });
    assert.deepEqual(t(['--backend-config=default-max-batch-size=0']), { defaultMaxBatchSize: 0 });
    assert.throws(() => t(['--backend-config=tensorrt,coalesce-request-input=true']), /UNSUPPORTED|no 'tensorrt' backend/);
    assert.throws(() => t(['--backend-config=onnxruntime,enable-global-threadpool=1']), /'enable-global-threadpool' is not a backend setting/);
    assert.throws(() => t(['--backend-config=onnxruntime,default-max-batch-size=-1']), /not an integer >= 0/);
    assert.deepEqual(t(['--cache-config=local,size=1048576']), { cacheSizeBytes: 1048576 });
    assert.throws(() => t(['--cache-config=redis,host=localhost']), /only local,size=<bytes>/);
    assert.deepEqual(t(['--metrics-config=histogram_latencies=false', '--metrics-config=counter_latencies=true']), { metricsHistograms: false });
    assert.throws(() => t(['--metrics-config=summary_latencies=true']), /summaries are not implemented/);
  });

  test('refused flags fail with one message naming each; the values that ask for rtserve behaviour pass', () => {
    assert.throws(
      () => translateTritonFlags(parseServe(['--rate-limit=execution_count', '--grpc-use-ssl=true', '--trace-file', '/tmp/t.json'])),
      (err: Error) => {
        assert.match(err.message, /rtserve does not implement these tritonserver flags/);
        for (const f of ['--rate-limit=execution_count', '--grpc-use-ssl=true', '--trace-file=/tmp/t.json'])
          assert.ok(err.message.includes(f), `${f} in ${err.message}`);
        return true;
      },
    );
    const ok = translateTritonFlags(
      parseServe(['--rate-limit=OFF', '--allow-sagemaker=false', '--grpc-use-ssl=0', '--model-load-retry-count=0', '--trace-count=-1']),
    );
    assert.deepEqual(ok.config, {});
  });

  test('--trace-config in OpenTelemetry mode maps onto the OTLP exporter settings', () => {
    const t = (args: string[]): Record<string, unknown> => translateTritonFlags(parseServe(args)).config;
    assert.deepEqual(
      t([
        '--trace-config',
        'mode=opentelemetry',
        '--trace-config',
        'opentelemetry,url=collector:4318/v1/traces',
        '--trace-config',
        'rate=10',
        '--trace-config',
        'level=TIMESTAMPS',
        '--trace-config=count=-1',
      ]),
      {
        traceOtlpEndpoint: 'http://collector:4318/v1/traces',
        traceRate: 10,
        traceLevel: 'TIMESTAMPS',
      },
    );
    assert.throws(() => t(['--trace-config', 'triton,file=/tmp/t.json']), /rtserve exports OpenTelemetry spans/);
    assert.throws(() => t(['--trace-config', 'level=TENSORS']), /TENSORS is not implemented/);
    assert.deepEqual(t(['--trace-level=off', '--trace-rate=5']), { traceLevel: 'OFF', traceRate: 5 });
  });

  test('knobs a Node server lacks are accepted with a warning each, never silently', () => {
    const { config, warnings } = translateTritonFlags(parseServe(['--http-thread-count=8', '--pinned-memory-pool-byte-size=268435456']));
    assert.deepEqual(config, {});
    assert.equal(warnings.length, 2);
    assert.match(warnings[0] ?? '', /--http-thread-count=8 has no effect/);
    assert.match(warnings[1] ?? '', /--pinned-memory-pool-byte-size=268435456 has no effect/);
  });

  test('every mapped key is a key of the server config schema', () => {
    const args = [
      '--id=t',
      '--allow-http=true',
      '--allow-grpc=true',
      '--allow-metrics=true',
      '--http-address=0.0.0.0',
      '--grpc-address=0.0.0.0',
      '--metrics-address=0.0.0.0',
      '--exit-on-error=true',
      '--disable-auto-complete-config',
      '--model-load-thread-count=2',
      '--grpc-keepalive-time=1000',
      '--grpc-keepalive-timeout=500',
      '--grpc-keepalive-permit-without-calls=true',
      '--response-cache-byte-size=1024',
      '--log-file=/tmp/l',
      '--log-format=default',
      '--log-verbose=0',
      '--model-store=/m',
    ];
    const { config } = translateTritonFlags(parseServe(args));
    const r = serverConfigSchema.partial().safeParse(config);
    assert.ok(r.success, JSON.stringify(r.error?.issues));
    assert.equal(Object.keys(config).length, 18);
  });
});
