/**
 * The OpenTelemetry SDK's environment variables (opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/)
 * as a configuration source below rtserve's own: defaults < OTEL_* < config file < RTSERVE_* < flags. rtserve's
 * settings are explicit, so they win; the OTEL_* variables are what a platform sets for every service it runs.
 *
 * Read here, into the server config:
 * - OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none: traceLevel OFF;
 * - OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG: traceRate (one trace in round(1 / ratio)) or traceLevel OFF.
 *   rtserve's sampling is parent-based (Triton's): always_on and traceidratio act as their parentbased_ forms, and
 *   parentbased_always_off as always_off; each such difference is warned about.
 *
 * Read by the SDK itself (src/observability/otel-tracing.ts hands it the variables unchanged):
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces appended, where
 * traceOtlpEndpoint is unset; OTEL_EXPORTER_OTLP_(TRACES_)HEADERS, _TIMEOUT, _COMPRESSION and the TLS files;
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (over serverId as service.name).
 */

type Env = Readonly<Record<string, string | undefined>>;

/** The OTLP protocol rtserve's exporter speaks (@opentelemetry/exporter-trace-otlp-proto). */
const PROTOCOL = 'http/protobuf';

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/** Whether the environment names an OTLP traces endpoint (the exporter then reads it; traceOtlpEndpoint wins). */
export function otlpTracesEndpointInEnv(env: Env): boolean {
  return value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined || value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined;
}

/** The ratio of OTEL_TRACES_SAMPLER_ARG for the ratio samplers: a number in [0, 1], 1 when unset. */
function ratioOf(env: Env, warn: (message: string) => void): number | undefined {
  const arg = value(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (arg === undefined) return 1;
  const ratio = Number(arg);
  if (Number.isFinite(ratio) && ratio >= 0 && ratio <= 1) return ratio;
  warn(`OTEL_TRACES_SAMPLER_ARG=${arg} is not a ratio between 0 and 1: ignored`);
  return undefined;
}

/** The trace settings a sampler stands for (traceRate one in N, or traceLevel OFF). */
function samplerLayer(env: Env, warn: (message: string) => void): Record<string, unknown> {
  const sampler = value(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase();
  if (sampler === undefined) return {};
  const parentBased = sampler.startsWith('parentbased_');
  const root = parentBased ? sampler.slice('parentbased_'.length) : sampler;
  if (!['always_on', 'always_off', 'traceidratio'].includes(root)) {
    warn(`OTEL_TRACES_SAMPLER=${sampler} is not one rtserve implements (always_on, always_off, traceidratio, their parentbased_ forms): ignored`);
    return {};
  }
  if (root === 'always_off') {
    if (parentBased) warn(`OTEL_TRACES_SAMPLER=${sampler}: rtserve records no traces then, not even a sampled caller's`);
    return { traceLevel: 'OFF' };
  }
  if (!parentBased) warn(`OTEL_TRACES_SAMPLER=${sampler}: rtserve samples parent-based, a caller's sampled traceparent is always followed`);
  const ratio = root === 'always_on' ? 1 : ratioOf(env, warn);
  if (ratio === undefined) return {};
  return ratio === 0 ? { traceLevel: 'OFF' } : { traceRate: Math.max(1, Math.round(1 / ratio)) };
}

/** The server settings the OTEL_* variables stand for; `warn` hears what cannot be honoured as the spec says. */
export function otelEnvLayer(env: Env, warn: (message: string) => void = () => {}): Record<string, unknown> {
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = value(env, name);
    if (protocol !== undefined && protocol !== PROTOCOL) warn(`${name}=${protocol}: rtserve exports traces over ${PROTOCOL} only`);
  }
  const exporters = value(env, 'OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((e) => e.trim().toLowerCase());
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true' || exporters?.includes('none') === true) return { traceLevel: 'OFF' };
  const unsupported = exporters?.filter((e) => e !== 'otlp') ?? [];
  if (unsupported.length > 0) warn(`OTEL_TRACES_EXPORTER=${unsupported.join(',')}: rtserve exports traces over OTLP only`);
  return samplerLayer(env, warn);
}
