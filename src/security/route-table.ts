import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rtError } from '../errors/registry.ts';
import type { Operation } from '../config/security-schema.ts';

/**
 * The one table of what every REST route and gRPC method is (docs/security.md "Routes and scopes"): the operation
 * (scope) a principal needs to call it, and the API group it belongs to, which an operator can turn off
 * (`disabledApis`; Triton's restricted-API categories). A route that is not in this table cannot be registered:
 * `trackRoutes` refuses it at startup, so a new route is never silently guarded as something else.
 */

/** `any`: every authenticated principal; `public`: static pages a browser loads by navigation (no data). */
export type RouteAccess = Operation | 'any' | 'public';

/** Groups of routes an operator may turn off (server setting `disabledApis`, flag `--disable-api`). */
export const API_GROUPS = ['repository', 'logging', 'shared-memory', 'statistics', 'demo', 'reflection'] as const;
export type ApiGroup = (typeof API_GROUPS)[number];

export interface RouteRule {
  readonly op: RouteAccess;
  /** The switchable group; undefined for routes that are always on. */
  readonly api?: ApiGroup;
}

const rule = (op: RouteAccess, api?: ApiGroup): RouteRule => (api === undefined ? { op } : { op, api });
const HEALTH = rule('health');
const META = rule('metadata');
const INFER = rule('infer');
const STATS = rule('metrics', 'statistics');
const REPO = rule('repository', 'repository');
// Shared memory regions carry inference inputs and outputs: the same scope as inference.
const SHM = rule('infer', 'shared-memory');
const PAGE = rule('public', 'demo');

const MODEL_ROUTES = (suffix: string, r: RouteRule): [string, RouteRule][] => [
  [`/v2/models/:model${suffix}`, r],
  [`/v2/models/:model/versions/:version${suffix}`, r],
];
const SHM_ROUTES = (prefix: string): [string, RouteRule][] => [
  [`GET ${prefix}/status`, SHM],
  [`GET ${prefix}/region/:region/status`, SHM],
  [`POST ${prefix}/region/:region/register`, SHM],
  [`POST ${prefix}/unregister`, SHM],
  [`POST ${prefix}/region/:region/unregister`, SHM],
];

/** `METHOD pattern` (fastify's route pattern) → rule. HEAD routes take their GET route's rule. */
export const HTTP_ROUTES: ReadonlyMap<string, RouteRule> = new Map<string, RouteRule>([
  // health probes (open by default: auth.openOperations)
  ['GET /v2/health/live', HEALTH],
  ['GET /v2/health/ready', HEALTH],
  ['GET /healthz', HEALTH],
  ['GET /readyz', HEALTH],
  // metadata
  ['GET /v2', META],
  ...MODEL_ROUTES('', META).map(([p, r]): [string, RouteRule] => [`GET ${p}`, r]),
  ...MODEL_ROUTES('/ready', META).map(([p, r]): [string, RouteRule] => [`GET ${p}`, r]),
  ...MODEL_ROUTES('/config', META).map(([p, r]): [string, RouteRule] => [`GET ${p}`, r]),
  ['GET /v1/models', META],
  ['GET /v1/models/:model', META],
  // statistics and metrics
  ['GET /v2/models/stats', STATS],
  ...MODEL_ROUTES('/stats', STATS).map(([p, r]): [string, RouteRule] => [`GET ${p}`, r]),
  ['GET /metrics', rule('metrics')],
  // model repository
  ['POST /v2/repository/index', REPO],
  ['POST /v2/repository/models/:model/load', REPO],
  ['POST /v2/repository/models/:model/unload', REPO],
  // logging: its settings change what the server writes where, so only an admin may read or change them
  ['GET /v2/logging', rule('admin', 'logging')],
  ['POST /v2/logging', rule('admin', 'logging')],
  // trace settings (Triton's trace extension onto OpenTelemetry): like logging, what the server exports and where
  ['GET /v2/trace/setting', rule('admin', 'logging')],
  ['POST /v2/trace/setting', rule('admin', 'logging')],
  ['GET /v2/models/:model/trace/setting', rule('admin', 'logging')],
  ['POST /v2/models/:model/trace/setting', rule('admin', 'logging')],
  // shared memory
  ...SHM_ROUTES('/v2/systemsharedmemory'),
  ...SHM_ROUTES('/v2/cudasharedmemory'),
  // inference
  ...['/infer', '/image', '/generate', '/generate_stream']
    .flatMap((s) => MODEL_ROUTES(s, INFER))
    .map(([p, r]): [string, RouteRule] => [`POST ${p}`, r]),
  ['POST /v1/completions', INFER],
  ['POST /v1/chat/completions', INFER],
  // a WebSocket ticket: any authenticated principal (the ticket carries the principal's own scopes)
  ['POST /v2/auth/ws-ticket', rule('any')],
  // API description, and the demo and docs pages (no data; the calls they make are guarded)
  ['GET /openapi.json', rule('public')],
  ['GET /', PAGE],
  ['GET /demo/app.js', PAGE],
  ['GET /demo/style.css', PAGE],
  ['GET /chat', PAGE],
  ['GET /chat/chat.js', PAGE],
  ['GET /chat/chat.css', PAGE],
  ['GET /docs', PAGE],
  ['GET /docs/:asset', PAGE],
]);

/** A route fastify matched but the table lacks is treated as admin-only (fail closed; trackRoutes prevents it). */
const UNMAPPED: RouteRule = rule('admin');
/** Requests that matched no route (404) still need credentials, so the route table is no unauthenticated oracle. */
const NOT_FOUND: RouteRule = rule('metadata');

/** The rule of a route: `method` as sent, `url` as fastify's route pattern (`req.routeOptions.url`). */
export function routeRule(method: string, url: string | undefined): RouteRule {
  if (url === undefined) return NOT_FOUND;
  return HTTP_ROUTES.get(`${method === 'HEAD' ? 'GET' : method} ${url}`) ?? UNMAPPED;
}

const tracked = new WeakMap<FastifyInstance, string[]>();

/**
 * Refuses, at registration, any route the table lacks (the server does not start), and records the routes
 * registered so a test can list them (`registeredRoutes`). Call before the first route is added.
 */
export function trackRoutes(app: FastifyInstance): void {
  const list: string[] = [];
  tracked.set(app, list);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const key = `${method === 'HEAD' ? 'GET' : method} ${route.url}`;
      if (!HTTP_ROUTES.has(key)) {
        throw new Error(`route ${method} ${route.url} has no entry in the route table (src/security/route-table.ts): give it an operation and scope`);
      }
      list.push(`${method} ${route.url}`);
    }
  });
}

/** `METHOD pattern` of every route registered on `app` since `trackRoutes(app)`. */
export function registeredRoutes(app: FastifyInstance): readonly string[] {
  return tracked.get(app) ?? [];
}

/**
 * An onRequest hook answering requests to a turned-off API group: the demo pages 404 (as if absent), the others
 * UNSUPPORTED naming the setting. Undefined when nothing is turned off.
 */
export function apiSwitchHook(disabled: readonly ApiGroup[]): ((req: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined {
  if (disabled.length === 0) return undefined;
  const off = new Set(disabled);
  return async (req) => {
    const api = routeRule(req.method, req.routeOptions.url).api;
    if (api === undefined || !off.has(api)) return;
    if (api === 'demo')
      throw rtError('ROUTE_NOT_FOUND', `no route for ${req.method} ${req.url.split('?')[0] ?? ''} (the demo pages are turned off: disabledApis)`);
    throw rtError('UNSUPPORTED', `the ${api} API is turned off on this server (server setting disabledApis / --disable-api)`);
  };
}

/** The gRPC methods of inference.GRPCInferenceService (and grpc.health.v1), with the same operations and groups. */
export const GRPC_METHODS: Readonly<Record<string, RouteRule>> = Object.freeze({
  ServerLive: HEALTH,
  ServerReady: HEALTH,
  ModelReady: META,
  ServerMetadata: META,
  ModelMetadata: META,
  ModelConfig: META,
  ModelStatistics: STATS,
  RepositoryIndex: REPO,
  RepositoryModelLoad: REPO,
  RepositoryModelUnload: REPO,
  SystemSharedMemoryStatus: SHM,
  SystemSharedMemoryRegister: SHM,
  SystemSharedMemoryUnregister: SHM,
  CudaSharedMemoryStatus: SHM,
  CudaSharedMemoryRegister: SHM,
  CudaSharedMemoryUnregister: SHM,
  ModelInfer: INFER,
  ModelStreamInfer: INFER,
  TraceSetting: rule('admin'),
  LogSettings: rule('admin', 'logging'),
  // grpc.health.v1.Health
  Check: HEALTH,
  Watch: HEALTH,
  List: HEALTH,
  // grpc.reflection.v1 and v1alpha ServerReflection: it describes the API, as the metadata routes do
  ServerReflectionInfo: rule('metadata', 'reflection'),
});
