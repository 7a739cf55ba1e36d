import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { RtError, rtError } from '../errors/registry.ts';
import type { AuthConfig, JwtConfig, Operation } from '../config/security-schema.ts';
import { OPERATIONS } from '../config/security-schema.ts';
import type { Principal } from './principal.ts';
import type { TicketStore } from './ws-tickets.ts';

/** Credentials as they arrive on any front end, before they are checked. */
export interface Credentials {
  /** The Authorization header (REST, WebSocket upgrade) or `authorization` metadata (gRPC). */
  readonly authorization?: string | undefined;
  /** A bearer token that came another way (a WebSocket subprotocol entry). */
  readonly bearer?: string | undefined;
  /** A single-use WebSocket ticket (POST /v2/auth/ws-ticket). */
  readonly ticket?: string | undefined;
}

export interface Authenticator {
  /** The principal, or a rejection with an UNAUTHENTICATED RtError (never another kind of error). */
  authenticate(credentials: Credentials): Promise<Principal>;
}

/** The challenge sent with every 401 (RFC 6750 §3). */
export const WWW_AUTHENTICATE = 'Bearer realm="rtserve"';

const OPERATION_SET: ReadonlySet<string> = new Set(OPERATIONS);
/** Verified JWTs are remembered so that a client reusing its token pays for the signature check once. */
const JWT_CACHE_ENTRIES = 10_000;

function unauthenticated(message: string): RtError {
  return rtError('UNAUTHENTICATED', message);
}

/** `Bearer <token>`: the scheme is case-insensitive (RFC 9110 §11.1), the token is RFC 6750 §2.1's b64token. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const m = /^\s*bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization);
  if (m === null) throw unauthenticated('the Authorization header must be "Bearer <token>"');
  return m[1];
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

interface KeyEntry {
  readonly hash: Buffer;
  readonly principal: Principal;
}

function looksLikeJwt(token: string): boolean {
  // Compact JWS (RFC 7515 §7.1): three base64url parts; the header of every JWT starts with `{"` = `eyJ`.
  return token.startsWith('eyJ') && token.split('.').length === 3;
}

function stringList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(/\s+/).filter((s) => s !== '');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return undefined;
}

async function jwtKeyGetter(jwt: JwtConfig): Promise<JWTVerifyGetKey> {
  let secret: Uint8Array | undefined;
  if (jwt.secret !== undefined) secret = new TextEncoder().encode(jwt.secret);
  if (jwt.secretFile !== undefined) {
    const text = (await readConfigFile(jwt.secretFile, 'auth.jwt.secretFile')).replace(/\r?\n$/, '');
    if (text.length < 32)
      throw rtError('BAD_CONFIG', `auth.jwt.secretFile ${jwt.secretFile}: an HS256 secret needs at least 32 bytes (RFC 7518 §3.2)`);
    secret = new TextEncoder().encode(text);
  }
  let jwks: JWTVerifyGetKey | undefined;
  if (jwt.jwksFile !== undefined) {
    const text = await readConfigFile(jwt.jwksFile, 'auth.jwt.jwksFile');
    try {
      jwks = createLocalJWKSet(JSON.parse(text) as Parameters<typeof createLocalJWKSet>[0]);
    } catch (err) {
      throw rtError('BAD_CONFIG', `auth.jwt.jwksFile ${jwt.jwksFile} is not a JSON Web Key Set: ${(err as Error).message}`);
    }
  }
  if (secret === undefined && jwks === undefined) {
    throw rtError('BAD_CONFIG', 'auth.jwt needs a key: secret or secretFile (HS256) and/or jwksFile (RS256, ES256)');
  }
  const hmac = secret;
  const set = jwks;
  // HS256 tokens are checked only against the shared secret and RS256/ES256 only against the key set, so a public
  // key can never be used as an HMAC secret (the classic algorithm-confusion attack; RFC 8725 §2.1).
  return async (header, token) => {
    if (header.alg === 'HS256') {
      if (hmac === undefined) throw unauthenticated('HS256 tokens are not accepted (no secret configured)');
      return hmac;
    }
    if (set === undefined) throw unauthenticated(`${header.alg ?? 'unsigned'} tokens are not accepted (no JWKS configured)`);
    return set(header, token);
  };
}

async function readConfigFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw rtError('BAD_CONFIG', `${what}: cannot read ${path}: ${(err as Error).message}`);
  }
}

function joseMessage(err: unknown): string {
  if (err instanceof RtError) return err.message;
  if (err instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `the token's '${err.claim}' claim is not accepted (${err.reason})`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature is invalid';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the token algorithm is not accepted';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'no configured key matches the token';
  if (err instanceof joseErrors.JWTInvalid || err instanceof joseErrors.JWSInvalid) return 'the token is malformed';
  return 'the token is invalid';
}

/**
 * Builds the authenticator for one auth configuration: API keys (compared as sha256 digests with
 * crypto.timingSafeEqual, every key every time, so the time taken does not depend on which key matched), JWTs
 * (HS256 / RS256 / ES256 via jose) and WebSocket tickets. Reads secretFile / jwksFile now; a reload builds a new
 * authenticator.
 */
export async function createAuthenticator(config: AuthConfig, tickets?: TicketStore): Promise<Authenticator> {
  const keys: KeyEntry[] = config.apiKeys.map((k) => ({
    hash: Buffer.from(k.sha256, 'hex'),
    principal: Object.freeze({ id: k.id, kind: 'api-key', operations: new Set<Operation>(k.scopes), models: Object.freeze([...k.models]) }),
  }));
  const jwt = config.jwt;
  const getKey = jwt === undefined ? undefined : await jwtKeyGetter(jwt);
  const cache = new Map<string, Principal>();

  const byApiKey = (token: string): Principal | undefined => {
    const digest = sha256(token);
    let found: Principal | undefined;
    for (const k of keys) {
      // No early exit: every configured key is compared.
      if (timingSafeEqual(digest, k.hash) && found === undefined) found = k.principal;
    }
    return found;
  };

  const byJwt = async (token: string, jwtConfig: JwtConfig, keyGetter: JWTVerifyGetKey): Promise<Principal> => {
    const cached = cache.get(token);
    if (cached !== undefined) {
      if (cached.expiresAtMs === undefined || cached.expiresAtMs > Date.now()) return cached;
      cache.delete(token);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keyGetter, {
        algorithms: jwtConfig.algorithms,
        clockTolerance: jwtConfig.clockToleranceSecs,
        ...(jwtConfig.issuer === undefined ? {} : { issuer: jwtConfig.issuer }),
        ...(jwtConfig.audience === undefined ? {} : { audience: jwtConfig.audience }),
        ...(jwtConfig.requireExp ? { requiredClaims: ['exp'] } : {}),
      }));
    } catch (err) {
      throw unauthenticated(joseMessage(err));
    }
    const scopes = stringList(payload[jwtConfig.scopeClaim]) ?? [];
    const models = stringList(payload[jwtConfig.modelsClaim]) ?? jwtConfig.defaultModels;
    const principal: Principal = Object.freeze({
      id: `jwt:${payload.sub ?? 'unknown'}`,
      kind: 'jwt',
      operations: new Set(scopes.filter((s): s is Operation => OPERATION_SET.has(s))),
      models: Object.freeze([...models]),
      // The leeway jose just applied to `exp`: the cache and every later check (security.ts, tickets) use it too,
      // so a token inside the leeway is not accepted here and refused a line later.
      ...(payload.exp === undefined ? {} : { expiresAtMs: (payload.exp + jwtConfig.clockToleranceSecs) * 1000 }),
    });
    if (cache.size >= JWT_CACHE_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(token, principal);
    return principal;
  };

  return {
    async authenticate(credentials: Credentials): Promise<Principal> {
      if (credentials.ticket !== undefined) {
        const p = await tickets?.redeem(credentials.ticket);
        if (p === undefined) throw unauthenticated('the WebSocket ticket is unknown, expired or already used');
        return p;
      }
      const token = credentials.bearer ?? bearerToken(credentials.authorization);
      if (token === undefined || token === '') throw unauthenticated('credentials are required: send "Authorization: Bearer <API key or JWT>"');
      if (jwt !== undefined && getKey !== undefined && looksLikeJwt(token)) return byJwt(token, jwt, getKey);
      const p = byApiKey(token);
      if (p === undefined)
        throw unauthenticated(looksLikeJwt(token) ? 'JWTs are not accepted (auth.jwt is not configured)' : 'the API key is not valid');
      return p;
    },
  };
}

/** The sha256 hex digest to put in `auth.apiKeys[].sha256` for a key. */
export function hashApiKey(key: string): string {
  return sha256(key).toString('hex');
}
