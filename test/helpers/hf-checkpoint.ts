/**
 * Tiny Hugging Face checkpoints written by code (no hub): config.json, safetensors (single file or shards with
 * model.safetensors.index.json; F32, F16 or BF16), generation_config.json, and a byte-level BPE tokenizer.json
 * trained here on a small corpus, with tokenizer_config.json carrying a chat template.
 *
 * Weights are k/64 * 2^-e for small integers k, so they are exact in F16 and BF16 as well as F32: the reference
 * forward pass of the tests uses the very values the server reads, whatever the dtype.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mulberry32 } from '../../src/util/random.ts';

export type Family = 'llama' | 'qwen2' | 'gpt2';
export type Dtype = 'F32' | 'F16' | 'BF16';

export interface NamedTensor {
  readonly name: string;
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/** mulberry32 (src/util/random.ts): a small seeded generator, so every fixture is the same on every run. */
export const rng = mulberry32;

// --- half-precision encoders, written here so the fixtures do not depend on the code under test
function f16Bits(x: number): number {
  // Exact for the fixture's values (normal range, at most 11 significant bits).
  if (x === 0) return Object.is(x, -0) ? 0x8000 : 0;
  const sign = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  const mant = Math.round((a / 2 ** e - 1) * 1024);
  if (e < -14 || e > 15 || mant >= 1024) throw new Error(`fixture value ${x} is not exact in F16`);
  return sign | ((e + 15) << 10) | mant;
}
function bf16Bits(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0] as number;
  if ((u & 0xffff) !== 0) throw new Error(`fixture value ${x} is not exact in BF16`);
  return u >>> 16;
}

function tensorBytes(t: NamedTensor, dtype: Dtype): Uint8Array {
  if (dtype === 'F32') return new Uint8Array(t.data.buffer.slice(t.data.byteOffset, t.data.byteOffset + t.data.byteLength));
  const out = new Uint16Array(t.data.length);
  for (let i = 0; i < t.data.length; i++) out[i] = dtype === 'F16' ? f16Bits(t.data[i] as number) : bf16Bits(t.data[i] as number);
  return new Uint8Array(out.buffer);
}

/** A safetensors file: u64 header length, JSON header (padded with spaces to 8 bytes), data. */
export function safetensorsBytes(tensors: readonly NamedTensor[], dtype: Dtype): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const t of tensors) {
    const b = tensorBytes(t, dtype);
    header[t.name] = { dtype, shape: t.shape, data_offsets: [offset, offset + b.length] };
    parts.push(b);
    offset += b.length;
  }
  let json = JSON.stringify(header);
  while ((8 + json.length) % 8 !== 0) json += ' ';
  const head = new Uint8Array(8);
  new DataView(head.buffer).setBigUint64(0, BigInt(json.length), true);
  const out = new Uint8Array(8 + json.length + offset);
  out.set(head, 0);
  out.set(new TextEncoder().encode(json), 8);
  let at = 8 + json.length;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// --- a byte-level BPE tokenizer trained by code

/** GPT-2's byte-to-unicode table (openai/gpt-2 encoder.py bytes_to_unicode). */
export function bytesToUnicode(): string[] {
  const bs: number[] = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n);
      n++;
    }
  }
  const table: string[] = new Array(256);
  bs.forEach((b, i) => {
    table[b] = String.fromCodePoint(cs[i] as number);
  });
  return table;
}

const GPT2_SPLIT = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

export const CORPUS = [
  'def add(a, b):\n    return a + b\n',
  'The quick brown fox jumps over the lazy dog. The dog sleeps.',
  'Hello world! Hello there, how are you today? I am fine, thank you.',
  'for i in range(10):\n    print(i)\n',
  'Streaming tokens over WebSocket and server-sent events, with stop sequences.',
  'Ünïcödé café naïve — ½ ✓ 日本語 テキスト',
];

export interface TrainedTokenizer {
  readonly vocab: Record<string, number>;
  readonly merges: string[];
}

/** Byte-level BPE (Sennrich et al. 2016, GPT-2's byte variant): the most frequent adjacent pair, merged, `merges` times. */
export function trainBpe(corpus: readonly string[], merges: number): TrainedTokenizer {
  const table = bytesToUnicode();
  const words = new Map<string, number>();
  for (const text of corpus) {
    for (const m of text.matchAll(GPT2_SPLIT)) {
      const w = [...new TextEncoder().encode(m[0])].map((b) => table[b]).join('');
      words.set(w, (words.get(w) ?? 0) + 1);
    }
  }
  const vocab: Record<string, number> = {};
  table.forEach((c, i) => {
    vocab[c] = i;
  });
  let split = [...words].map(([w, n]) => ({ parts: [...w], n }));
  const out: string[] = [];
  for (let k = 0; k < merges; k++) {
    const counts = new Map<string, number>();
    for (const { parts, n } of split)
      for (let i = 0; i + 1 < parts.length; i++) counts.set(`${parts[i]} ${parts[i + 1]}`, (counts.get(`${parts[i]} ${parts[i + 1]}`) ?? 0) + n);
    let best: string | undefined;
    let bestN = 1;
    for (const [pair, n] of counts) if (n > bestN || (n === bestN && best !== undefined && pair < best)) [best, bestN] = [pair, n];
    if (best === undefined) break;
    const [a, b] = best.split(' ') as [string, string];
    out.push(best);
    vocab[a + b] = Object.keys(vocab).length;
    split = split.map(({ parts, n }) => {
      const merged: string[] = [];
      for (let i = 0; i < parts.length; i++) {
        if (parts[i] === a && parts[i + 1] === b) {
          merged.push(a + b);
          i++;
        } else merged.push(parts[i] as string);
      }
      return { parts: merged, n };
    });
  }
  return { vocab, merges: out };
}

const BYTE_LEVEL = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };

/**
 * The pre-tokenizers of the real checkpoints' tokenizer.json: GPT-2's ByteLevel with its own regex; Qwen2's and
 * Llama 3's Split on their regex (Llama 3 groups digits by three), then ByteLevel without a regex; Qwen2 also
 * normalizes to NFC. Llama 3 writes merges as pairs (tokenizers >= 0.20), the others as "a b" strings.
 */
const SPLIT_REGEX: Readonly<Record<Family, string | undefined>> = {
  gpt2: undefined,
  qwen2: "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  llama: "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
};

function preTokenizerOf(family: Family): Record<string, unknown> {
  const regex = SPLIT_REGEX[family];
  if (regex === undefined) return BYTE_LEVEL;
  return {
    type: 'Sequence',
    pretokenizers: [
      { type: 'Split', pattern: { Regex: regex }, behavior: 'Isolated', invert: false },
      { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    ],
  };
}

export interface FamilyText {
  readonly specials: readonly string[];
  readonly bos: string | undefined;
  readonly eos: string;
  /** A second end token (generation_config.json's list), e.g. Llama 3's <|eot_id|>. */
  readonly eot: string | undefined;
  readonly chatTemplate: string;
}

export const FAMILY_TEXT: Readonly<Record<Family, FamilyText>> = {
  llama: {
    specials: ['<|begin_of_text|>', '<|end_of_text|>', '<|start_header_id|>', '<|end_header_id|>', '<|eot_id|>'],
    bos: '<|begin_of_text|>',
    eos: '<|end_of_text|>',
    eot: '<|eot_id|>',
    chatTemplate:
      "{{ bos_token }}{% for message in messages %}{{ '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' + message['content'] + '<|eot_id|>' }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{% endif %}",
  },
  qwen2: {
    specials: ['<|endoftext|>', '<|im_start|>', '<|im_end|>'],
    bos: undefined,
    eos: '<|im_end|>',
    eot: '<|endoftext|>',
    chatTemplate:
      "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}",
  },
  gpt2: {
    specials: ['<|endoftext|>'],
    bos: '<|endoftext|>',
    eos: '<|endoftext|>',
    eot: undefined,
    chatTemplate:
      "{% for message in messages %}{{ message['role'] + ': ' + message['content'] + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ 'assistant:' }}{% endif %}",
  },
};

export interface TokenizerFiles {
  readonly tokenizerJson: Record<string, unknown>;
  readonly tokenizerConfig: Record<string, unknown>;
  readonly vocabSize: number;
  readonly ids: Readonly<Record<string, number>>;
}

export function tokenizerFiles(family: Family, merges = 120): TokenizerFiles {
  const t = FAMILY_TEXT[family];
  const { vocab, merges: ms } = trainBpe(CORPUS, merges);
  const base = Object.keys(vocab).length;
  const ids: Record<string, number> = {};
  const added = t.specials.map((content, i) => {
    ids[content] = base + i;
    return { id: base + i, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
  });
  // Llama 3 adds its BOS by a TemplateProcessing post-processor; GPT-2 and Qwen2 add nothing (GPT-2's
  // tokenizer.json has a ByteLevel post-processor).
  const postProcessor =
    family === 'llama'
      ? {
          type: 'TemplateProcessing',
          single: [{ SpecialToken: { id: t.bos, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
          pair: [{ SpecialToken: { id: t.bos, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
          special_tokens: { [t.bos as string]: { id: t.bos, ids: [ids[t.bos as string]], tokens: [t.bos] } },
        }
      : BYTE_LEVEL;
  const tokenizerJson = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: family === 'qwen2' ? { type: 'NFC' } : null,
    pre_tokenizer: preTokenizerOf(family),
    post_processor: postProcessor,
    decoder: BYTE_LEVEL,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges: family === 'llama' ? ms.map((m) => m.split(' ')) : ms,
    },
  };
  const tokenizerConfig = {
    tokenizer_class: 'PreTrainedTokenizerFast',
    bos_token: t.bos ?? null,
    eos_token: t.eos,
    clean_up_tokenization_spaces: false,
    chat_template: t.chatTemplate,
  };
  return { tokenizerJson, tokenizerConfig, vocabSize: base + t.specials.length, ids };
}

// --- the model

export interface TinyModel {
  readonly family: Family;
  readonly config: Record<string, unknown>;
  readonly tensors: readonly NamedTensor[];
  readonly tokenizer: TokenizerFiles;
}

export interface TinyOptions {
  readonly seed?: number;
  readonly hidden?: number;
  readonly layers?: number;
  readonly heads?: number;
  readonly kvHeads?: number;
  readonly intermediate?: number;
  readonly maxPositions?: number;
  readonly tied?: boolean;
  /** Llama 3's rope_scaling, to cover the scaled frequencies. */
  readonly llama3Rope?: boolean;
  /** A model vocabulary larger than the tokenizer's (padded, as Qwen2's is), for benchmarks of realistic size. */
  readonly vocabSize?: number;
}

export function tinyModel(family: Family, o: TinyOptions = {}): TinyModel {
  const tokenizer = tokenizerFiles(family);
  const V = Math.max(tokenizer.vocabSize, o.vocabSize ?? 0);
  const H = o.hidden ?? 32;
  const L = o.layers ?? 2;
  const nH = o.heads ?? 4;
  const kvH = o.kvHeads ?? (family === 'gpt2' ? nH : 2);
  const D = H / nH;
  const I = o.intermediate ?? 48;
  const P = o.maxPositions ?? 128;
  const r = rng(o.seed ?? 7);
  const tensors: NamedTensor[] = [];
  // k/64 * scale with |k| <= 32: exact in F16 and BF16.
  // Norm weights are 1 + k/128 (offset 1, scale 0.5): 7 significant bits, still exact in BF16.
  const add = (name: string, shape: number[], scale = 1, offset = 0): void => {
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = offset + (Math.round((r() * 2 - 1) * 32) / 64) * scale;
    tensors.push({ name, shape, data });
  };
  const ids = tokenizer.ids;
  const t = FAMILY_TEXT[family];
  if (family === 'gpt2') {
    add('wte.weight', [V, H], 0.5);
    add('wpe.weight', [P, H], 0.25);
    for (let l = 0; l < L; l++) {
      const p = `h.${l}.`;
      add(`${p}ln_1.weight`, [H], 0.5, 1);
      add(`${p}ln_1.bias`, [H], 0.125);
      add(`${p}attn.c_attn.weight`, [H, 3 * H], 0.5);
      add(`${p}attn.c_attn.bias`, [3 * H], 0.125);
      add(`${p}attn.c_proj.weight`, [H, H], 0.25);
      add(`${p}attn.c_proj.bias`, [H], 0.125);
      add(`${p}ln_2.weight`, [H], 0.5, 1);
      add(`${p}ln_2.bias`, [H], 0.125);
      add(`${p}mlp.c_fc.weight`, [H, I], 0.25);
      add(`${p}mlp.c_fc.bias`, [I], 0.125);
      add(`${p}mlp.c_proj.weight`, [I, H], 0.25);
      add(`${p}mlp.c_proj.bias`, [H], 0.125);
    }
    add('ln_f.weight', [H], 0.5, 1);
    add('ln_f.bias', [H], 0.125);
    const config = {
      architectures: ['GPT2LMHeadModel'],
      model_type: 'gpt2',
      vocab_size: V,
      n_embd: H,
      n_layer: L,
      n_head: nH,
      n_positions: P,
      n_inner: I,
      activation_function: 'gelu_new',
      layer_norm_epsilon: 1e-5,
      bos_token_id: ids[t.eos],
      eos_token_id: ids[t.eos],
      torch_dtype: 'float32',
    };
    return { family, config, tensors, tokenizer };
  }
  const tied = o.tied ?? family === 'qwen2';
  add('model.embed_tokens.weight', [V, H], 0.5);
  for (let l = 0; l < L; l++) {
    const p = `model.layers.${l}.`;
    add(`${p}input_layernorm.weight`, [H], 0.5, 1);
    add(`${p}self_attn.q_proj.weight`, [nH * D, H], 0.5);
    add(`${p}self_attn.k_proj.weight`, [kvH * D, H], 0.5);
    add(`${p}self_attn.v_proj.weight`, [kvH * D, H], 0.5);
    if (family === 'qwen2') {
      add(`${p}self_attn.q_proj.bias`, [nH * D], 0.25);
      add(`${p}self_attn.k_proj.bias`, [kvH * D], 0.25);
      add(`${p}self_attn.v_proj.bias`, [kvH * D], 0.25);
    }
    add(`${p}self_attn.o_proj.weight`, [H, nH * D], 0.25);
    add(`${p}post_attention_layernorm.weight`, [H], 0.5, 1);
    add(`${p}mlp.gate_proj.weight`, [I, H], 0.5);
    add(`${p}mlp.up_proj.weight`, [I, H], 0.5);
    add(`${p}mlp.down_proj.weight`, [H, I], 0.25);
  }
  add('model.norm.weight', [H], 0.5, 1);
  if (!tied) add('lm_head.weight', [V, H], 0.5);
  const config: Record<string, unknown> = {
    architectures: [family === 'qwen2' ? 'Qwen2ForCausalLM' : 'LlamaForCausalLM'],
    model_type: family,
    vocab_size: V,
    hidden_size: H,
    intermediate_size: I,
    num_hidden_layers: L,
    num_attention_heads: nH,
    num_key_value_heads: kvH,
    max_position_embeddings: P,
    hidden_act: 'silu',
    rms_norm_eps: 1e-6,
    rope_theta: family === 'qwen2' ? 1000000 : 500000,
    tie_word_embeddings: tied,
    bos_token_id: t.bos === undefined ? null : ids[t.bos],
    eos_token_id: ids[t.eos],
    torch_dtype: 'bfloat16',
  };
  if (o.llama3Rope === true) {
    config['rope_scaling'] = { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 16 };
  }
  return { family, config, tensors, tokenizer };
}

export interface WriteOptions {
  readonly dtype?: Dtype;
  /** Split the weights over this many shards with model.safetensors.index.json; 1 = one model.safetensors. */
  readonly shards?: number;
  /** Prepended to every tensor name in the files (GPT-2 checkpoints saved from GPT2LMHeadModel use `transformer.`). */
  readonly namePrefix?: string;
}

/** Writes the checkpoint into `dir` (created). */
export async function writeCheckpoint(dir: string, m: TinyModel, o: WriteOptions = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  const dtype = o.dtype ?? 'F32';
  const shards = o.shards ?? 1;
  const tensors = m.tensors.map((t) => ({ ...t, name: (o.namePrefix ?? '') + t.name }));
  await writeFile(join(dir, 'config.json'), JSON.stringify(m.config, null, 2));
  const t = FAMILY_TEXT[m.family];
  const eos = [m.tokenizer.ids[t.eos] as number, ...(t.eot === undefined ? [] : [m.tokenizer.ids[t.eot] as number])];
  await writeFile(join(dir, 'generation_config.json'), JSON.stringify({ bos_token_id: m.config['bos_token_id'], eos_token_id: eos }));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(m.tokenizer.tokenizerJson));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(m.tokenizer.tokenizerConfig));
  if (shards === 1) {
    await writeFile(join(dir, 'model.safetensors'), safetensorsBytes(tensors, dtype));
    return;
  }
  const weightMap: Record<string, string> = {};
  for (let s = 0; s < shards; s++) {
    const file = `model-${String(s + 1).padStart(5, '0')}-of-${String(shards).padStart(5, '0')}.safetensors`;
    const part = tensors.filter((_, i) => i % shards === s);
    for (const x of part) weightMap[x.name] = file;
    await writeFile(join(dir, file), safetensorsBytes(part, dtype));
  }
  await writeFile(join(dir, 'model.safetensors.index.json'), JSON.stringify({ metadata: { total_size: 0 }, weight_map: weightMap }));
}
