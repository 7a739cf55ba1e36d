import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { rtError } from '../errors/registry.ts';
import type { LogControl, Logger } from './logger.ts';
import type { ServerMetrics } from './metrics.ts';
import { edgeContext, stageTimingsUs, type RequestContext } from './request-context.ts';
import { formatTraceparent } from './trace-context.ts';
import type { OtelTracing } from './otel-tracing.ts';

export interface HttpObservabilityOptions {
  readonly logger: Logger;
  readonly metrics?: ServerMetrics;
  /** One info line per HTTP request (method, route, status, duration, request and trace ids, stage timings). */
  readonly accessLog: boolean;
  /** Serves Triton's logging extension (GET/POST /v2/logging) when given. */
  readonly logControl?: LogControl;
  /** The only directory POST /v2/logging may move log_file into; unset, log_file cannot be changed (Triton). */
  readonly logDirectory?: string;
  /** OpenTelemetry spans of inference requests (otel-tracing.ts); /v2/trace/setting reports OFF without it. */
  readonly tracing?: OtelTracing;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();

function header(raw: IncomingMessage, name: string): string | undefined {
  const v = raw.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The edge context of an HTTP request from its headers (x-request-id, traceparent, tracestate). */
function httpEdgeContext(raw: IncomingMessage): RequestContext {
  return edgeContext(
    'http',
    { requestId: header(raw, 'x-request-id') },
    { traceparent: header(raw, 'traceparent'), tracestate: header(raw, 'tracestate') },
  );
}

/**
 * The context of an HTTP request, for the handler to pass to the core on its request (`InferRequest.context`), so
 * the core's logs and timings join the request: the one the observability hooks made (and log and trace), or a
 * new one from the request's headers where they are not registered.
 */
export function requestContextOf(raw: IncomingMessage): RequestContext {
  return contexts.get(raw) ?? httpEdgeContext(raw);
}

/**
 * Request ids, W3C trace context, the access log, HTTP metrics and the logging extension on a fastify server.
 * Every response carries `x-request-id` (the client's, when it sent a plain one, else a new UUID) and a
 * `traceparent` with the caller's trace id (or a new one) and rtserve's span id (W3C Trace Context §3.2), plus
 * the caller's `tracestate` unchanged.
 */
export function registerHttpObservability(app: FastifyInstance, options: HttpObservabilityOptions): void {
  const { logger, metrics } = options;

  app.addHook('onRequest', (req, reply, done) => {
    const ctx = httpEdgeContext(req.raw);
    const trace = ctx.trace;
    contexts.set(req.raw, ctx);
    reply.header('x-request-id', ctx.requestId);
    reply.header('traceparent', formatTraceparent(trace));
    if (trace.tracestate !== undefined) reply.header('tracestate', trace.tracestate);
    done();
  });

  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics?.httpRequestDone(route, reply.statusCode);
    const ctx = contexts.get(req.raw);
    // Inference requests (the core named a model) become traces.
    if (ctx?.model !== undefined)
      options.tracing?.finish(ctx, process.hrtime.bigint(), reply.statusCode >= 400 ? `HTTP ${reply.statusCode}` : undefined);
    if (options.accessLog && ctx !== undefined) {
      logger.info(
        {
          requestId: ctx.requestId,
          traceId: ctx.trace.traceId,
          spanId: ctx.trace.spanId,
          ...(ctx.trace.parentSpanId === undefined ? {} : { parentSpanId: ctx.trace.parentSpanId }),
          method: req.method,
          url: req.url,
          route,
          status: reply.statusCode,
          remote: req.ip,
          ...(ctx.model === undefined ? {} : { model: ctx.model, version: ctx.version, batchSize: ctx.batchSize }),
          ...(ctx.cache === undefined ? {} : { cache: ctx.cache }),
          ...stageTimingsUs(ctx, process.hrtime.bigint()),
        },
        'request',
      );
    }
    done();
  });

  const control = options.logControl;
  if (control !== undefined) {
    // Triton's logging extension (S:docs/protocol/extension_logging.md): GET answers the settings, POST takes
    // any subset and answers the settings now in force.
    app.get('/v2/logging', async () => control.settings());
    app.post('/v2/logging', async (req) => {
      const patch = jsonBody(req.body, 'logging settings');
      const before = control.settings();
      const after = control.update(patch, options.logDirectory);
      logger.info({ before, after }, 'log settings changed');
      return after;
    });
  }

  // Triton's trace extension, mapped onto the OpenTelemetry exporter (otel-tracing.ts).
  const tracing = options.tracing;
  const OFF = { trace_level: ['OFF'], trace_rate: '1000', trace_count: '-1', log_frequency: '0', trace_file: '', trace_mode: 'opentelemetry' };
  app.get('/v2/trace/setting', async () => tracing?.settings() ?? OFF);
  // Per-model settings (Triton's /v2/models/<m>/trace/setting) read the global ones; changing them is refused.
  app.get('/v2/models/:model/trace/setting', async () => tracing?.settings() ?? OFF);
  app.post('/v2/models/:model/trace/setting', async () => {
    throw rtError('UNSUPPORTED', 'per-model trace settings are not supported: POST /v2/trace/setting changes the settings of every model');
  });
  app.post('/v2/trace/setting', async (req) => {
    const patch = jsonBody(req.body, 'trace settings');
    if (tracing === undefined)
      throw rtError(
        'UNSUPPORTED',
        'tracing is off: start rtserve with an OTLP endpoint (--trace-config opentelemetry,url=<host:port/v1/traces> or traceOtlpEndpoint)',
      );
    const after = tracing.update(patch);
    logger.info({ after }, 'trace settings changed');
    return after;
  });
}

/** A settings POST body: {} when empty, BAD_JSON when it does not parse. */
function jsonBody(body: unknown, what: string): unknown {
  const bytes = body instanceof Buffer ? body : Buffer.alloc(0);
  try {
    return bytes.length === 0 ? {} : (JSON.parse(bytes.toString('utf8')) as unknown);
  } catch {
    throw rtError('BAD_JSON', `the ${what} body is not valid JSON`);
  }
}
