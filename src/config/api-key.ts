import { createHash } from 'node:crypto';
import { OPERATIONS } from './security-schema.ts';
import type { ServerConfig } from './server-config.ts';

/** The principal id of the `apiKey` setting's key, in logs, metrics and rate-limit keys. */
export const API_KEY_PRINCIPAL = 'api-key';

/**
 * The `apiKey` setting (vLLM's --api-key, RTSERVE_API_KEY) folded into the auth section: auth on, and the key (as
 * its sha256, like every other key) allowed every operation on every model. The plain key leaves the config here,
 * so nothing that reads the config later holds it.
 */
export function foldApiKey(config: ServerConfig): ServerConfig {
  const { apiKey, ...rest } = config;
  if (apiKey === undefined) return config;
  const key = { id: API_KEY_PRINCIPAL, sha256: createHash('sha256').update(apiKey, 'utf8').digest('hex'), scopes: [...OPERATIONS], models: ['*'] };
  return { ...rest, auth: { ...rest.auth, enabled: true, apiKeys: [...rest.auth.apiKeys, key] } };
}
