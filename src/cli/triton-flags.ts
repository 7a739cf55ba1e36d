import { InvalidArgumentError, Option, type Command } from 'commander';
import { rtError } from '../errors/registry.ts';
import { levelOfSettings } from '../observability/logger.ts';

/**
 * Every `tritonserver` command-line flag (Triton's src/command_line_parser.cc, r24.x–r25.x) and what
 * `rtserve serve` does with it, so runtimes written for Triton (KServe's Triton runtime passes
 * `--model-store=/mnt/models --allow-grpc=true --allow-http=true ...`) start rtserve unchanged.
 *
 * - supported: rtserve has the same flag (Triton's value syntax accepted: `--strict-readiness=false`,
 *   `--model-control-mode=EXPLICIT`).
 * - mapped: accepted and translated to rtserve's config keys (or, where the knob has no counterpart in a Node
 *   server, accepted with a startup warning that says it has no effect).
 * - refused: not implemented; the start fails with a message naming the flag, except for the values that ask
 *   for what rtserve does anyway (`--allow-sagemaker=false`, `--rate-limit=off`).
 *
 * docs/triton-compat.md's table is rendered from this list (`npm run docs:triton`; a test keeps them equal).
 */
export type TritonFlagStatus = 'supported' | 'mapped' | 'refused';
type ArgKind = 'none' | 'bool' | 'int' | 'float' | 'string';

/** What the flags of one command line turn into. */
export interface TritonTranslation {
  /** Server config keys (the same keys as the config file and RTSERVE_* variables). */
  readonly config: Record<string, unknown>;
  /** Flags accepted without an effect: the serve command logs each once the logger exists. */
  readonly warnings: string[];
}

interface Accumulator extends TritonTranslation {
  readonly log: { log_info?: boolean; log_warning?: boolean; log_error?: boolean; log_verbose_level?: number };
}

interface TritonFlag {
  readonly name: string;
  /** Triton's --help group. */
  readonly group: string;
  readonly arg: ArgKind;
  readonly status: TritonFlagStatus;
  /** What rtserve does with it: the docs table's last column, and the refusal message. */
  readonly rtserve: string;
  /** mapped: applies one value (already checked against `arg`). */
  readonly apply?: (value: string | number | boolean, out: Accumulator, flag: string) => void;
  /** refused: the values accepted because they ask for rtserve's own behaviour. */
  readonly accepts?: (value: string | number | boolean) => boolean;
}

// ---- value syntax (Triton's ParseOption: booleans true/on/1 and false/off/0, any case)

export function parseTritonBool(raw: string): boolean {
  const v = raw.toLowerCase();
  if (v === 'true' || v === 'on' || v === '1') return true;
  if (v === 'false' || v === 'off' || v === '0') return false;
  throw new InvalidArgumentError(`'${raw}' is not a boolean (true/false, on/off, 1/0)`);
}

function parseValue(kind: ArgKind, raw: string): string | number | boolean {
  if (kind === 'bool') return parseTritonBool(raw);
  if (kind === 'int') {
    if (!/^-?\d+$/.test(raw.trim())) throw new InvalidArgumentError(`'${raw}' is not an integer`);
    return Number(raw);
  }
  if (kind === 'float') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`'${raw}' is not a number`);
    return n;
  }
  return raw;
}

const set =
  (key: string, map: (v: string | number | boolean) => unknown = (v) => v) =>
  (v: string | number | boolean, out: Accumulator): void => {
    out.config[key] = map(v);
  };
const append =
  (key: string) =>
  (v: string | number | boolean, out: Accumulator): void => {
    out.config[key] = [...((out.config[key] as string[] | undefined) ?? []), String(v)];
  };
const noEffect =
  (why: string) =>
  (v: string | number | boolean, out: Accumulator, flag: string): void => {
    out.warnings.push(`tritonserver's --${flag}=${String(v)} has no effect: ${why}`);
  };
const isFalse = (v: string | number | boolean): boolean => v === false;
const equalsIgnoringCase = (want: string) => (v: string | number | boolean) => String(v).toLowerCase() === want;

/** `<name>,<setting>=<value>` or `<setting>=<value>` (Triton's --backend-config, --cache-config, --trace-config). */
function splitSetting(raw: string, flag: string): { scope: string; key: string; value: string } {
  const eq = raw.indexOf('=');
  if (eq < 0) throw rtError('BAD_CONFIG', `--${flag}=${raw}: expected [<name>,]<setting>=<value>`);
  const head = raw.slice(0, eq);
  const comma = head.indexOf(',');
  return { scope: comma < 0 ? '' : head.slice(0, comma), key: head.slice(comma + 1), value: raw.slice(eq + 1) };
}

function intSetting(flag: string, key: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min) throw rtError('BAD_CONFIG', `--${flag}: ${key}=${value} is not an integer >= ${min}`);
  return n;
}

function backendConfig(v: string | number | boolean, out: Accumulator): void {
  const { scope, key, value } = splitSetting(String(v), 'backend-config');
  if (scope !== '' && scope !== 'onnxruntime') {
    throw rtError(
      'UNSUPPORTED',
      `--backend-config=${String(v)}: rtserve has no '${scope}' backend; it serves ONNX models (onnxruntime, and its own CUDA engine for built plans)`,
    );
  }
  if (key === 'default-max-batch-size') {
    out.config['defaultMaxBatchSize'] = intSetting('backend-config', key, value, 0);
    return;
  }
  throw rtError(
    'UNSUPPORTED',
    `--backend-config=${String(v)}: '${key}' is not a backend setting rtserve implements (only default-max-batch-size; onnxruntime thread counts are set per model: parameters intra_op_num_threads / inter_op_num_threads)`,
  );
}

function cacheConfig(v: string | number | boolean, out: Accumulator): void {
  const { scope, key, value } = splitSetting(String(v), 'cache-config');
  if (scope !== 'local' || key !== 'size') {
    throw rtError('UNSUPPORTED', `--cache-config=${String(v)}: rtserve's response cache is in-process: only local,size=<bytes> is implemented`);
  }
  out.config['cacheSizeBytes'] = intSetting('cache-config', key, value, 0);
}

function metricsConfig(v: string | number | boolean, out: Accumulator): void {
  const raw = String(v);
  const eq = raw.indexOf('=');
  const key = raw.slice(0, eq);
  const value = raw.slice(eq + 1);
  if (eq > 0 && key === 'histogram_latencies') {
    out.config['metricsHistograms'] = parseTritonBool(value);
    return;
  }
  // rtserve always exports the latency counters and never the summaries: asking for that is fine.
  if (eq > 0 && key === 'counter_latencies' && parseTritonBool(value)) return;
  if (eq > 0 && key === 'summary_latencies' && !parseTritonBool(value)) return;
  throw rtError(
    'UNSUPPORTED',
    `--metrics-config=${raw}: rtserve implements histogram_latencies=<bool> (latency counters are always on, summaries are not implemented)`,
  );
}

/** --trace-config [opentelemetry,]<setting>=<value>: OpenTelemetry mode onto traceOtlpEndpoint / traceRate / traceLevel. */
function traceConfig(v: string | number | boolean, out: Accumulator): void {
  const { scope, key, value } = splitSetting(String(v), 'trace-config');
  const refuse = (): never => {
    throw rtError(
      'UNSUPPORTED',
      `--trace-config=${String(v)}: rtserve exports OpenTelemetry spans: mode=opentelemetry, opentelemetry,url=<host:port/v1/traces>, rate=<N>, level=OFF|TIMESTAMPS, count=-1`,
    );
  };
  if (scope !== '' && scope !== 'opentelemetry') refuse();
  if (key === 'url' && scope === 'opentelemetry') out.config['traceOtlpEndpoint'] = /^https?:\/\//.test(value) ? value : `http://${value}`;
  else if (key === 'rate' && scope === '') out.config['traceRate'] = intSetting('trace-config', key, value, 1);
  else if (key === 'level' && scope === '') traceLevel(value, out);
  else if (!((key === 'mode' && value === 'opentelemetry') || (key === 'count' && value === '-1'))) refuse();
}

function traceLevel(v: string | number | boolean, out: Accumulator): void {
  const level = String(v).toUpperCase();
  if (level !== 'OFF' && level !== 'TIMESTAMPS')
    throw rtError('UNSUPPORTED', `trace level ${String(v)}: rtserve traces OFF or TIMESTAMPS (TENSORS is not implemented)`);
  out.config['traceLevel'] = level;
}

function logLevelPart(key: keyof Accumulator['log']) {
  return (v: string | number | boolean, out: Accumulator): void => {
    (out.log as Record<string, unknown>)[key] = v;
  };
}

/** Triton's time formats (default, ISO8601) and rtserve's line formats (json, pretty: `logStyle`). */
function logFormat(v: string | number | boolean, out: Accumulator): void {
  const f = String(v).toLowerCase();
  if (f === 'json' || f === 'pretty') out.config['logStyle'] = f;
  else if (f === 'default' || f === 'iso8601') out.config['logFormat'] = f === 'default' ? 'default' : 'ISO8601';
  else throw rtError('BAD_CONFIG', `--log-format=${String(v)}: expected json or pretty (the lines), or default or ISO8601 (Triton's time formats)`);
}

const NO_THREADS = 'rtserve serves every front end on the Node event loop; parallelism comes from model instances (instance_group)';
const NO_POOLS = "rtserve's engines manage their own memory (the CUDA engine's device arena, onnxruntime's allocators)";
const TLS = 'one TLS setup serves both ports: use --tls-cert, --tls-key and --tls-ca (docs/security.md)';
const ONE_SERVER = 'rtserve serves KServe v2 (REST, gRPC), WebSocket and SSE only';

const F = (
  name: string,
  group: string,
  arg: ArgKind,
  status: TritonFlagStatus,
  rtserve: string,
  extra: Pick<TritonFlag, 'apply' | 'accepts'> = {},
): TritonFlag => ({ name, group, arg, status, rtserve, ...extra });

/** --allow-X, --X-address, --X-port and --reuse-X-port of one front end. */
function frontEndFlags(prefix: 'http' | 'grpc', group: string, port: string): TritonFlag[] {
  const key = `${prefix.charAt(0).toUpperCase()}${prefix.slice(1)}`;
  return [
    F(`allow-${prefix}`, group, 'bool', 'mapped', `\`allow${key}\`: false leaves ${port} closed`, { apply: set(`allow${key}`) }),
    F(`${prefix}-address`, group, 'string', 'mapped', `\`${prefix}Address\` (default \`--host\`, 127.0.0.1; Triton binds 0.0.0.0)`, {
      apply: set(`${prefix}Address`),
    }),
    F(`${prefix}-port`, group, 'int', 'supported', 'same flag'),
    F(`reuse-${prefix}-port`, group, 'bool', 'refused', 'SO_REUSEPORT is not set (false accepted)', { accepts: isFalse }),
  ];
}

export const TRITON_FLAGS: readonly TritonFlag[] = [
  F('help', 'Global', 'none', 'supported', '`rtserve serve --help`'),
  // Server
  F('id', 'Server', 'string', 'mapped', '`serverId`: the name in server metadata (GET /v2)', { apply: set('serverId') }),
  F('exit-timeout-secs', 'Server', 'int', 'supported', 'same flag'),
  // Logging
  F('log-verbose', 'Logging', 'int', 'mapped', '`logLevel`: 1 = debug, ≥ 2 = trace', { apply: logLevelPart('log_verbose_level') }),
  F('log-info', 'Logging', 'bool', 'mapped', '`logLevel` (the booleans and the verbose level make one threshold, as /v2/logging reports it)', {
    apply: logLevelPart('log_info'),
  }),
  F('log-warning', 'Logging', 'bool', 'mapped', '`logLevel`', { apply: logLevelPart('log_warning') }),
  F('log-error', 'Logging', 'bool', 'mapped', '`logLevel`', { apply: logLevelPart('log_error') }),
  F(
    'log-format',
    'Logging',
    'string',
    'mapped',
    "`logFormat` (Triton's default or ISO8601, any case), or rtserve's `logStyle`: json (JSON lines) or pretty (readable lines; the default on a terminal)",
    { apply: logFormat },
  ),
  F('log-file', 'Logging', 'string', 'mapped', '`logFile`: JSON lines appended to the file', { apply: set('logFile') }),
  // Model repository
  F('model-store', 'Model Repository', 'string', 'mapped', '`--model-repository` (repeatable)', { apply: append('modelRepository') }),
  F('model-repository', 'Model Repository', 'string', 'supported', 'same flag (repeatable)'),
  F(
    'exit-on-error',
    'Model Repository',
    'bool',
    'mapped',
    '`exitOnError`: a model that fails to load at startup stops the server (the default, as in Triton; `=false` starts anyway)',
    { apply: set('exitOnError') },
  ),
  F('disable-auto-complete-config', 'Model Repository', 'none', 'mapped', '`autoCompleteConfig: false`: configs must be complete', {
    apply: set('autoCompleteConfig', () => false),
  }),
  F('strict-model-config', 'Model Repository', 'bool', 'mapped', '`autoCompleteConfig` = not the value (deprecated in Triton)', {
    apply: set('autoCompleteConfig', (v) => v !== true),
  }),
  F('strict-readiness', 'Model Repository', 'bool', 'supported', 'same flag; also `--strict-readiness` / `--no-strict-readiness` without a value'),
  F('model-control-mode', 'Model Repository', 'string', 'supported', 'same flag, values in any case (none | poll | explicit)'),
  F('repository-poll-secs', 'Model Repository', 'int', 'supported', 'same flag'),
  F('load-model', 'Model Repository', 'string', 'supported', "same flag (repeatable, '*' = all)"),
  F('model-load-thread-count', 'Model Repository', 'int', 'mapped', '`modelLoadThreadCount`: models loaded at the same time at startup', {
    apply: set('modelLoadThreadCount'),
  }),
  F('model-load-retry-count', 'Model Repository', 'int', 'refused', 'a failed load is not retried (0 accepted)', { accepts: (v) => v === 0 }),
  F('model-namespacing', 'Model Repository', 'bool', 'refused', 'model names are global across repositories (false accepted)', { accepts: isFalse }),
  // HTTP
  ...frontEndFlags('http', 'HTTP', 'the HTTP port (REST, WebSocket, SSE)'),
  F('http-header-forward-pattern', 'HTTP', 'string', 'refused', 'headers are not forwarded as request parameters'),
  F('http-thread-count', 'HTTP', 'int', 'mapped', `accepted, no effect (warning): ${NO_THREADS}`, { apply: noEffect(NO_THREADS) }),
  F('http-restricted-api', 'HTTP', 'string', 'refused', 'not implemented here; see docs/security.md for API keys and JWT scopes'),
  // GRPC
  ...frontEndFlags('grpc', 'GRPC', 'the gRPC port'),
  F('grpc-header-forward-pattern', 'GRPC', 'string', 'refused', 'metadata is not forwarded as request parameters'),
  F('grpc-infer-allocation-pool-size', 'GRPC', 'int', 'mapped', `accepted, no effect (warning): ${NO_POOLS}`, { apply: noEffect(NO_POOLS) }),
  F('grpc-use-ssl', 'GRPC', 'bool', 'refused', `${TLS} (false accepted)`, { accepts: isFalse }),
  F('grpc-use-ssl-mutual', 'GRPC', 'bool', 'refused', `${TLS} (false accepted)`, { accepts: isFalse }),
  F('grpc-server-cert', 'GRPC', 'string', 'refused', TLS),
  F('grpc-server-key', 'GRPC', 'string', 'refused', TLS),
  F('grpc-root-cert', 'GRPC', 'string', 'refused', TLS),
  F('grpc-infer-response-compression-level', 'GRPC', 'string', 'refused', 'responses are not compressed (none accepted)', {
    accepts: equalsIgnoringCase('none'),
  }),
  F('grpc-keepalive-time', 'GRPC', 'int', 'mapped', '`grpcKeepaliveTimeMs`', { apply: set('grpcKeepaliveTimeMs') }),
  F('grpc-keepalive-timeout', 'GRPC', 'int', 'mapped', '`grpcKeepaliveTimeoutMs`', { apply: set('grpcKeepaliveTimeoutMs') }),
  F('grpc-keepalive-permit-without-calls', 'GRPC', 'bool', 'mapped', '`grpcKeepalivePermitWithoutCalls`', {
    apply: set('grpcKeepalivePermitWithoutCalls'),
  }),
  F('grpc-http2-max-pings-without-data', 'GRPC', 'int', 'refused', "grpc-js's server has no such setting"),
  F('grpc-http2-min-recv-ping-interval-without-data', 'GRPC', 'int', 'refused', "grpc-js's server has no such setting"),
  F('grpc-http2-max-ping-strikes', 'GRPC', 'int', 'refused', "grpc-js's server has no such setting"),
  F('grpc-max-connection-age', 'GRPC', 'int', 'refused', 'connections have no maximum age'),
  F('grpc-max-connection-age-grace', 'GRPC', 'int', 'refused', 'connections have no maximum age'),
  F('grpc-restricted-protocol', 'GRPC', 'string', 'refused', 'not implemented here; see docs/security.md for API keys and JWT scopes'),
  // Sagemaker, Vertex AI
  F('allow-sagemaker', 'Sagemaker', 'bool', 'refused', `${ONE_SERVER} (false accepted)`, { accepts: isFalse }),
  F('sagemaker-port', 'Sagemaker', 'int', 'refused', ONE_SERVER),
  F('sagemaker-safe-port-range', 'Sagemaker', 'string', 'refused', ONE_SERVER),
  F('sagemaker-thread-count', 'Sagemaker', 'int', 'refused', ONE_SERVER),
  F('allow-vertex-ai', 'Vertex', 'bool', 'refused', `${ONE_SERVER} (false accepted)`, { accepts: isFalse }),
  F('vertex-ai-port', 'Vertex', 'int', 'refused', ONE_SERVER),
  F('vertex-ai-thread-count', 'Vertex', 'int', 'refused', ONE_SERVER),
  F('vertex-ai-default-model', 'Vertex', 'string', 'refused', ONE_SERVER),
  // Metrics
  F('allow-metrics', 'Metrics', 'bool', 'mapped', '`allowMetrics`: false serves no metrics (no metrics port, no /metrics)', {
    apply: set('allowMetrics'),
  }),
  F(
    'allow-gpu-metrics',
    'Metrics',
    'bool',
    'mapped',
    '`gpuMetrics`: nv_gpu_* from NVML where the driver is present (native/build-nvml.sh builds the reader)',
    { apply: set('gpuMetrics') },
  ),
  F(
    'allow-cpu-metrics',
    'Metrics',
    'bool',
    'mapped',
    "accepted, no effect: the process's CPU and memory metrics (rtserve_process_*, rtserve_nodejs_*) are always exported",
    { apply: () => undefined },
  ),
  F('metrics-address', 'Metrics', 'string', 'mapped', '`metricsAddress` (default the HTTP address)', { apply: set('metricsAddress') }),
  F('metrics-port', 'Metrics', 'int', 'supported', 'same flag'),
  F('metrics-interval-ms', 'Metrics', 'float', 'mapped', 'accepted, no effect: metrics are computed when scraped', { apply: () => undefined }),
  F(
    'metrics-config',
    'Metrics',
    'string',
    'mapped',
    '`histogram_latencies=<bool>` → `metricsHistograms`; `counter_latencies=true` and `summary_latencies=false` accepted; others refused',
    { apply: metricsConfig },
  ),
  // Tracing
  F(
    'trace-config',
    'Tracing',
    'string',
    'mapped',
    'OpenTelemetry mode: `opentelemetry,url=...` → `traceOtlpEndpoint` (OTLP/HTTP protobuf), `rate=N` → `traceRate`, `level=OFF|TIMESTAMPS` → `traceLevel`; `mode=opentelemetry`, `count=-1` accepted; Triton mode (file, log-frequency) refused',
    { apply: traceConfig },
  ),
  F('trace-file', 'Tracing', 'string', 'refused', "Triton's trace files are not written; spans go to the OTLP endpoint"),
  F('trace-level', 'Tracing', 'string', 'mapped', '`traceLevel` (OFF | TIMESTAMPS; deprecated in Triton)', { apply: traceLevel }),
  F('trace-rate', 'Tracing', 'int', 'mapped', '`traceRate` (deprecated in Triton)', { apply: set('traceRate') }),
  F('trace-count', 'Tracing', 'int', 'refused', 'traces are not counted (-1 accepted)', { accepts: (v) => v === -1 }),
  F('trace-log-frequency', 'Tracing', 'int', 'refused', "Triton's trace files are not written"),
  // Backend, repository agents
  F('backend-directory', 'Backend', 'string', 'refused', 'rtserve loads no backend libraries'),
  F(
    'backend-config',
    'Backend',
    'string',
    'mapped',
    '`[onnxruntime,]default-max-batch-size=N` → `defaultMaxBatchSize`; other backends and settings refused',
    { apply: backendConfig },
  ),
  F('repoagent-directory', 'Repository Agent', 'string', 'refused', 'rtserve has no repository agents'),
  // Response cache
  F('cache-config', 'Response Cache', 'string', 'mapped', '`local,size=N` → `cacheSizeBytes`; other caches refused', { apply: cacheConfig }),
  F('cache-directory', 'Response Cache', 'string', 'refused', 'rtserve loads no cache libraries'),
  F('response-cache-byte-size', 'Response Cache', 'int', 'mapped', '`cacheSizeBytes` (deprecated in Triton)', { apply: set('cacheSizeBytes') }),
  // Rate limiter
  F(
    'rate-limit',
    'Rate Limiter',
    'string',
    'refused',
    "Triton's instance rate limiter is not implemented (off accepted); per-client request rate limits: docs/security.md",
    { accepts: equalsIgnoringCase('off') },
  ),
  F('rate-limit-resource', 'Rate Limiter', 'string', 'refused', "Triton's instance rate limiter is not implemented"),
  // Memory / device management
  F('pinned-memory-pool-byte-size', 'Memory/Device Management', 'int', 'mapped', `accepted, no effect (warning): ${NO_POOLS}`, {
    apply: noEffect(NO_POOLS),
  }),
  F('cuda-memory-pool-byte-size', 'Memory/Device Management', 'string', 'mapped', `accepted, no effect (warning): ${NO_POOLS}`, {
    apply: noEffect(NO_POOLS),
  }),
  F('cuda-virtual-address-size', 'Memory/Device Management', 'string', 'mapped', `accepted, no effect (warning): ${NO_POOLS}`, {
    apply: noEffect(NO_POOLS),
  }),
  F('min-supported-compute-capability', 'Memory/Device Management', 'float', 'refused', 'GPUs are not filtered by compute capability'),
  F('buffer-manager-thread-count', 'Memory/Device Management', 'int', 'mapped', `accepted, no effect (warning): ${NO_THREADS}`, {
    apply: noEffect(NO_THREADS),
  }),
  F('host-policy', 'Memory/Device Management', 'string', 'refused', 'no host policies (NUMA node, CPU cores): pin the process with taskset/numactl'),
  F('model-load-gpu-limit', 'Memory/Device Management', 'string', 'refused', 'no GPU memory limit on loads'),
];

const HELP_GROUP = 'tritonserver flags (docs/triton-compat.md):';
const attribute = (name: string): string => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * Declares the tritonserver flags that rtserve does not have under the same name on `serve` (its own flags keep
 * their definitions). Valued flags are repeatable; each value is checked against the flag's type as it is parsed.
 */
export function registerTritonFlags(command: Command): void {
  for (const flag of TRITON_FLAGS) {
    if (flag.status === 'supported' || command.options.some((o) => o.long === `--${flag.name}`)) continue;
    const option = new Option(
      flag.arg === 'none' ? `--${flag.name}` : `--${flag.name} <${flag.arg === 'string' ? 'value' : flag.arg}>`,
      flag.rtserve.replace(/`/g, ''),
    );
    if (flag.arg !== 'none') {
      const kind = flag.arg;
      option.argParser((raw: string, previous: unknown) => [...((previous as unknown[] | undefined) ?? []), parseValue(kind, raw)]);
    }
    option.helpGroup(HELP_GROUP);
    if (flag.status === 'refused') option.hideHelp();
    command.addOption(option);
  }
}

/**
 * Turns the tritonserver flags found in `opts` (commander's parsed options of `serve`) into config keys and
 * warnings. Refused flags (and values rtserve does not implement) throw one UNSUPPORTED error naming them all.
 */
export function translateTritonFlags(opts: Readonly<Record<string, unknown>>): TritonTranslation {
  const out: Accumulator = { config: {}, warnings: [], log: {} };
  const refused: string[] = [];
  for (const flag of TRITON_FLAGS) {
    if (flag.status === 'supported') continue;
    const given = opts[attribute(flag.name)];
    if (given === undefined) continue;
    const values: (string | number | boolean)[] = Array.isArray(given) ? (given as (string | number | boolean)[]) : [given as boolean];
    for (const v of values) {
      if (flag.status === 'refused') {
        if (flag.accepts?.(v) !== true) refused.push(`--${flag.name}${flag.arg === 'none' ? '' : `=${String(v)}`} (${flag.rtserve})`);
      } else {
        flag.apply?.(v, out, flag.name);
      }
    }
  }
  if (refused.length > 0) throw rtError('UNSUPPORTED', `rtserve does not implement these tritonserver flags: ${refused.join('; ')}`);
  if (Object.keys(out.log).length > 0) {
    out.config['logLevel'] = levelOfSettings({ log_info: true, log_warning: true, log_error: true, log_verbose_level: 0, ...out.log });
  }
  return { config: out.config, warnings: out.warnings };
}

/** docs/triton-compat.md's table: every flag, its Triton group, rtserve's status and what rtserve does. */
export function renderTritonFlagTable(): string {
  const rows = TRITON_FLAGS.map((f) => `| \`--${f.name}${f.arg === 'none' ? '' : `=<${f.arg}>`}\` | ${f.group} | ${f.status} | ${f.rtserve} |`);
  const counts = (['supported', 'mapped', 'refused'] as const).map((s) => `${TRITON_FLAGS.filter((f) => f.status === s).length} ${s}`).join(', ');
  return [`${TRITON_FLAGS.length} flags: ${counts}.`, '', '| flag | Triton group | status | rtserve |', '| --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

const TABLE_BEGIN = '<!-- triton-flags:begin (generated by `npm run docs:triton` from src/cli/triton-flags.ts) -->';
const TABLE_END = '<!-- triton-flags:end -->';

/** `markdown` with its generated flag table replaced by the current one (test/unit/cli/triton-flags.test.ts). */
export function withTritonFlagTable(markdown: string): string {
  const i = markdown.indexOf(TABLE_BEGIN);
  const j = markdown.indexOf(TABLE_END);
  if (i < 0 || j < i) throw new Error(`docs/triton-compat.md lacks the markers ${TABLE_BEGIN} ... ${TABLE_END}`);
  return `${markdown.slice(0, i)}${TABLE_BEGIN}\n\n${renderTritonFlagTable()}\n\n${markdown.slice(j)}`;
}
