/**
 * A Hugging Face checkpoint as a model version rtserve serves (docs/huggingface.md): a version directory holding
 * `config.json` and `model.safetensors` (or shards with `model.safetensors.index.json`), plus `tokenizer.json`,
 * and optionally `tokenizer_config.json`, `generation_config.json` and `chat_template.jinja`.
 *
 * Loading builds the ONNX decoder (decoder-graph.ts) into a cache directory keyed by what the graph depends on
 * (the builder version, config.json, and each weight file's name, size and modification time), so a restart or a
 * second instance reuses it; the engine then loads that file like any ONNX model. It also gives the `generate`
 * section the model's config defaults to (vocabulary, end of sequence, layers, context) and the warmup that runs a
 * one-token step, since a default zero run cannot guess that the mask is one longer than the cache.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rtError, toRtError } from '../errors/registry.ts';
import { saveModel } from '../onnx/proto.ts';
import { buildDecoderGraph } from './decoder-graph.ts';
import { decoderArchOf, type DecoderArch } from './hf-config.ts';
import { loadHfText, type HfText } from './hf-text.ts';
import { INDEX_FILE, SINGLE_FILE, SafetensorsCheckpoint } from './safetensors.ts';

/** Bumped whenever decoder-graph.ts would build a different graph from the same checkpoint. */
export const HF_BUILDER_VERSION = 'rtserve-hf-decoder-2';
export const HF_CONFIG_FILE = 'config.json';
export const GENERATION_CONFIG_FILE = 'generation_config.json';
export const HF_BACKEND = 'huggingface';
/** The context a model gets when its max_position_embeddings is larger and the config sets no `max_context`. */
export const DEFAULT_MAX_CONTEXT = 4096;

/** Whether a version directory's file names are a Hugging Face checkpoint (config.json plus safetensors). */
export function isHfCheckpoint(fileNames: readonly string[]): boolean {
  return fileNames.includes(HF_CONFIG_FILE) && (fileNames.includes(SINGLE_FILE) || fileNames.includes(INDEX_FILE));
}

export interface HfDecoder {
  readonly arch: DecoderArch;
  /** The ONNX graph to load (its weights.bin beside it). */
  readonly onnxPath: string;
  readonly text: HfText;
  /** Defaults for the model config: backend, max_batch_size, generate section, warmup. */
  readonly configDefaults: Readonly<Record<string, unknown>>;
}

export async function readJsonFile(path: string, file: string, required: boolean): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (!required && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw rtError('MODEL_LOAD_FAILED', `cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw rtError('BAD_CONFIG', `${file}: invalid JSON: ${(err as Error).message}`);
  }
}

async function cacheKey(dir: string, configText: string, files: readonly string[]): Promise<string> {
  const h = createHash('sha256').update(HF_BUILDER_VERSION).update('\0').update(configText);
  for (const f of files) {
    const s = await stat(join(dir, f));
    h.update(`\0${f}\0${s.size}\0${s.mtimeMs}`);
  }
  return h.digest('hex').slice(0, 32);
}

/** Builds (or finds in `cacheRoot`) the ONNX decoder of a checkpoint; returns the model.onnx path. */
async function materialize(dir: string, arch: DecoderArch, configText: string, cacheRoot: string): Promise<string> {
  const ckpt = await SafetensorsCheckpoint.open(dir);
  const target = join(cacheRoot, await cacheKey(dir, configText, ckpt.files));
  const onnxPath = join(target, 'model.onnx');
  if (
    await stat(onnxPath).then(
      () => true,
      () => false,
    )
  )
    return onnxPath;
  const tmp = `${target}.tmp-${randomUUID()}`;
  await mkdir(tmp, { recursive: true });
  try {
    const weights = await open(join(tmp, 'weights.bin'), 'w');
    let built: Awaited<ReturnType<typeof buildDecoderGraph>>;
    try {
      built = await buildDecoderGraph(arch, ckpt, weights);
    } finally {
      await weights.close();
    }
    await writeFile(join(tmp, 'model.onnx'), saveModel(built.graph));
    // Another loader may have finished the same build meanwhile: its copy is as good as ours.
    await rename(tmp, target).catch(async (err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return onnxPath;
}

function warmupOf(arch: DecoderArch): Record<string, unknown> {
  const inputs: Record<string, unknown> = {
    input_ids: { data_type: 'TYPE_INT64', dims: [1], zero_data: true },
    position_ids: { data_type: 'TYPE_INT64', dims: [1], zero_data: true },
    attention_mask: { data_type: 'TYPE_INT64', dims: [2], zero_data: true },
    logits_index: { data_type: 'TYPE_INT64', dims: [], zero_data: true },
  };
  for (let l = 0; l < arch.numLayers; l++) {
    for (const kv of ['key', 'value']) {
      inputs[`past_key_values.${l}.${kv}`] = { data_type: 'TYPE_FP32', dims: [arch.numKvHeads, 1, arch.headDim], zero_data: true };
    }
  }
  return { name: 'one decode step', batch_size: 1, inputs };
}

export interface LoadHfOptions {
  /** Where built graphs are kept. */
  readonly cacheRoot: string;
  /** Caps the context (default: max_position_embeddings, at most DEFAULT_MAX_CONTEXT). */
  readonly maxContext?: number;
}

/**
 * Reads a checkpoint directory: config.json (architecture), generation_config.json (end-of-sequence ids),
 * the tokenizer and chat template, then builds or reuses the ONNX decoder. Errors name the file and field.
 */
export async function loadHfDecoder(dir: string, options: LoadHfOptions): Promise<HfDecoder> {
  try {
    const configText = await readFile(join(dir, HF_CONFIG_FILE), 'utf8').catch((err: unknown) => {
      throw rtError('MODEL_LOAD_FAILED', `cannot read ${HF_CONFIG_FILE}: ${(err as Error).message}`);
    });
    let configJson: unknown;
    try {
      configJson = JSON.parse(configText) as unknown;
    } catch (err) {
      throw rtError('BAD_CONFIG', `${HF_CONFIG_FILE}: invalid JSON: ${(err as Error).message}`);
    }
    const generation = await readJsonFile(join(dir, GENERATION_CONFIG_FILE), GENERATION_CONFIG_FILE, false);
    const arch = decoderArchOf(configJson, HF_CONFIG_FILE, generation);
    const text = await loadHfText(dir, arch.eosTokenIds, arch.vocabSize);
    const onnxPath = await materialize(dir, arch, configText, options.cacheRoot);
    const maxContext = Math.min(arch.maxPositions, options.maxContext ?? DEFAULT_MAX_CONTEXT);
    const [eos, ...moreStops] = text.stopTokenIds as [number, ...number[]];
    const configDefaults = {
      backend: HF_BACKEND,
      max_batch_size: 64,
      generate: {
        tokenizer: 'huggingface',
        vocab_size: arch.vocabSize,
        eos_token_id: eos,
        ...(moreStops.length > 0 ? { stop_token_ids: moreStops } : {}),
        max_context: maxContext,
        num_layers: arch.numLayers,
      },
      model_warmup: [warmupOf(arch)],
    };
    return { arch, onnxPath, text, configDefaults };
  } catch (err) {
    const e = toRtError(err);
    // An unexpected failure (a library's own error) keeps its message and becomes a load failure.
    const internal = e.category === 'INTERNAL' && err instanceof Error && !(err.name === 'RtError');
    throw rtError(internal ? 'MODEL_LOAD_FAILED' : e.code, `Hugging Face checkpoint ${dir}: ${internal ? (err as Error).message : e.message}`, {
      cause: err,
    });
  }
}
