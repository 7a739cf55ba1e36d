import { z } from 'zod';

/**
 * Schemas of the `auth` and `rateLimit` sections of the server configuration (docs/security.md). They live
 * here, next to the code that reads them, and src/config/server-config.ts mounts them; both are off by default.
 * This file imports nothing but zod so that the config layer can depend on it without a cycle.
 */

/** What a principal may do. `admin` implies every other operation; `health` covers the liveness/readiness probes. */
export const OPERATIONS = ['infer', 'metadata', 'repository', 'metrics', 'health', 'admin'] as const;
export type Operation = (typeof OPERATIONS)[number];
const operation = z.enum(OPERATIONS);

/**
 * A model pattern: an exact model name, `*` (every model), or a prefix ending in `*` (`resnet*`). Model names are
 * repository folder names, so no other wildcard syntax is needed.
 */
const modelPattern = z.string().min(1).max(256);

const apiKeySchema = z.strictObject({
  /** Names the principal in logs, metrics and rate-limit keys; never the key itself. */
  id: z.string().min(1).max(128),
  /** sha256 of the key, hex (`printf %s "$KEY" | sha256sum`): the config file never holds the key itself. */
  sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits: the sha256 of the key'),
  scopes: z.array(operation).default(['infer', 'metadata']),
  models: z.array(modelPattern).default(['*']),
});
export type ApiKeyConfig = z.infer<typeof apiKeySchema>;

const jwtSchema = z.strictObject({
  /** Accepted `alg` values; a token with any other (including `none`) is refused (RFC 8725 §3.1). */
  algorithms: z
    .array(z.enum(['HS256', 'RS256', 'ES256']))
    .min(1)
    .default(['HS256', 'RS256', 'ES256']),
  /** HS256 shared secret, at least 32 bytes (RFC 7518 §3.2: the key must be at least as long as the hash). */
  secret: z.string().min(32, 'an HS256 secret needs at least 32 characters (RFC 7518 §3.2)').optional(),
  /** A file holding the HS256 secret (trailing newline ignored); re-read on reload. */
  secretFile: z.string().min(1).optional(),
  /** A JSON Web Key Set file (RFC 7517 §5) with the RS256 / ES256 public keys; re-read on reload. */
  jwksFile: z.string().min(1).optional(),
  /** Required `iss` when set. */
  issuer: z.string().min(1).optional(),
  /** Required `aud` when set. */
  audience: z.string().min(1).optional(),
  /** Claim holding the operations: a space-separated string (RFC 8693 §4.2 `scope`) or an array of strings. */
  scopeClaim: z.string().min(1).default('scope'),
  /** Claim holding model patterns (string array or space-separated string). */
  modelsClaim: z.string().min(1).default('models'),
  /** Model patterns for a token without the models claim. */
  defaultModels: z.array(modelPattern).default(['*']),
  /** Leeway for exp / nbf / iat checks, at verification and at every later expiry check (cache, requests, tickets). */
  clockToleranceSecs: z.number().min(0).max(600).default(30),
  /** Tokens without `exp` are refused unless this is false. */
  requireExp: z.boolean().default(true),
});
export type JwtConfig = z.infer<typeof jwtSchema>;

export const authConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Operations that need no credentials; by default only the health probes (Kubernetes probes carry no token). */
  openOperations: z.array(operation).default(['health']),
  apiKeys: z.array(apiKeySchema).default([]),
  jwt: jwtSchema.optional(),
  /** Lifetime of a WebSocket ticket from POST /v2/auth/ws-ticket (single use). */
  wsTicketTtlSecs: z.number().int().min(1).max(600).default(30),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

const bucketSchema = z.strictObject({
  /** Tokens added per second (sustained requests per second). */
  ratePerSec: z.number().positive(),
  /** Bucket size: how many requests may arrive at once after a quiet spell. */
  burst: z.number().int().min(1),
});
export type BucketConfig = z.infer<typeof bucketSchema>;

export const rateLimitConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** One bucket per authenticated principal (with auth off, every client is the one principal `anonymous`). */
  perPrincipal: bucketSchema.optional(),
  /** One bucket per client IP address (the socket's peer address; proxies are not trusted). */
  perIp: bucketSchema.optional(),
  /** Extra per-principal buckets for some models; the key is a model pattern (`*`, `name`, `prefix*`). */
  perModel: z.record(modelPattern, bucketSchema).default({}),
  /** Unfinished inference requests per principal on this replica; more are refused with RATE_LIMITED. */
  maxConcurrentPerPrincipal: z.number().int().min(1).optional(),
  /** `redis` shares the buckets across replicas (one Lua script per request; the concurrency cap stays local). */
  store: z.enum(['memory', 'redis']).default('memory'),
  redisUrl: z.string().min(1).default('redis://127.0.0.1:6379'),
  redisKeyPrefix: z.string().default('rtserve:rl:'),
  /** A Redis round trip slower than this counts as a Redis failure. */
  redisTimeoutMs: z.number().int().min(1).default(250),
  /** On a Redis failure: true lets the request through (logged), false refuses it (INTERNAL, retryable). */
  failOpen: z.boolean().default(true),
});
export type RateLimitConfig = z.infer<typeof rateLimitConfigSchema>;
export type RateLimitConfigInput = z.input<typeof rateLimitConfigSchema>;
export type AuthConfigInput = z.input<typeof authConfigSchema>;
