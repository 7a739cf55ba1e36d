import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Context, type HrTime } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type IdGenerator,
} from '@opentelemetry/sdk-trace';
import { rtError } from '../errors/registry.ts';
import type { RequestContext } from './request-context.ts';

/**
 * OpenTelemetry traces of inference requests (docs/operations.md "Traces"): one SERVER span per request, joined
 * to the caller's W3C trace (`traceparent` on REST and gRPC), with a child span per stage — receive (read and
 * decode), queue (waiting for a batch and an instance), batch (gathering the batch's inputs), compute (the engine
 * run) and respond (splitting the batch's outputs and encoding the answer) — exported over OTLP/HTTP protobuf.
 *
 * Spans are made when the request has finished, from the timestamps its RequestContext collected on the way, so
 * nothing on the request path waits for tracing; the root span's id is the span id rtserve already reported to
 * the caller (the `traceparent` on the REST response).
 *
 * Sampling follows Triton's trace settings (`/v2/trace/setting`): `trace_level` OFF or TIMESTAMPS, and
 * `trace_rate` N = one new trace in N; a caller's sampled traceparent is always followed (parent-based).
 */
export interface TraceSettings {
  readonly trace_level: readonly ('OFF' | 'TIMESTAMPS')[];
  readonly trace_rate: string;
  readonly trace_count: string;
  readonly log_frequency: string;
  readonly trace_file: string;
  readonly trace_mode: 'opentelemetry';
}

export interface OtelTracingOptions {
  /**
   * OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces; undefined: the exporter's own from the
   * environment (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT plus /v1/traces). Headers,
   * timeout, compression and TLS files come from the OTEL_EXPORTER_OTLP_* variables either way (the SDK reads them).
   */
  readonly endpoint: string | undefined;
  readonly level: 'OFF' | 'TIMESTAMPS';
  /** One new trace in `rate` requests (Triton's trace_rate). */
  readonly rate: number;
  /** service.name unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise (the SDK's env detector). */
  readonly serviceName?: string;
  /** Span export batching delay (BatchSpanProcessor scheduledDelayMillis). */
  readonly exportDelayMs?: number;
}

/** Ids for the next span: set just before startSpan (synchronous), so the root span keeps rtserve's span id. */
class PresetIdGenerator implements IdGenerator {
  traceId: string | undefined;
  spanId: string | undefined;
  private readonly random = new RandomIdGenerator();

  generateTraceId(): string {
    const id = this.traceId ?? this.random.generateTraceId();
    this.traceId = undefined;
    return id;
  }

  generateSpanId(): string {
    const id = this.spanId ?? this.random.generateSpanId();
    this.spanId = undefined;
    return id;
  }
}

// hrtime (monotonic) → Unix epoch: one offset taken at startup.
const EPOCH_OFFSET_NS = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6)) - process.hrtime.bigint();
function epoch(hr: bigint): HrTime {
  const ns = hr + EPOCH_OFFSET_NS;
  return [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
}

export class OtelTracing {
  private readonly ids = new PresetIdGenerator();
  private readonly provider: TracerProvider;
  private level: 'OFF' | 'TIMESTAMPS';
  private rate: number;
  private sampler: ParentBasedSampler;

  constructor(options: OtelTracingOptions) {
    this.level = options.level;
    this.rate = options.rate;
    this.sampler = OtelTracing.samplerFor(options.rate);
    const exporter = new OTLPTraceExporter(options.endpoint === undefined ? {} : { url: options.endpoint });
    // The detected resource's attributes win in merge(): OTEL_SERVICE_NAME over OTEL_RESOURCE_ATTRIBUTES over ours.
    const resource = resourceFromAttributes({ 'service.name': options.serviceName ?? 'rtserve' }).merge(
      detectResources({ detectors: [envDetector] }),
    );
    this.provider = new TracerProvider({
      resource,
      idGenerator: this.ids,
      // The sampler is read through this object, so /v2/trace/setting can change the rate at run time.
      sampler: { shouldSample: (...args) => this.sampler.shouldSample(...args), toString: () => `rtserve(${this.rate})` },
      spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: options.exportDelayMs ?? 1000 })],
    });
  }

  private static samplerFor(rate: number): ParentBasedSampler {
    return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(1 / rate) });
  }

  get enabled(): boolean {
    return this.level === 'TIMESTAMPS';
  }

  settings(): TraceSettings {
    return {
      trace_level: [this.level],
      trace_rate: String(this.rate),
      trace_count: '-1',
      log_frequency: '0',
      trace_file: '',
      trace_mode: 'opentelemetry',
    };
  }

  /** POST /v2/trace/setting: trace_level and trace_rate; the Triton-mode settings are refused. */
  update(patch: unknown): TraceSettings {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw rtError('BAD_PARAMETER', 'trace settings must be a JSON object');
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) continue; // Triton: null resets to the default; here the start-up value stays
      if (key === 'trace_level') {
        const levels = Array.isArray(value) ? value.map(String) : [String(value)];
        if (levels.length !== 1 || (levels[0] !== 'OFF' && levels[0] !== 'TIMESTAMPS')) {
          throw rtError('BAD_PARAMETER', `trace_level: rtserve traces TIMESTAMPS or OFF, got ${JSON.stringify(value)} (TENSORS is not implemented)`);
        }
        this.level = levels[0];
      } else if (key === 'trace_rate') {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1) throw rtError('BAD_PARAMETER', `trace_rate must be an integer >= 1, got ${JSON.stringify(value)}`);
        this.rate = n;
        this.sampler = OtelTracing.samplerFor(n);
      } else if (key === 'trace_count' && String(value) === '-1') {
        // unlimited: what rtserve does
      } else if (key === 'trace_mode' && value === 'opentelemetry') {
        // the only mode
      } else {
        throw rtError(
          'BAD_PARAMETER',
          `trace setting '${key}' = ${JSON.stringify(value)} is not supported: rtserve exports OpenTelemetry spans (trace_level, trace_rate; trace_count -1)`,
        );
      }
    }
    return this.settings();
  }

  /** Records the spans of one finished request (no-op when tracing is off or the request is not sampled). */
  finish(ctx: RequestContext, endNs: bigint, error?: string): void {
    if (!this.enabled) return;
    const t = ctx.trace;
    const parent: Context =
      t.parentSpanId === undefined
        ? ROOT_CONTEXT
        : trace.setSpanContext(ROOT_CONTEXT, {
            traceId: t.traceId,
            spanId: t.parentSpanId,
            traceFlags: t.flags === '01' ? TraceFlags.SAMPLED : TraceFlags.NONE,
            isRemote: true,
          });
    const tracer = this.provider.getTracer('rtserve');
    this.ids.traceId = t.traceId;
    this.ids.spanId = t.spanId;
    const root = tracer.startSpan(
      ctx.model === undefined ? 'infer' : `infer ${ctx.model}`,
      {
        kind: SpanKind.SERVER,
        startTime: epoch(ctx.receivedNs),
        attributes: {
          'rtserve.protocol': ctx.protocol,
          'rtserve.request_id': ctx.requestId,
          ...(ctx.model === undefined ? {} : { 'rtserve.model': ctx.model }),
          ...(ctx.version === undefined ? {} : { 'rtserve.model_version': ctx.version }),
          ...(ctx.batchSize === undefined ? {} : { 'rtserve.batch_size': ctx.batchSize }),
          ...(ctx.batchRequests === undefined ? {} : { 'rtserve.batch_requests': ctx.batchRequests }),
          ...(ctx.cache === undefined ? {} : { 'rtserve.cache': ctx.cache }),
        },
      },
      parent,
    );
    this.ids.traceId = undefined;
    this.ids.spanId = undefined;
    if (!root.isRecording()) return;
    const under = trace.setSpan(ROOT_CONTEXT, root);
    const stage = (name: string, start: bigint | undefined, end: bigint | undefined): void => {
      if (start === undefined || end === undefined || end < start) return;
      tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: epoch(start) }, under).end(epoch(end));
    };
    stage('receive', ctx.receivedNs, ctx.coreStartNs);
    stage('queue', ctx.enqueuedNs, ctx.dispatchNs);
    stage('batch', ctx.batchStartNs, ctx.computeStartNs);
    stage('compute', ctx.computeStartNs, ctx.computeEndNs);
    stage('respond', ctx.computeEndNs ?? ctx.coreEndNs, endNs);
    if (error !== undefined) root.setStatus({ code: SpanStatusCode.ERROR, message: error });
    root.end(epoch(endNs));
  }

  /** Exports what is buffered (shutdown and tests). */
  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  close(): Promise<void> {
    return this.provider.shutdown();
  }
}
