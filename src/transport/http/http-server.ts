import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import type { Socket } from 'node:net';
import type { InferenceApi } from '../../api/inference-api.ts';
import { markExclusive } from '../../tensor/exclusive-buffers.ts';
import { rtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import { requestContextOf } from '../../observability/http-observability.ts';
import {
  buildRawRequest,
  decodeInferRequestJson,
  encodeInferResponse,
  parseBinaryBody,
  responseOptionsFor,
  toInferRequest,
} from '../../codec/kserve-json.ts';
import type { DecodedInferRequest, RawRequestModel } from '../../codec/kserve-json.ts';
import { parseJsonBytes } from '../../codec/json-body.ts';
import { refuseModelFiles } from '../../codec/load-parameters.ts';
import { concatBytes } from '../../codec/wire-tensor.ts';
import { sendError } from './errors.ts';
import { inferImageRequest, isImageRequest } from '../../preprocess/image-infer.ts';
import { registerImageRoutes } from './image-route.ts';
import { principalOf, type HttpSecurityHooks } from '../../security/http-guard.ts';
import { apiSwitchHook, trackRoutes, type ApiGroup } from '../../security/route-table.ts';
import { checkJsonLimits, checkTensorLimits, type RequestLimits } from '../../security/limits.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { registerDocsRoutes } from './docs-ui.ts';
import { registerSharedMemoryRoutes } from './shared-memory-routes.ts';
import { loadRequestSchema, repositoryIndexRequestSchema, unloadRequestSchema, parseBodyWith } from './schemas.ts';
import { shareAbortSignal } from '../../util/abort-watch.ts';
import { statisticsFor, withVisibleModels } from '../streaming/caller-view.ts';

export interface HttpServerOptions {
  readonly api: InferenceApi;
  readonly logger: Logger;
  /** Bodies over this many bytes get 413 before they are buffered (Content-Length is checked up front). */
  readonly maxBodyBytes: number;
  /** Called for GET /metrics on the HTTP port; undefined disables the route. */
  readonly metrics?: () => Promise<{ contentType: string; body: string }>;
  /** Lets other front ends (WebSocket, SSE) hook into the same HTTP server before it listens. */
  readonly extend?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * Request ids, trace context, access log and HTTP metrics (src/observability/http-observability.ts). Installed
   * before the security hooks, so requests they refuse (401, 429) are logged, counted and carry the ids too.
   */
  readonly observe?: (app: FastifyInstance) => void;
  /** Serve HTTPS (and so WSS) with these TLS options (src/security/tls.ts httpsServerOptions). */
  readonly https?: HttpsServerOptions;
  /** Auth and rate-limit hooks (src/security/http-guard.ts); undefined installs no hook at all. */
  readonly security?: HttpSecurityHooks;
  /** JSON nesting / element counts, inputs per request, elements per tensor (docs/security.md "Limits"). */
  readonly limits?: RequestLimits;
  /** Node http server guards against slow or oversized request heads (docs/security.md). */
  readonly maxHeaderBytes?: number;
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** API groups turned off (server setting disabledApis; src/security/route-table.ts). */
  readonly disabledApis?: readonly ApiGroup[];
  /** Proxies whose X-Forwarded-For sets `req.ip` (fastify trustProxy; src/security/client-address.ts). */
  readonly trustedProxies?: readonly string[];
}

interface ModelParams {
  model: string;
  version?: string;
}

/**
 * KServe v2 REST (docs/protocol.md §2.1) plus Triton's extensions (binary tensor data, statistics, model configuration,
 * model repository, system shared memory), /openapi.json, /docs and the conventional /healthz and /readyz probe aliases.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const { api, logger, limits } = options;
  // Slow-client guards (node http): the request head within headersTimeout, the whole request within
  // requestTimeout; node checks both every connectionsCheckingInterval, so keep that short.
  const nodeHttp = {
    ...(options.maxHeaderBytes === undefined ? {} : { maxHeaderSize: options.maxHeaderBytes }),
    ...(options.headersTimeoutMs === undefined ? {} : { headersTimeout: options.headersTimeoutMs }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeout: options.requestTimeoutMs }),
    connectionsCheckingInterval: Math.min(2000, options.headersTimeoutMs ?? 2000),
  };
  // Fastify types an HTTPS instance differently; the routes and hooks below are the same for both, and callers
  // only use the instance's common surface (listen, close, server.address, upgrade events).
  const app = (Fastify as (o: object) => FastifyInstance)({
    ...(options.https === undefined ? { http: nodeHttp } : { https: { ...nodeHttp, ...options.https } }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeout: options.requestTimeoutMs }),
    bodyLimit: options.maxBodyBytes,
    // The KServe routes decode their own bodies: a catch-all buffer parser keeps one code path for JSON and binary
    // bodies and lets the codec produce errors that name tensors.
    logger: false,
    return503OnClosing: true,
    ...(options.trustedProxies === undefined || options.trustedProxies.length === 0 ? {} : { trustProxy: [...options.trustedProxies] }),
    forceCloseConnections: false,
    routerOptions: { maxParamLength: 256, ignoreTrailingSlash: true },
  });
  // Every route must have an entry in the one route table (operation, scope, API group): one without is refused here.
  trackRoutes(app);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.maxBodyBytes }, (req, body, done) => {
    // Image and form bodies (POST .../image) are never parsed as JSON; scanning their bytes for brackets would refuse
    // large images at random.
    const mediaType = (req.headers['content-type'] ?? '').trimStart().toLowerCase();
    const notJson = mediaType.startsWith('image/') || mediaType.startsWith('multipart/form-data');
    if (limits !== undefined && body instanceof Buffer && !notJson) {
      // Only JSON is scanned: the whole body, or a binary request's JSON header (its declared length, when valid).
      const h = req.headers['inference-header-content-length'];
      const hdr = Array.isArray(h) ? h[0] : h;
      const jsonBytes = hdr === undefined ? body : /^\s*\d+\s*$/.test(hdr) ? body.subarray(0, Number(hdr)) : undefined;
      try {
        if (jsonBytes !== undefined && jsonBytes.length > 0) checkJsonLimits(jsonBytes, limits);
      } catch (err) {
        done(err as Error, undefined);
        return;
      }
    }
    done(null, body);
  });

  // A 404 for a model suggests only the models the caller may use (transport/streaming/caller-view.ts).
  app.setErrorHandler((err, req, reply) => sendError(reply, withVisibleModels(err, api, principalOf(req)), logger));
  options.observe?.(app);
  if (options.security !== undefined) {
    app.addHook('onRequest', options.security.onRequest);
    options.security.register(app);
  }
  // After the security hook: a turned-off API answers UNSUPPORTED only to those who could otherwise call it.
  const apiSwitch = apiSwitchHook(options.disabledApis ?? []);
  if (apiSwitch !== undefined) app.addHook('onRequest', apiSwitch);
  app.setNotFoundHandler((req, reply) =>
    sendError(reply, rtError('ROUTE_NOT_FOUND', `no route for ${req.method} ${req.url.split('?')[0] ?? ''}`), logger),
  );

  // ---- health (Triton: empty body, 200 when true, 400 when false; S:src/http_server.cc)
  const health = (ok: () => boolean) => async (_req: FastifyRequest, reply: FastifyReply) => reply.code(ok() ? 200 : 400).send();
  app.get(
    '/v2/health/live',
    health(() => api.isLive()),
  );
  app.get(
    '/v2/health/ready',
    health(() => api.isReady()),
  );
  // Conventional Kubernetes probe aliases; 503 is what probes and load balancers expect for "not ready".
  app.get('/healthz', async (_req, reply) =>
    reply
      .code(api.isLive() ? 200 : 503)
      .type('text/plain')
      .send(api.isLive() ? 'ok' : 'not live'),
  );
  app.get('/readyz', async (_req, reply) =>
    reply
      .code(api.isReady() ? 200 : 503)
      .type('text/plain')
      .send(api.isReady() ? 'ok' : 'not ready'),
  );

  // ---- metadata
  app.get('/v2', async () => api.serverMetadata());
  const modelMeta = async (req: FastifyRequest<{ Params: ModelParams }>) => api.modelMetadata(req.params.model, req.params.version);
  app.get('/v2/models/:model', modelMeta);
  app.get('/v2/models/:model/versions/:version', modelMeta);

  const modelReady = async (req: FastifyRequest<{ Params: ModelParams }>, reply: FastifyReply) => {
    const ready = api.modelReady(req.params.model, req.params.version);
    // Triton answers 200 with an empty body, or 400 {"error": ...}; KServe shows {name, ready}. We send the KServe
    // body with Triton's status codes so both kinds of client read it right.
    return reply.code(ready ? 200 : 400).send({ name: req.params.model, ready });
  };
  app.get('/v2/models/:model/ready', modelReady);
  app.get('/v2/models/:model/versions/:version/ready', modelReady);

  const modelConfig = async (req: FastifyRequest<{ Params: ModelParams }>) => api.modelConfig(req.params.model, req.params.version);
  app.get('/v2/models/:model/config', modelConfig);
  app.get('/v2/models/:model/versions/:version/config', modelConfig);

  // ---- statistics extension: every model's statistics means every model the caller may use
  const stats = async (req: FastifyRequest<{ Params: Partial<ModelParams> }>) => ({
    model_stats: await statisticsFor(api, principalOf(req), req.params.model, req.params.version),
  });
  app.get('/v2/models/stats', stats);
  app.get('/v2/models/:model/stats', stats);
  app.get('/v2/models/:model/versions/:version/stats', stats);

  // ---- model repository extension
  app.post('/v2/repository/index', async (req) => {
    const body = parseBodyWith(repositoryIndexRequestSchema, req.body, 'repository index request');
    return api.repositoryIndex(body.ready ?? false);
  });
  app.post('/v2/repository/models/:model/load', async (req: FastifyRequest<{ Params: { model: string } }>, reply) => {
    const body = parseBodyWith(loadRequestSchema, req.body, 'load request');
    // Triton's `file:` parameters are refused as on gRPC, never silently ignored (codec/load-parameters.ts).
    refuseModelFiles(Object.keys(body.parameters ?? {}));
    const config = body.parameters?.config;
    await api.loadModel(req.params.model, config === undefined ? {} : { config });
    return reply.code(200).send();
  });
  app.post('/v2/repository/models/:model/unload', async (req: FastifyRequest<{ Params: { model: string } }>, reply) => {
    parseBodyWith(unloadRequestSchema, req.body, 'unload request');
    await api.unloadModel(req.params.model);
    return reply.code(200).send();
  });

  // ---- system shared memory extension (docs/shared-memory.md)
  registerSharedMemoryRoutes(app, api);

  // ---- inference
  const infer = async (req: FastifyRequest<{ Params: ModelParams }>, reply: FastifyReply) => {
    const { model, version } = req.params;
    const body = req.body instanceof Buffer ? req.body : Buffer.alloc(0);
    // Fastify allocates a large body for this request alone (small ones share Node's pool and stay unmarked): the
    // engine may take its buffer instead of copying the tensors out (tensor/exclusive-buffers.ts).
    markExclusive(body);
    const headerLength = req.headers['inference-header-content-length'];
    const hdr = Array.isArray(headerLength) ? headerLength[0] : headerLength;

    let decoded: DecodedInferRequest;
    let raw = false;
    if (hdr !== undefined) {
      const parsed = parseBinaryBody(body, hdr);
      if (parsed.kind === 'raw') {
        raw = true;
        decoded = buildRawRequest(rawModelOf(api, model, version), parsed.raw);
      } else {
        decoded = decodeInferRequestJson(parsed.json, { bytes: parsed.binary });
      }
    } else {
      decoded = decodeInferRequestJson(parseJsonBytes(body, 'the request body'));
    }
    if (limits !== undefined)
      checkTensorLimits(decoded.sharedMemoryInputs === undefined ? decoded.inputs : [...decoded.inputs, ...decoded.sharedMemoryInputs], limits);

    // A client that goes away cancels its request: queued requests leave the queue (Triton does not notice an
    // HTTP disconnect until it writes; docs/protocol.md §5, item 9).
    const signal = connectionSignal(req.raw.socket);
    // With the request's context (request id, trace, stage timings) from the observability hooks.
    const request = toInferRequest(decoded, {
      model,
      version,
      signal,
      protocol: 'http',
      context: requestContextOf(req.raw),
      principal: principalOf(req)?.id,
    });
    // A BYTES input holding an encoded image, for a model with a preprocess section, runs the image pipeline
    // (src/preprocess/image-infer.ts, docs/image.md); every other request goes to the model as it is.
    const response = isImageRequest(api, request)
      ? ((await inferImageRequest(api, request)) ?? (await api.infer(request)))
      : await api.infer(request);

    const opts = responseOptionsFor(decoded);
    const encoded = encodeInferResponse(response, raw ? { ...opts, binaryOutputs: 'all' } : opts);
    if (encoded.binary.length === 0) {
      return reply.type('application/json').send(Buffer.from(encoded.json.buffer, encoded.json.byteOffset, encoded.json.byteLength));
    }
    reply.header('inference-header-content-length', String(encoded.headerLength));
    // Fastify sends bytes as application/octet-stream (200 unless set): no content type to set and re-parse.
    return reply.send(concatBytes([encoded.json, ...encoded.binary]));
  };
  app.post('/v2/models/:model/infer', infer);
  app.post('/v2/models/:model/versions/:version/infer', infer);
  // POST .../image: encoded image in, labels and scores or boxes out (docs/image.md).
  registerImageRoutes(app, { api, logger });

  // ---- OpenAPI + docs
  const openapi = buildOpenApiDocument();
  app.get('/openapi.json', async () => openapi);
  await registerDocsRoutes(app);

  if (options.metrics !== undefined) {
    const metrics = options.metrics;
    app.get('/metrics', async (_req, reply) => {
      const m = await metrics();
      return reply.type(m.contentType).send(m.body);
    });
  }

  if (options.extend !== undefined) await options.extend(app);
  return app;
}

/**
 * The signal that aborts the requests of one connection when it closes. Per connection rather than per request:
 * an HTTP/1.1 response cannot end early without its connection closing, so aborting every request still running
 * on a closed connection is what a per-request signal did, and node's AbortSignal costs a few µs to create (one per
 * request was the largest single cost in the REST path's profile, bench/results/hotpath-2026-11-30.md). A request
 * that finished has already let go of the signal (the scheduler removes its listener when it answers).
 */
const connectionSignals = new WeakMap<Socket, AbortSignal>();
function connectionSignal(socket: Socket): AbortSignal {
  let signal = connectionSignals.get(socket);
  if (signal === undefined) {
    const controller = new AbortController();
    signal = controller.signal;
    // Every request of the connection waits on it: one listener for all of them (util/abort-watch.ts).
    shareAbortSignal(signal);
    connectionSignals.set(socket, signal);
    socket.once('close', () => controller.abort());
  }
  return signal;
}

/** What a raw binary request (Inference-Header-Content-Length: 0) needs: inputs without the batch dimension. */
function rawModelOf(api: InferenceApi, model: string, version: string | undefined): RawRequestModel {
  const config = api.modelConfig(model, version);
  const meta = api.modelMetadata(model, version);
  const batched = config.max_batch_size > 0;
  return {
    name: model,
    maxBatchSize: config.max_batch_size,
    inputs: meta.inputs.map((t) => ({ ...t, shape: batched ? t.shape.slice(1) : t.shape })),
  };
}
