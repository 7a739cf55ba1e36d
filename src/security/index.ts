/** Security: TLS, authentication (API keys, JWT, WebSocket tickets), authorization, rate limits and limits. */
export { OPERATIONS, authConfigSchema, rateLimitConfigSchema } from '../config/security-schema.ts';
export type { AuthConfig, JwtConfig, ApiKeyConfig, RateLimitConfig, BucketConfig, Operation } from '../config/security-schema.ts';
export { ANONYMOUS, authorize, mayUseModel, modelMatches, visibleModels } from './principal.ts';
export type { Principal } from './principal.ts';
export { createAuthenticator, bearerToken, hashApiKey, WWW_AUTHENTICATE } from './authenticator.ts';
export type { Authenticator, Credentials } from './authenticator.ts';
export {
  credentialsFromHeaders,
  credentialsFromGrpcMetadata,
  credentialsFromWsUpgrade,
  ipFromGrpcPeer,
  isCredentialProtocol,
  offeredWsProtocols,
  WS_BEARER_PREFIX,
  WS_TICKET_PREFIX,
} from './credentials.ts';
export type { MetadataLike } from './credentials.ts';
export { Security, isSecurityRejection } from './security.ts';
export type { Admission, SecurityOptions } from './security.ts';
export { RateLimiter, rateLimited } from './rate-limiter.ts';
export type { RateLimitOutcome } from './rate-limiter.ts';
export { MemoryBucketStore } from './bucket-store.ts';
export { MemoryConcurrencyStore } from './concurrency-store.ts';
export type { ConcurrencyHold, ConcurrencyStore } from './concurrency-store.ts';
export type { BucketSpec, BucketStore, TakeOutcome } from './bucket-store.ts';
export { RedisBucketStore } from './redis-bucket-store.ts';
export { WsTicketStore } from './ws-tickets.ts';
export { checkJsonLimits, checkTensorLimits, MessageRateLimiter } from './limits.ts';
export type { RequestLimits } from './limits.ts';
export { loadTlsMaterial, httpsServerOptions, grpcServerCredentials } from './tls.ts';
export type { TlsConfig, TlsMaterial } from './tls.ts';
export { createHttpSecurity, principalOf, WS_TICKET_ROUTE } from './http-guard.ts';
export { API_GROUPS, GRPC_METHODS, HTTP_ROUTES, apiSwitchHook, registeredRoutes, routeRule, trackRoutes } from './route-table.ts';
export type { ApiGroup, RouteAccess, RouteRule } from './route-table.ts';
export type { HttpSecurityHooks } from './http-guard.ts';
export { watchConfig } from './reload.ts';
export type { ConfigWatcher } from './reload.ts';
export { createWsSecurityHooks } from './ws-hooks.ts';
export type { WsSecurityHooks, WsHookPrincipal } from './ws-hooks.ts';
