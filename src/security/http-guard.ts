import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RtError, rtError } from '../errors/registry.ts';
import { WWW_AUTHENTICATE } from './authenticator.ts';
import { credentialsFromHeaders } from './credentials.ts';
import type { Principal } from './principal.ts';
import { routeRule } from './route-table.ts';
import type { Security } from './security.ts';

/** Route that exchanges a REST credential for a single-use WebSocket ticket. */
export const WS_TICKET_ROUTE = '/v2/auth/ws-ticket';

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
 * and REST pays nothing). Per request: one Map lookup for the route's operation (the route table), the credential check (an API
 * key costs one sha256; a JWT is verified once and then cached), and the buckets.
 */
export function createHttpSecurity(security: Security): HttpSecurityHooks | undefined {
  if (security.inactive) return undefined;
  const onRequest = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // The route's operation from the one route table (src/security/route-table.ts): one Map lookup.
    const op = routeRule(req.method, req.routeOptions.url).op;
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
