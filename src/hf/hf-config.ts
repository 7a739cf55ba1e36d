/**
 * A Hugging Face `config.json` of a decoder-only model, read into the one architecture description the ONNX decoder
 * builder needs. Three families are understood, by `architectures[0]` (or `model_type`):
 * - Llama (`LlamaForCausalLM`, and `MistralForCausalLM`, which has the same layout): RMSNorm, RoPE, SwiGLU MLP,
 *   grouped-query attention, optional attention / MLP biases, optional tied embeddings;
 * - Qwen2 (`Qwen2ForCausalLM`): the Llama layout with biases on q/k/v (transformers' modeling_qwen2.py);
 * - GPT-2 (`GPT2LMHeadModel`): LayerNorm, learned positions, fused qkv Conv1D, GELU MLP, tied embeddings.
 * Anything this builder would get wrong (sliding-window attention, unknown RoPE scaling, another activation) is
 * refused with the field that asked for it, never approximated.
 */
import { rtError } from '../errors/registry.ts';

export type HfFamily = 'llama' | 'qwen2' | 'gpt2';
export type MlpActivation = 'silu' | 'gelu' | 'gelu_tanh';

export interface RopeSpec {
  readonly theta: number;
  /** One inverse frequency per pair of rotated dimensions (headDim / 2), scaling already applied. */
  readonly invFreq: Float64Array;
}

export interface DecoderArch {
  readonly family: HfFamily;
  /** `architectures[0]` as written (for messages and docs). */
  readonly architecture: string;
  readonly vocabSize: number;
  readonly hiddenSize: number;
  readonly numLayers: number;
  readonly numHeads: number;
  readonly numKvHeads: number;
  readonly headDim: number;
  readonly intermediateSize: number;
  readonly maxPositions: number;
  readonly norm: 'rms' | 'layer';
  readonly normEps: number;
  readonly activation: MlpActivation;
  /** Rotary embeddings (Llama, Qwen2); undefined for learned absolute positions (GPT-2). */
  readonly rope: RopeSpec | undefined;
  readonly qkvBias: boolean;
  readonly outputBias: boolean;
  readonly mlpBias: boolean;
  readonly tiedEmbeddings: boolean;
  readonly bosTokenId: number | undefined;
  readonly eosTokenIds: readonly number[];
}

const ARCHITECTURES: Readonly<Record<string, HfFamily>> = {
  LlamaForCausalLM: 'llama',
  MistralForCausalLM: 'llama',
  Qwen2ForCausalLM: 'qwen2',
  GPT2LMHeadModel: 'gpt2',
};
const MODEL_TYPES: Readonly<Record<string, HfFamily>> = { llama: 'llama', mistral: 'llama', qwen2: 'qwen2', gpt2: 'gpt2' };

type Json = Readonly<Record<string, unknown>>;

class Fields {
  constructor(
    private readonly json: Json,
    readonly source: string,
  ) {}

  fail(message: string): never {
    throw rtError('BAD_CONFIG', `${this.source}: ${message}`);
  }

  has(key: string): boolean {
    return this.json[key] !== undefined && this.json[key] !== null;
  }

  int(key: string, fallback?: number): number {
    const v = this.json[key] ?? fallback;
    if (v === undefined || v === null) return this.fail(`'${key}' is required`);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return this.fail(`'${key}' must be a positive integer, got ${JSON.stringify(v)}`);
    return v;
  }

  num(key: string, fallback: number): number {
    const v = this.json[key] ?? fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return this.fail(`'${key}' must be a positive number, got ${JSON.stringify(v)}`);
    return v;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.json[key] ?? fallback;
    if (typeof v !== 'boolean') return this.fail(`'${key}' must be true or false, got ${JSON.stringify(v)}`);
    return v;
  }

  str(key: string, fallback: string): string {
    const v = this.json[key] ?? fallback;
    if (typeof v !== 'string') return this.fail(`'${key}' must be a string, got ${JSON.stringify(v)}`);
    return v;
  }

  /** A token id or a list of them (generation_config's eos_token_id may be either). */
  ids(key: string): number[] {
    const v = this.json[key];
    if (v === undefined || v === null) return [];
    const list = Array.isArray(v) ? v : [v];
    for (const x of list) {
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 0)
        this.fail(`'${key}' must be a token id or a list of them, got ${JSON.stringify(v)}`);
    }
    return list as number[];
  }
}

function familyOf(f: Fields, json: Json): { family: HfFamily; architecture: string } {
  const archs = json['architectures'];
  const arch = Array.isArray(archs) && typeof archs[0] === 'string' ? archs[0] : undefined;
  if (arch !== undefined) {
    const family = ARCHITECTURES[arch];
    if (family === undefined) {
      f.fail(`architecture '${arch}' is not supported (supported: ${Object.keys(ARCHITECTURES).join(', ')})`);
    }
    return { family: family as HfFamily, architecture: arch };
  }
  const type = json['model_type'];
  const family = typeof type === 'string' ? MODEL_TYPES[type] : undefined;
  if (family === undefined) {
    f.fail(
      `neither 'architectures' nor 'model_type' names a supported model (model_type ${JSON.stringify(type)}; supported: ${Object.keys(MODEL_TYPES).join(', ')})`,
    );
  }
  return { family: family as HfFamily, architecture: String(type) };
}

/**
 * Where a config keeps its RoPE settings: transformers 5 saves one `rope_parameters` object (rope_type, rope_theta
 * and the scaling's fields); earlier versions a top-level `rope_theta` and an optional `rope_scaling` object.
 */
function ropeSettings(f: Fields, json: Json): { theta: number; scaling: unknown; key: string } {
  const params = json['rope_parameters'];
  if (params === undefined || params === null) return { theta: f.num('rope_theta', 10000), scaling: json['rope_scaling'], key: 'rope_scaling' };
  if (typeof params !== 'object') return f.fail(`'rope_parameters' must be an object, got ${JSON.stringify(params)}`);
  const p = new Fields(params as Json, `${f.source} rope_parameters`);
  return { theta: p.num('rope_theta', f.num('rope_theta', 10000)), scaling: params, key: 'rope_parameters' };
}

/**
 * Inverse RoPE frequencies, theta^(-2i/d), with the configured scaling applied (transformers'
 * modeling_rope_utils.py: `linear` divides every frequency by the factor; `llama3` divides only the low
 * frequencies and interpolates the band between low_freq_factor and high_freq_factor).
 */
function ropeOf(f: Fields, json: Json, headDim: number): RopeSpec {
  const { theta, scaling, key } = ropeSettings(f, json);
  const half = headDim / 2;
  const invFreq = new Float64Array(half);
  for (let i = 0; i < half; i++) invFreq[i] = 1 / theta ** ((2 * i) / headDim);
  if (scaling === undefined || scaling === null) return { theta, invFreq };
  if (typeof scaling !== 'object') return f.fail(`'${key}' must be an object, got ${JSON.stringify(scaling)}`);
  const s = new Fields(scaling as Json, `${f.source} ${key}`);
  const type = s.str('rope_type', s.str('type', 'default'));
  if (type === 'default') return { theta, invFreq };
  const factor = s.num('factor', 1);
  if (type === 'linear') {
    for (let i = 0; i < half; i++) invFreq[i] = (invFreq[i] as number) / factor;
    return { theta, invFreq };
  }
  if (type === 'llama3') {
    const low = s.num('low_freq_factor', 1);
    const high = s.num('high_freq_factor', 4);
    const original = s.int('original_max_position_embeddings', 8192);
    const lowWavelen = original / low;
    const highWavelen = original / high;
    for (let i = 0; i < half; i++) {
      const freq = invFreq[i] as number;
      const wavelen = (2 * Math.PI) / freq;
      if (wavelen < highWavelen) continue;
      if (wavelen > lowWavelen) {
        invFreq[i] = freq / factor;
        continue;
      }
      const smooth = (original / wavelen - low) / (high - low);
      invFreq[i] = (1 - smooth) * (freq / factor) + smooth * freq;
    }
    return { theta, invFreq };
  }
  return f.fail(`${key} type '${type}' is not supported (supported: default, linear, llama3)`);
}

function activationOf(f: Fields, key: string, fallback: string): MlpActivation {
  const act = f.str(key, fallback);
  if (act === 'silu' || act === 'swish') return 'silu';
  if (act === 'gelu') return 'gelu';
  if (act === 'gelu_new' || act === 'gelu_pytorch_tanh' || act === 'gelu_fast') return 'gelu_tanh';
  return f.fail(`'${key}' ${JSON.stringify(act)} is not supported (supported: silu, gelu, gelu_new, gelu_pytorch_tanh)`);
}

/**
 * The architecture described by a parsed config.json; `generation` is generation_config.json when present (its
 * bos/eos ids win over config.json's, as in transformers' GenerationConfig.from_model_config).
 */
export function decoderArchOf(json: unknown, source: string, generation?: unknown): DecoderArch {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw rtError('BAD_CONFIG', `${source}: must be a JSON object`);
  const cfg = json as Json;
  const f = new Fields(cfg, source);
  const { family, architecture } = familyOf(f, cfg);
  const gen =
    generation !== null && typeof generation === 'object' && !Array.isArray(generation)
      ? new Fields(generation as Json, 'generation_config.json')
      : undefined;
  const eos = gen?.has('eos_token_id') === true ? gen.ids('eos_token_id') : f.ids('eos_token_id');
  const bosList = gen?.has('bos_token_id') === true ? gen.ids('bos_token_id') : f.ids('bos_token_id');
  const common = { family, architecture, vocabSize: f.int('vocab_size'), bosTokenId: bosList[0], eosTokenIds: eos };
  if (family === 'gpt2') {
    const hiddenSize = f.int('n_embd');
    const numHeads = f.int('n_head');
    if (hiddenSize % numHeads !== 0) f.fail(`'n_embd' (${hiddenSize}) must be a multiple of 'n_head' (${numHeads})`);
    if (f.bool('scale_attn_by_inverse_layer_idx', false)) f.fail(`'scale_attn_by_inverse_layer_idx' true is not supported`);
    if (!f.bool('scale_attn_weights', true)) f.fail(`'scale_attn_weights' false is not supported`);
    return {
      ...common,
      hiddenSize,
      numLayers: f.int('n_layer'),
      numHeads,
      numKvHeads: numHeads,
      headDim: hiddenSize / numHeads,
      intermediateSize: f.int('n_inner', 4 * hiddenSize),
      maxPositions: f.int('n_positions'),
      norm: 'layer',
      normEps: f.num('layer_norm_epsilon', 1e-5),
      activation: activationOf(f, 'activation_function', 'gelu_new'),
      rope: undefined,
      qkvBias: true,
      outputBias: true,
      mlpBias: true,
      tiedEmbeddings: true,
    };
  }
  const hiddenSize = f.int('hidden_size');
  const numHeads = f.int('num_attention_heads');
  const numKvHeads = f.int('num_key_value_heads', numHeads);
  if (numHeads % numKvHeads !== 0) f.fail(`'num_attention_heads' (${numHeads}) must be a multiple of 'num_key_value_heads' (${numKvHeads})`);
  const headDim = f.int('head_dim', Math.floor(hiddenSize / numHeads));
  if (!f.has('head_dim') && hiddenSize % numHeads !== 0)
    f.fail(`'hidden_size' (${hiddenSize}) must be a multiple of 'num_attention_heads' (${numHeads})`);
  if (headDim % 2 !== 0) f.fail(`the head dimension (${headDim}) must be even for rotary embeddings`);
  if (family === 'qwen2' && f.bool('use_sliding_window', false)) f.fail(`'use_sliding_window' true is not supported (sliding-window attention)`);
  // A window at least as long as the context never binds: full attention is the same computation.
  const window = cfg['sliding_window'];
  if (architecture === 'MistralForCausalLM' && typeof window === 'number' && window < f.int('max_position_embeddings', 2048)) {
    f.fail(`'sliding_window' ${window} is shorter than the context (max_position_embeddings); sliding-window attention is not supported`);
  }
  const attentionBias = family === 'qwen2' ? true : f.bool('attention_bias', false);
  return {
    ...common,
    hiddenSize,
    numLayers: f.int('num_hidden_layers'),
    numHeads,
    numKvHeads,
    headDim,
    intermediateSize: f.int('intermediate_size'),
    maxPositions: f.int('max_position_embeddings', 2048),
    norm: 'rms',
    normEps: f.num('rms_norm_eps', 1e-6),
    activation: activationOf(f, 'hidden_act', 'silu'),
    rope: ropeOf(f, cfg, headDim),
    qkvBias: attentionBias,
    // Llama's attention_bias covers o_proj too; Qwen2's o_proj has none.
    outputBias: family === 'qwen2' ? false : attentionBias,
    mlpBias: family === 'qwen2' ? false : f.bool('mlp_bias', false),
    // LlamaConfig and Qwen2Config both default tie_word_embeddings to false.
    tiedEmbeddings: f.bool('tie_word_embeddings', false),
  };
}
