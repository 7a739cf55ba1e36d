import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { rtError } from '../errors/registry.ts';
import type { z } from 'zod';
import { describeZodError, didYouMean } from './hint.ts';
import { foldApiKey } from './api-key.ts';
import { DEVICE_VARIABLES } from './device-env.ts';
import { otelEnvLayer } from './otel-env.ts';
import { serverConfigSchema, type ServerConfig, type ServerConfigInput } from './server-config.ts';

/**
 * Environment variables map to config keys: RTSERVE_HTTP_PORT → httpPort, RTSERVE_MODEL_REPOSITORY → modelRepository
 * (a comma-separated list), RTSERVE_AUTH → auth (a JSON object).
 */
const ENV_PREFIX = 'RTSERVE_';

export interface ServerConfigSources {
  /** Values from command-line flags (highest precedence); undefined entries are ignored. */
  readonly flags?: Readonly<Record<string, unknown>>;
  /** A JSON or YAML config file. */
  readonly file?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Told about each thing ignored on the way (unknown RTSERVE_* variables); the server logs them as warnings. */
  readonly warn?: (message: string) => void;
}

function camelFromEnv(name: string): string {
  return name
    .slice(ENV_PREFIX.length)
    .toLowerCase()
    .replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

const LIST_KEYS = new Set(['modelRepository', 'providers']);

/**
 * Kubernetes injects `<SERVICE>_SERVICE_HOST`, `<SERVICE>_PORT=tcp://…` and `<SERVICE>_PORT_<n>_TCP…` for every
 * Service of the namespace (docker links, the same): a Service named `rtserve` or `rtserve-http` yields RTSERVE_*
 * names that are no config keys or, `RTSERVE_HTTP_PORT=tcp://10.0.0.1:8000`, a wrong value for one. They are never
 * taken as settings (only warned about, like other unknown names), so a pod starts whatever its neighbours are called
 * (docs/deploy.md).
 */
export function isServiceLinkVariable(name: string, value: string): boolean {
  return (
    /_SERVICE_(HOST|PORT)(_[A-Z0-9_]+)?$/.test(name) ||
    /_PORT_\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?$/.test(name) ||
    (/_PORT$/.test(name) && /^(tcp|udp|sctp):\/\//.test(value))
  );
}

/** RTSERVE_* names read by other parts of rtserve, not server settings (docs/configuration.md). */
const OTHER_RTSERVE_VARIABLES = new Set(DEVICE_VARIABLES);

/** The server keys whose value is an object: their variable holds JSON (`RTSERVE_AUTH='{"enabled":true}'`). */
function isObjectKey(key: string): boolean {
  const shape = serverConfigSchema.shape as Record<string, z.ZodType>;
  const def = shape[key];
  if (def === undefined) return false;
  const probe = def.safeParse(undefined);
  return probe.success && typeof probe.data === 'object' && probe.data !== null && !Array.isArray(probe.data);
}

/**
 * Reads RTSERVE_* variables. Unknown names are not errors but warnings (returned in `ignored`): an orchestrator
 * sets names of its own in the same namespace (Kubernetes injects RTSERVE_PORT, RTSERVE_SERVICE_HOST, ... for a
 * Service named rtserve), while files and flags stay strict. Each value is checked on its own, so an error names
 * its variable.
 */
function fromEnv(env: Readonly<Record<string, string | undefined>>): { values: Record<string, unknown>; ignored: string[] } {
  const values: Record<string, unknown> = {};
  const ignored: string[] = [];
  const known = Object.keys(serverConfigSchema.shape);
  for (const [name, v] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || v === undefined || OTHER_RTSERVE_VARIABLES.has(name)) continue;
    if (isServiceLinkVariable(name, v)) {
      ignored.push(name);
      continue;
    }
    const key = camelFromEnv(name);
    if (!known.includes(key)) {
      // A variable meant for a section's field (RTSERVE_AUTH_ENABLED) names its section in the hint.
      const section = known.find((k) => isObjectKey(k) && key.startsWith(k) && key !== k);
      const hint =
        section !== undefined ? ` (the ${section} section is set as one JSON object: ${envNameOf(section)}='{...}')` : didYouMean(key, known);
      ignored.push(`${name}${hint}`);
      continue;
    }
    let value: unknown = LIST_KEYS.has(key)
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : v;
    if (isObjectKey(key)) {
      try {
        value = JSON.parse(v) as unknown;
      } catch (err) {
        throw rtError(
          'BAD_CONFIG',
          `environment variable ${name} must hold the ${key} section as a JSON object (${name}='{"enabled":true}'): ${(err as Error).message}`,
        );
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw rtError(
          'BAD_CONFIG',
          `environment variable ${name} must hold the ${key} section as a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
        );
      }
    }
    const layer = { [key]: value };
    const r = serverConfigSchema.partial().safeParse(layer);
    if (!r.success) throw rtError('BAD_CONFIG', `environment variable ${name}: ${describeZodError(r.error, serverConfigSchema, layer).join('; ')}`);
    values[key] = value;
  }
  return { values, ignored };
}

/** RTSERVE_HTTP_PORT for httpPort (docs/configuration.md). */
export function envNameOf(key: string): string {
  return `${ENV_PREFIX}${key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

async function fromFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw rtError('BAD_CONFIG', `cannot read config file ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw rtError('BAD_CONFIG', `config file ${path} is not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw rtError('BAD_CONFIG', `config file ${path} must hold an object`);
  const obj = data as Record<string, unknown>;
  // The server section may be nested under "server" so that one file can later carry auth and other sections.
  return typeof obj['server'] === 'object' && obj['server'] !== null ? (obj['server'] as Record<string, unknown>) : obj;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * One server configuration from defaults < OpenTelemetry's OTEL_* variables (otel-env.ts) < file < environment
 * (RTSERVE_*) < flags, validated once by the one schema and frozen. Unknown keys are rejected with a "did you
 * mean" hint, naming the source they came from.
 */
export async function loadServerConfig(sources: ServerConfigSources = {}): Promise<Readonly<ServerConfig>> {
  const layers: [string, Record<string, unknown>][] = [];
  if (sources.env !== undefined) layers.push(['environment (OTEL_*)', otelEnvLayer(sources.env, (m) => sources.warn?.(m))]);
  if (sources.file !== undefined) layers.push([`config file ${sources.file}`, await fromFile(sources.file)]);
  if (sources.env !== undefined) {
    const env = fromEnv(sources.env);
    if (env.ignored.length > 0) {
      sources.warn?.(`ignoring environment variables that are not rtserve settings: ${env.ignored.join(', ')} (see docs/configuration.md)`);
    }
    layers.push(['environment (RTSERVE_*)', env.values]);
  }
  if (sources.flags !== undefined) {
    const flags = Object.fromEntries(Object.entries(sources.flags).filter(([, v]) => v !== undefined));
    layers.push(['command-line flags', flags]);
  }
  // Validate each layer on its own first, so an error names the source it came from.
  for (const [source, layer] of layers) {
    const r = serverConfigSchema.partial().safeParse(layer);
    if (!r.success) throw rtError('BAD_CONFIG', `${source}: ${describeZodError(r.error, serverConfigSchema, layer).join('; ')}`);
  }
  const merged: ServerConfigInput = Object.assign({}, ...layers.map(([, l]) => l)) as ServerConfigInput;
  const r = serverConfigSchema.safeParse(merged);
  if (!r.success) throw rtError('BAD_CONFIG', describeZodError(r.error, serverConfigSchema, merged).join('; '));
  return deepFreeze(foldApiKey(r.data));
}
