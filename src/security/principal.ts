import { rtError, type RtError } from '../errors/registry.ts';
import type { Operation } from '../config/security-schema.ts';

/** Who made a request, as established by an API key, a JWT, a WebSocket ticket, or nobody (auth off / open op). */
export interface Principal {
  /** Stable name: the API key's id, the JWT's `sub` (prefixed `jwt:`), or `anonymous`. */
  readonly id: string;
  readonly kind: 'api-key' | 'jwt' | 'anonymous';
  /** Operations granted; `admin` grants every operation. */
  readonly operations: ReadonlySet<Operation>;
  /** Model patterns granted: exact names, `*`, or prefixes ending in `*`. */
  readonly models: readonly string[];
  /**
   * Epoch ms from which the credential is no longer accepted: a JWT's `exp` plus `auth.jwt.clockToleranceSecs`
   * (the leeway jose applies when it verifies the token, so every later check agrees with it); undefined = no expiry.
   */
  readonly expiresAtMs?: number;
}

/** The principal of every request while auth is off: may do everything. */
export const ANONYMOUS: Principal = Object.freeze({
  id: 'anonymous',
  kind: 'anonymous',
  operations: new Set<Operation>(['admin']),
  models: Object.freeze(['*']),
});

export function modelMatches(pattern: string, model: string): boolean {
  if (pattern === '*' || pattern === model) return true;
  return pattern.endsWith('*') && model.startsWith(pattern.slice(0, -1));
}

/** Does one of the principal's model patterns cover `model`? (Scopes aside: `authorize` checks both.) */
export function mayUseModel(principal: Principal, model: string): boolean {
  return principal.models.some((p) => modelMatches(p, model));
}

/**
 * The names a principal may see, in order: what it may list (statistics of every model, the models a 404 suggests)
 * is only what it could ask for by name (docs/security.md "Low-severity holes").
 */
export function visibleModels(principal: Principal | undefined, names: Iterable<string>): string[] {
  const all = [...new Set(names)];
  return principal === undefined ? all : all.filter((name) => mayUseModel(principal, name));
}

/**
 * May `principal` perform `op` (on `model`, when the operation concerns one)? Returns undefined when allowed,
 * otherwise the PERMISSION_DENIED error to send: the credentials were valid, so 403, never 401 (RFC 9110 §15.5.4).
 */
export function authorize(principal: Principal, op: Operation, model?: string): RtError | undefined {
  const ops = principal.operations;
  // Any authenticated principal may ask whether the server is up; the scope exists so it can be made open.
  if (op === 'health') return undefined;
  if (!ops.has('admin') && !ops.has(op)) {
    return rtError('PERMISSION_DENIED', `principal '${principal.id}' lacks the '${op}' scope`);
  }
  if (model !== undefined && !mayUseModel(principal, model)) {
    return rtError('PERMISSION_DENIED', `principal '${principal.id}' may not use model '${model}'`);
  }
  return undefined;
}
