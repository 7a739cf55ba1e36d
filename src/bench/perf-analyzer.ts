/**
 * perf_analyzer's command line on `rtserve bench` (docs/bench.md "perf_analyzer flags"): its flags are translated
 * into rtserve bench's own (the native form), and `-f` writes perf_analyzer's CSV, so scripts and Model
 * Analyzer-style tooling written for perf_analyzer run unchanged. Every perf_analyzer flag `rtserve bench` accepts
 * means what it means to perf_analyzer (its docs/cli.md: `-p` the measurement interval in ms, `-r` the maximum
 * trials, `-t` the concurrency, `-z` zero input), or is refused with a message that says what to give instead
 * (`-c` / `-d`, the deprecated concurrency search; `-l`, a latency threshold; `-H`; `--binary-search`).
 */
import { Option, type Command } from 'commander';
import { BenchError } from './errors.ts';
import type { LevelResult } from './types.ts';

/** The perf_analyzer flags as commander parses them (attribute names). */
export interface PerfAnalyzerFlags {
  /** -i: http | grpc */
  i?: string;
  /** -x: model version */
  x?: string;
  /** -s: stability percentage */
  s?: string;
  /** -f: CSV file */
  f?: string;
  concurrencyRange?: string;
  requestRateRange?: string;
  inputData?: string;
  measurementInterval?: string;
  measurementMode?: string;
  measurementRequestCount?: string;
  streaming?: boolean;
  controlUrl?: string;
  /** -t: perf_analyzer's (deprecated) number of concurrent requests */
  t?: string;
  /** -z: perf_analyzer's (deprecated) zero input data */
  z?: boolean;
  serviceKind?: string;
  /** The perf_analyzer flags refused (REFUSED_FLAGS), by attribute. */
  c?: string;
  d?: boolean;
  latencyThreshold?: string;
  H?: string[];
  binarySearch?: boolean;
}

/** perf_analyzer flags rtserve bench does not implement: declared so that they are refused with what to do instead. */
const REFUSED_FLAGS: readonly { readonly flags: string; readonly attr: keyof PerfAnalyzerFlags; readonly message: string }[] = [
  {
    flags: '-c <n>',
    attr: 'c',
    message:
      "-c is perf_analyzer's deprecated maximum concurrency of the -d search, which rtserve bench does not do: give --concurrency 1,8,64 or --concurrency-range start:end:step",
  },
  {
    flags: '-d',
    attr: 'd',
    message:
      "-d is perf_analyzer's deprecated dynamic concurrency search, which rtserve bench does not do: give --concurrency-range start:end:step (the window length is -p MS or --duration S)",
  },
  {
    flags: '-l, --latency-threshold <ms>',
    attr: 'latencyThreshold',
    message:
      '-l / --latency-threshold (stop the search at a latency) is not implemented: give the levels to measure with --concurrency-range start:end:step',
  },
  { flags: '-H <header>', attr: 'H', message: '-H (extra HTTP headers) is not implemented by rtserve bench' },
  { flags: '--binary-search', attr: 'binarySearch', message: '--binary-search is not implemented: rtserve bench measures every level of the range' },
];

const HELP_GROUP = 'perf_analyzer flags (docs/bench.md):';

/** Declares perf_analyzer's flags on `bench` (the ones whose names rtserve bench already has keep their meaning). */
export function registerPerfAnalyzerFlags(command: Command): void {
  const options = [
    new Option('-i <protocol>', 'perf_analyzer protocol: http (= -p http-binary) | grpc (= -p grpc; -u is then the gRPC address)'),
    new Option('-x <version>', 'model version (= --model-version)'),
    new Option('-s <p>', 'stability percentage (= --stability-percentage)'),
    new Option('-f <file>', "write perf_analyzer's CSV (one row per load level, sorted by throughput)"),
    new Option('--concurrency-range <start:end:step>', 'concurrency levels start..end by step (end defaults to start, step to 1)'),
    new Option('--request-rate-range <start:end:step>', 'request rates start..end by step, per second'),
    new Option('--input-data <src>', 'random | zero | FILE (perf_analyzer {"data": [...]} JSON or a KServe request) (= --input)'),
    new Option('-p, --measurement-interval <ms>', 'time window in milliseconds (= --duration in seconds)'),
    new Option('--measurement-mode <mode>', 'time_windows | count_windows'),
    new Option('--measurement-request-count <n>', 'count_windows: requests per window (default 50) (= --requests)'),
    new Option('--streaming', 'with -i grpc: one ModelStreamInfer stream (= -p grpc-stream)'),
    new Option('-a, --async', 'accepted: rtserve bench keeps the concurrency (or rate) outstanding asynchronously either way'),
    new Option('--sync', 'accepted: as --async (one event loop keeps every request of the level outstanding)'),
    new Option('--control-url <url>', "with -i grpc: the REST address for metadata and statistics (default: -u's host, port 8000)"),
    new Option('-t <n>', 'number of concurrent requests (deprecated in perf_analyzer) (= --concurrency n)'),
    new Option('-z', 'zero input data (deprecated in perf_analyzer) (= --input zero)'),
    new Option('--service-kind <kind>', 'triton only (the KServe v2 / Triton protocol)'),
    ...REFUSED_FLAGS.map((r) => new Option(r.flags, 'not implemented: refused, with what to give instead')),
  ];
  for (const o of options) command.addOption(o.helpGroup(HELP_GROUP));
}

/** `start[:end[:step]]` → the values (perf_analyzer's --concurrency-range / --request-rate-range). */
export function parseRange(flag: string, text: string): number[] {
  const parts = text.split(':').map((s) => s.trim());
  const nums = parts.map(Number);
  if (parts.length > 3 || nums.some((n) => !Number.isInteger(n) || n < 0))
    throw new BenchError(`${flag} takes start[:end[:step]] with whole numbers, got '${text}'`);
  const [start = 0, end = start, step = 1] = nums;
  if (start < 1) throw new BenchError(`${flag}: start must be at least 1, got '${text}'`);
  if (end === 0) throw new BenchError(`${flag}: end 0 (search until a latency limit) is not implemented; give an end`);
  if (end < start || step < 1) throw new BenchError(`${flag}: needs start <= end and step >= 1, got '${text}'`);
  const out: number[] = [];
  for (let v = start; v <= end; v += step) out.push(v);
  return out;
}

const hasScheme = (u: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(u);

/** `host:port` of a URL or address. */
function hostOf(address: string): string {
  const bare = address.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, '');
  const colon = bare.lastIndexOf(':');
  return colon > 0 && !bare.endsWith(']') ? bare.slice(0, colon) : bare;
}

/**
 * The native flags of `rtserve bench` (bench-command.ts BenchFlags) that the perf_analyzer flags stand for: what
 * this file reads and writes of them, so that it does not import the command that uses it.
 */
export interface NativeFlagsPart {
  url?: string;
  grpcUrl?: string;
  modelVersion?: string;
  protocol: string;
  concurrency?: string;
  requestRate?: string;
  duration?: string;
  requests?: string;
  stabilityPercentage: string;
  batch: string;
  input: string;
}

function setOnce(flags: NativeFlagsPart, key: keyof NativeFlagsPart, value: string, pa: string, native: string, given: unknown): void {
  if (given !== undefined) throw new BenchError(`give ${pa} or ${native}, not both`);
  (flags as unknown as Record<string, unknown>)[key] = value;
}

/**
 * The native flags that the perf_analyzer flags in `flags` stand for. `-u` without a scheme is perf_analyzer's
 * `host:port` (http:// is added); with `-i grpc` it is the gRPC address.
 */
export function nativeBenchFlags<F extends NativeFlagsPart>(flags: F & PerfAnalyzerFlags): F {
  const out: F = { ...flags };
  const given = (k: string): unknown => (flags as unknown as Record<string, unknown>)[k];
  for (const r of REFUSED_FLAGS) if (flags[r.attr] !== undefined) throw new BenchError(r.message);
  if (flags.serviceKind !== undefined && flags.serviceKind !== 'triton')
    throw new BenchError(
      `--service-kind ${flags.serviceKind} is not supported: rtserve bench speaks the KServe v2 / Triton protocol (--service-kind triton)`,
    );
  if (flags.t !== undefined) setOnce(out, 'concurrency', flags.t, '-t', '--concurrency', given('concurrency') ?? flags.concurrencyRange);
  if (flags.z === true) {
    if (flags.inputData !== undefined || flags.input !== 'random') throw new BenchError('give -z or --input-data / --input, not both');
    out.input = 'zero';
  }
  if (flags.x !== undefined) setOnce(out, 'modelVersion', flags.x, '-x', '--model-version', given('modelVersion'));
  if (flags.s !== undefined) out.stabilityPercentage = flags.s;
  if (flags.concurrencyRange !== undefined)
    setOnce(
      out,
      'concurrency',
      parseRange('--concurrency-range', flags.concurrencyRange).join(','),
      '--concurrency-range',
      '--concurrency',
      given('concurrency'),
    );
  if (flags.requestRateRange !== undefined)
    setOnce(
      out,
      'requestRate',
      parseRange('--request-rate-range', flags.requestRateRange).join(','),
      '--request-rate-range',
      '--request-rate',
      given('requestRate'),
    );
  if (flags.inputData !== undefined) out.input = flags.inputData;
  if (flags.measurementInterval !== undefined) {
    const ms = Number(flags.measurementInterval);
    if (!Number.isFinite(ms) || ms <= 0) throw new BenchError(`--measurement-interval takes milliseconds, got '${flags.measurementInterval}'`);
    setOnce(out, 'duration', String(ms / 1000), '--measurement-interval', '--duration', given('duration'));
  }
  const mode = flags.measurementMode?.toLowerCase();
  if (mode !== undefined && mode !== 'time_windows' && mode !== 'count_windows')
    throw new BenchError(`--measurement-mode is time_windows or count_windows, got '${flags.measurementMode}'`);
  if (mode === 'count_windows') {
    if (flags.measurementInterval !== undefined)
      throw new BenchError('--measurement-interval applies to time_windows; count_windows takes --measurement-request-count');
    setOnce(out, 'requests', flags.measurementRequestCount ?? '50', '--measurement-mode count_windows', '--requests', given('requests'));
  } else if (flags.measurementRequestCount !== undefined) {
    throw new BenchError('--measurement-request-count needs --measurement-mode count_windows');
  }
  const protocol = flags.i?.toLowerCase();
  if (protocol !== undefined && protocol !== 'http' && protocol !== 'grpc') throw new BenchError(`-i is http or grpc, got '${flags.i}'`);
  if (flags.streaming === true && protocol !== 'grpc') throw new BenchError('--streaming needs -i grpc');
  if (protocol === 'grpc') {
    out.protocol = flags.streaming === true ? 'grpc-stream' : 'grpc';
    const grpc = (flags.url ?? 'localhost:8001').replace(/^grpc:\/\//, '');
    if (hasScheme(grpc)) throw new BenchError(`-i grpc: -u is the gRPC address host:port, got '${flags.url}'`);
    out.grpcUrl = grpc;
    out.url = flags.controlUrl ?? `http://${hostOf(grpc)}:8000`;
  } else {
    if (protocol === 'http') out.protocol = 'http-binary';
    if (flags.controlUrl !== undefined) throw new BenchError('--control-url applies with -i grpc');
    if (flags.url !== undefined && !hasScheme(flags.url)) out.url = `http://${flags.url}`;
  }
  if (flags.f !== undefined && (out.protocol.includes(',') || out.batch.includes(','))) {
    throw new BenchError("-f writes one protocol and one batch size (perf_analyzer's CSV has no column for them); run once per protocol and batch");
  }
  return out;
}

const CSV_COLUMNS = [
  'Inferences/Second',
  'Client Send',
  'Network+Server Send/Recv',
  'Server Queue',
  'Server Compute Input',
  'Server Compute Infer',
  'Server Compute Output',
  'Client Recv',
  'p50 latency',
  'p90 latency',
  'p95 latency',
  'p99 latency',
];

/**
 * perf_analyzer's `-f` CSV: `Concurrency` (or `Request Rate`) then throughput and the latency breakdown in whole
 * microseconds, rows sorted by increasing throughput. rtserve bench does not split the client's own send and
 * receive time out of the round trip, so Client Send and Client Recv are 0 and Network+Server Send/Recv holds the
 * round trip minus the server's queue and compute (as perf_analyzer computes it, floored at 0).
 */
export function perfAnalyzerCsv(levels: readonly LevelResult[]): string {
  if (new Set(levels.map((l) => `${l.protocol} ${l.batch}`)).size > 1) {
    throw new BenchError("-f writes one protocol and one batch size (perf_analyzer's CSV has no column for them); run once per protocol and batch");
  }
  const rate = levels.some((l) => l.mode.kind === 'rate');
  const us = (v: number | undefined): number => Math.max(0, Math.floor(v ?? 0));
  const rows = [...levels]
    .sort((a, b) => a.merged.inferencesPerSec - b.merged.inferencesPerSec)
    .map((l) => {
      const m = l.merged;
      const s = m.server;
      const queue = s?.queueUs ?? 0;
      const compute = (s?.computeInputUs ?? 0) + (s?.computeInferUs ?? 0) + (s?.computeOutputUs ?? 0);
      const load = l.mode.kind === 'concurrency' ? l.mode.concurrency : l.mode.requestsPerSec;
      const values = [
        Number(m.inferencesPerSec.toFixed(1)),
        0,
        us(m.latency.avgUs - queue - compute),
        us(queue),
        us(s?.computeInputUs),
        us(s?.computeInferUs),
        us(s?.computeOutputUs),
        0,
        us(m.latency.p50Us),
        us(m.latency.p90Us),
        us(m.latency.p95Us),
        us(m.latency.p99Us),
      ];
      return [load, ...values].join(',');
    });
  return `${[rate ? 'Request Rate' : 'Concurrency', ...CSV_COLUMNS].join(',')}\n${rows.join('\n')}\n`;
}
