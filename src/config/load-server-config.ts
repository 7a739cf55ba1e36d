import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { rtError } from '../errors/registry.ts';
import { describeZodError } from './hint.ts';
import { serverConfigSchema, type ServerConfig, type ServerConfigInput } from './server-config.ts';

/** Environment variables map to config keys: RTSERVE_HTTP_PORT → httpPort, RTSERVE_MODEL_REPOSITORY → modelRepository. */
const ENV_PREFIX = 'RTSERVE_';

export interface ServerConfigSources {
  /** Values from command-line flags (highest precedence); undefined entries are ignored. */
  readonly flags?: Readonly<Record<string, unknown>>;
  /** A JSON or YAML config file. */
  readonly file?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
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
 * names that are no config keys (or, `RTSERVE_HTTP_PORT=tcp://10.0.0.1:8000`, a wrong value for one). They are
 * skipped rather than refused, so a pod starts whatever its neighbours are called (docs/deploy.md).
 */
export function isServiceLinkVariable(name: string, value: string): boolean {
  return /_SERVICE_(HOST|PORT)(_[A-Z0-9_]+)?$/.test(name) || /_PORT_\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?$/.test(name) || (/_PORT$/.test(name) && /^(tcp|udp|sctp):\/\//.test(value));
}

/** Reads RTSERVE_* variables; unknown names are reported like unknown file keys (with a hint). */
function fromEnv(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith(ENV_PREFIX) || v === undefined || isServiceLinkVariable(k, v)) continue;
    const key = camelFromEnv(k);
    out[key] = LIST_KEYS.has(key) ? v.split(',').map((s) => s.trim()).filter((s) => s !== '') : v;
  }
  return out;
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
 * One server configuration from defaults < file < environment < flags, validated once by the one schema and
 * frozen. Unknown keys are rejected with a "did you mean" hint, naming the source they came from.
 */
export async function loadServerConfig(sources: ServerConfigSources = {}): Promise<Readonly<ServerConfig>> {
  const layers: [string, Record<string, unknown>][] = [];
  if (sources.file !== undefined) layers.push([`config file ${sources.file}`, await fromFile(sources.file)]);
  if (sources.env !== undefined) layers.push(['environment (RTSERVE_*)', fromEnv(sources.env)]);
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
  return deepFreeze(r.data);
}
