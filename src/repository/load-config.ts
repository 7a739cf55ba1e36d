/**
 * Loads a model's configuration: reads its config file (JSON, YAML or Triton text format), drops the Triton fields
 * rtserve does not support (with warnings), validates it against the strict ModelConfig schema (unknown keys are
 * errors with a "did you mean" hint), checks the name, and auto-completes it from the ONNX graph.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseDocument } from 'yaml';
import { rtError } from '../errors/registry.ts';
import { describeZodError } from '../config/hint.ts';
import { modelConfigSchema } from '../config/model-config.ts';
import type { ModelConfig } from '../config/model-config.ts';
import { readGraphIO } from '../onnx/graph-io.ts';
import type { GraphIO } from '../onnx/graph-io.ts';
import { autoCompleteConfig } from './auto-complete.ts';
import { HF_BACKEND } from '../hf/checkpoint.ts';
import { UNSUPPORTED_SCHEDULERS, dropUnsupportedFields } from './config-fields.ts';
import { parsePbtxt } from './pbtxt.ts';
import { findModelFile } from './scan.ts';
import type { ConfigFormat, ModelEntry } from './scan.ts';

/** Triton's `--default-max-batch-size` default (docs/protocol.md §1.1). */
export const DEFAULT_MAX_BATCH_SIZE = 4;

export interface LoadModelConfigOptions {
  /** max_batch_size given to a model that can batch and whose config does not set it; 4 by default. */
  readonly defaultMaxBatchSize?: number;
  /** The ONNX model the config describes; read from the highest version's model file when absent. */
  readonly onnxBytes?: Uint8Array;
  /** The graph's inputs and outputs, when the caller has them already (e.g. from a plan manifest). */
  readonly graph?: GraphIO;
  /** How messages name a model given as `onnxBytes` or `graph`, e.g. `2/model.onnx`; default `the model`. */
  readonly graphSource?: string;
  /** False mirrors Triton's `--disable-auto-complete-config`: the config must be complete; it is still checked. */
  readonly autoComplete?: boolean;
  /**
   * A config given with a load request (Triton's load API `"config"` parameter, docs/protocol.md §1.4): JSON text or an
   * already parsed object. It replaces the config file.
   */
  readonly configOverride?: string | Readonly<Record<string, unknown>>;
  /**
   * Values the model files imply (a Hugging Face checkpoint's backend, generate section and warmup): the config
   * file's own values win, key by key, and within the `generate` section field by field.
   */
  readonly defaults?: Readonly<Record<string, unknown>>;
}

export interface LoadedModelConfig {
  /** Validated, completed and deeply frozen. */
  readonly config: ModelConfig;
  readonly warnings: readonly string[];
  /** What auto-complete filled in, one line each. */
  readonly filled: readonly string[];
  /** Where the config came from: `config.pbtxt`, `the load request`, or `auto-complete` when there is no file. */
  readonly source: string;
}

/** 1-based line and column of a character offset, for messages. */
function lineColOf(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}

export interface ParsedConfigText {
  /** The config object in the schema's JSON spelling, not yet validated; unsupported Triton fields removed. */
  readonly value: Record<string, unknown>;
  readonly warnings: string[];
  /** Paths of the unsupported fields that were dropped. */
  readonly dropped: string[];
}

/** Parses config text in one of the three formats; syntax errors are BAD_CONFIG naming `source:line:col`. */
export function parseConfigText(text: string, format: ConfigFormat, source: string): ParsedConfigText {
  if (format === 'pbtxt') {
    const r = parsePbtxt(text, source);
    return { value: r.config as Record<string, unknown>, warnings: r.warnings, dropped: r.dropped };
  }
  let value: unknown;
  if (format === 'json') {
    try {
      value = JSON.parse(text);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const pos = /at position (\d+)/.exec(message);
      const where = pos === null ? '' : `:${lineColOf(text, Number(pos[1]))}`;
      throw rtError('BAD_CONFIG', `${source}${where}: invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`);
    }
  } else {
    // uniqueKeys (the default) makes a repeated key an error rather than a silent override.
    const doc = parseDocument(text, { prettyErrors: false });
    const first = doc.errors[0];
    if (first !== undefined) throw rtError('BAD_CONFIG', `${source}:${lineColOf(text, first.pos[0])}: invalid YAML: ${first.message}`);
    value = doc.toJS({ maxAliasCount: 100 });
    // An empty YAML file is an empty config.
    if (value === null || value === undefined) value = {};
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw rtError('BAD_CONFIG', `${source}: the model config must be an object (a mapping of keys to values)`);
  }
  const r = dropUnsupportedFields(value, source);
  return { value: r.value as Record<string, unknown>, warnings: r.warnings, dropped: r.dropped };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The graph of the highest version that has an ONNX file, or undefined when no version has one. */
async function graphOfLatestVersion(
  entry: ModelEntry,
  defaultModelFilename: string | undefined,
): Promise<{ graph: GraphIO; source: string } | undefined> {
  for (const version of [...entry.versions].reverse()) {
    const file = findModelFile(version, { defaultModelFilename, kinds: ['onnx'] });
    if (file === undefined) continue;
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file.path);
    } catch (err) {
      throw rtError('MODEL_LOAD_FAILED', `model '${entry.name}': cannot read ${version.version}/${file.fileName}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    return { graph: readGraphIO(bytes), source: `${version.version}/${file.fileName}` };
  }
  return undefined;
}

/**
 * The model's config, validated and completed. Throws BAD_CONFIG (syntax, schema, name or graph mismatch) with
 * a message that names the file, the key path and, for typos, the closest valid key.
 */
export async function loadModelConfig(entry: ModelEntry, options: LoadModelConfigOptions = {}): Promise<LoadedModelConfig> {
  const warnings: string[] = [];
  let parsed: ParsedConfigText = { value: {}, warnings: [], dropped: [] };
  let source = 'auto-complete';

  if (options.configOverride !== undefined) {
    source = 'the load request';
    const override = options.configOverride;
    parsed = parseConfigText(typeof override === 'string' ? override : JSON.stringify(override), 'json', source);
  } else if (entry.configFile !== undefined) {
    source = entry.configFile.fileName;
    let text: string;
    try {
      text = await readFile(entry.configFile.path, 'utf8');
    } catch (err) {
      throw rtError('BAD_CONFIG', `model '${entry.name}': cannot read ${source}: ${(err as Error).message}`, { cause: err });
    }
    parsed = parseConfigText(text, entry.configFile.format, source);
    for (const shadowed of entry.shadowedConfigFiles) {
      warnings.push(`${shadowed}: ignored because ${source} takes precedence`);
    }
  }
  warnings.push(...parsed.warnings);

  const raw: Record<string, unknown> = { ...options.defaults, ...parsed.value };
  const generateDefaults = options.defaults?.['generate'];
  const generateGiven = parsed.value['generate'];
  if (isObject(generateDefaults) && isObject(generateGiven)) raw['generate'] = { ...generateDefaults, ...generateGiven };
  if (raw['name'] !== undefined && raw['name'] !== entry.name) {
    throw rtError(
      'BAD_CONFIG',
      `model '${entry.name}': ${source} has name ${JSON.stringify(raw['name'])}, but a config name must equal its ` +
        `directory name '${basename(entry.dir)}'`,
    );
  }
  raw['name'] = entry.name;
  const maxBatchSizeSet = Object.hasOwn(raw, 'max_batch_size');

  const result = modelConfigSchema.safeParse(raw);
  if (!result.success) {
    const problems = describeZodError(result.error, modelConfigSchema, raw);
    throw rtError('BAD_CONFIG', `model '${entry.name}': ${source}: ${problems.join('; ')}`);
  }
  const config = result.data;

  const fill = options.autoComplete ?? true;
  let graph: { graph: GraphIO; source: string } | undefined;
  const given = options.graphSource ?? 'the model';
  if (options.graph !== undefined) graph = { graph: options.graph, source: given };
  else if (options.onnxBytes !== undefined) graph = { graph: readGraphIO(options.onnxBytes), source: given };
  else graph = await graphOfLatestVersion(entry, config.default_model_filename);

  if (graph === undefined && config.backend === HF_BACKEND) {
    throw rtError(
      'BAD_CONFIG',
      `model '${entry.name}': backend '${HF_BACKEND}' needs a Hugging Face checkpoint in its newest version directory (config.json and model.safetensors or model.safetensors.index.json)`,
    );
  }
  if (graph === undefined) {
    // Nothing to complete from (no ONNX file, e.g. only model.plan): the config must describe the model itself.
    if (config.input.length === 0 || config.output.length === 0) {
      const wanted = config.default_model_filename ?? 'model.onnx';
      throw rtError(
        'BAD_CONFIG',
        `model '${entry.name}': ${source === 'auto-complete' ? 'there is no config file' : `${source} lists no ${config.input.length === 0 ? 'inputs' : 'outputs'}`} ` +
          `and no version has a ${wanted} to auto-complete the config from`,
      );
    }
    return { config: deepFreeze(config), warnings, filled: [], source };
  }

  const completed = autoCompleteConfig(config, graph.graph, {
    defaultMaxBatchSize: options.defaultMaxBatchSize ?? DEFAULT_MAX_BATCH_SIZE,
    maxBatchSizeSet,
    otherSchedulerRequested: parsed.dropped.some((p) => UNSUPPORTED_SCHEDULERS.includes(p)),
    fill,
    configSource: source === 'auto-complete' ? 'the config' : source,
    graphSource: graph.source,
  });
  return { config: deepFreeze(completed.config), warnings, filled: completed.filled, source };
}
