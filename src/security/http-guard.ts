import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RtError, rtError } from '../errors/registry.ts';
import { WWW_AUTHENTICATE } from './authenticator.ts';
import type { Operation } from '../config/security-schema.ts';
import { credentialsFromHeaders } from './credentials.ts';
import type { Principal } from './principal.ts';
import type { Security } from './security.ts';

/** Route that exchanges a REST credential for a single-use WebSocket ticket. */
export const WS_TICKET_ROUTE = '/v2/auth/ws-ticket';

const HEALTH_ROUTES = new Set(['/v2/health/live', '/v2/health/ready', '/healthz', '/readyz']);

/**
 * Static pages that hold no data and that a browser loads by navigation, which cannot carry a bearer token: the
 * demo page and its assets, the API docs UI and the OpenAPI document. The API calls these pages make are guarded.
 */
function isPublicPage(url: string): boolean {
  return url === '/' || url.startsWith('/demo/') || url === '/docs' || url.startsWith('/docs/') || url === '/openapi.json';
}

/**
 * The operation a REST route belongs to, from its route pattern (fastify's `routeOptions.url`): 'any' for routes
 * every authenticated principal may call, 'public' for static pages. Unknown routes (404) still need
 * credentials, so that the route table is not an unauthenticated oracle.
 */
export function operationOfRoute(url: string | undefined): Operation | 'any' | 'public' {
  if (url === undefined) return 'metadata';
  if (HEALTH_ROUTES.has(url)) return 'health';
  if (url === WS_TICKET_ROUTE) return 'any';
  if (isPublicPage(url)) return 'public';
  if (url === '/metrics' || url.endsWith('/stats')) return 'metrics';
  if (url.startsWith('/v2/repository')) return 'repository';
  if (url === '/v1/models' || url.startsWith('/v1/models/')) return 'metadata';
  // Shared memory regions carry inference inputs and outputs: the same operation as inference (Triton groups them
  // under its own "shared-memory" restricted API; docs/security.md).
  if (url.startsWith('/v2/systemsharedmemory') || url.startsWith('/v2/cudasharedmemory')) return 'infer';
  if (url.endsWith('/infer') || url.endsWith('/generate') || url.endsWith('/generate_stream') || url.endsWith('/image') || url.startsWith('/v1/')) return 'infer';
  return 'metadata';
}

const principals = new WeakMap<IncomingMessage, Principal>();

/** The principal the guard admitted for this request (route handlers that authorize by body, e.g. OpenAI routes). */
export function principalOf(req: FastifyRequest | IncomingMessage): Principal | undefined {
  return principals.get('raw' in req ? req.raw : req);
}

export interface HttpSecurityHooks {
  /** A fastify onRequest hook: 401 / 403 / 429 before the body is even read. */
  onRequest(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Registers the security routes (the WebSocket ticket route). */
  register(app: FastifyInstance): void;
}

/**
 * Auth and rate limits for the REST front end, or undefined when both are off (then the server installs no hook
 * and REST pays nothing). Per request: one Map lookup for the route's operation, the credential check (an API
 * key costs one sha256; a JWT is verified once and then cached), and the buckets.
 */
export function createHttpSecurity(security: Security): HttpSecurityHooks | undefined {
  if (security.inactive) return undefined;
  const opCache = new Map<string | undefined, Operation | 'any' | 'public'>();
  const opOf = (url: string | undefined): Operation | 'any' | 'public' => {
    let op = opCache.get(url);
    if (op === undefined) {
      op = operationOfRoute(url);
      if (opCache.size < 1000) opCache.set(url, op);
    }
    return op;
  };

  const onRequest = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const op = opOf(req.routeOptions.url);
    if (op === 'public') return;
    const params = req.params as Record<string, string> | undefined;
    const model = params?.['model'];
    try {
      if (op === 'any') {
        const principal = await security.authenticate(credentialsFromHeaders(req.headers));
        principals.set(req.raw, principal);
        return;
      }
      const admission = await security.admit(credentialsFromHeaders(req.headers), op, model, req.ip, 'http');
      principals.set(req.raw, admission.principal);
      // 'close' fires however the exchange ends (sent, failed, client gone), so the slot is always returned.
      reply.raw.once('close', admission.release);
    } catch (err) {
      if (err instanceof RtError && err.code === 'UNAUTHENTICATED') reply.header('www-authenticate', WWW_AUTHENTICATE);
      throw err;
    }
  };

  const register = (app: FastifyInstance): void => {
    app.post(WS_TICKET_ROUTE, async (req, reply) => {
      const principal = principalOf(req);
      if (principal === undefined) throw rtError('UNAUTHENTICATED', 'credentials are required');
      const { ticket, expiresInMs } = security.tickets.issue(principal);
      // A credential: never cached by the browser or a proxy (RFC 9111 §5.2.2.5).
      return reply.header('cache-control', 'no-store').send({ ticket, expires_in_ms: expiresInMs, protocol: `rtserve.ticket.${ticket}` });
    });
  };

  return { onRequest, register };
}
