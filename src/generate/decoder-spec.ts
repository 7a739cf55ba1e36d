/**
 * What the decoding loop needs to know about a decoder model: the names of its inputs and outputs (from the
 * config's `generate` section), the cache geometry (from the graph: [batch, kv_heads, length, head_dim]) and
 * the tokenizer. Checked once when a batcher is made, so a mismatched config fails with a message naming the
 * tensor instead of an engine error at the first request.
 */
import type { GenerateSection, ModelConfig } from '../config/model-config.ts';
import type { DataType } from '../tensor/datatype.ts';
import type { TensorMetadata } from '../tensor/tensor.ts';
import type { SessionDescription } from '../engine/engine.ts';
import { rtError } from '../errors/registry.ts';
import { tokenizerFor, type Tokenizer } from './tokenizer.ts';

export type IndexType = 'INT64' | 'INT32';
export type MaskType = 'INT64' | 'INT32' | 'FP32' | 'BOOL';

export interface ChatTemplate {
  readonly system: string;
  readonly user: string;
  readonly assistant: string;
  readonly generationPrompt: string;
  /** A whole-conversation renderer (a checkpoint's Jinja chat template); when set, the strings above are unused. */
  readonly render?: ((messages: readonly { readonly role: string; readonly content: string }[]) => string) | undefined;
}

/**
 * Text handling that comes with the model files rather than the config (a Hugging Face checkpoint's tokenizer.json
 * and chat template, src/hf/hf-text.ts), for `generate.tokenizer: huggingface`.
 */
export interface DecoderText {
  readonly tokenizer: Tokenizer;
  readonly renderChat: ChatTemplate['render'];
  readonly stopTokenIds: readonly number[];
}

export interface DecoderSpec {
  readonly model: string;
  readonly inputIds: string;
  readonly idsType: IndexType;
  readonly positionIds: string;
  readonly positionsType: IndexType;
  readonly attentionMask: string;
  readonly maskType: MaskType;
  /** The optional [batch] input choosing one position's logits per row (logits are then [batch, 1, vocab]). */
  readonly logitsIndex: string | undefined;
  readonly logitsIndexType: IndexType;
  readonly pastKey: readonly string[];
  readonly pastValue: readonly string[];
  readonly logits: string;
  readonly presentKey: readonly string[];
  readonly presentValue: readonly string[];
  readonly numLayers: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly vocabSize: number;
  readonly eosTokenId: number;
  /** Every token id that ends a sequence: eos_token_id, the config's stop_token_ids and the checkpoint's. */
  readonly stopTokenIds: ReadonlySet<number>;
  readonly bosTokenId: number | undefined;
  readonly maxContext: number;
  readonly tokenizer: Tokenizer;
  readonly chatTemplate: ChatTemplate;
  /** Every output the step asks for, logits first, then present key/value per layer. */
  readonly outputNames: readonly string[];
}

function layerNames(template: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => template.replaceAll('{layer}', String(i)));
}

/** The generate section of a config, or undefined for an ordinary model. */
export function generateSectionOf(config: ModelConfig): GenerateSection | undefined {
  return config.generate;
}

export function decoderSpecOf(config: ModelConfig, description: SessionDescription, text?: DecoderText): DecoderSpec {
  const g = config.generate;
  const model = config.name;
  if (g === undefined) throw rtError('UNSUPPORTED', `model '${model}' is not a generative model (its config has no 'generate' section)`);
  const bad = (msg: string): never => {
    throw rtError('BAD_CONFIG', `model '${model}': generate: ${msg}`);
  };
  const find = (list: readonly TensorMetadata[], name: string, kind: string, key: string): TensorMetadata =>
    list.find((t) => t.name === name) ??
    bad(`${key} names ${kind} '${name}', which the model does not have (${kind}s: ${list.map((t) => t.name).join(', ')})`);
  const typeIn = <T extends DataType>(t: TensorMetadata, allowed: readonly T[], key: string): T =>
    (allowed as readonly DataType[]).includes(t.datatype)
      ? (t.datatype as T)
      : bad(`${key} '${t.name}' is ${t.datatype}; supported: ${allowed.join(', ')}`);

  const ins = description.inputs;
  const outs = description.outputs;
  const ids = find(ins, g.inputs.input_ids, 'input', 'inputs.input_ids');
  const pos = find(ins, g.inputs.position_ids, 'input', 'inputs.position_ids');
  const mask = find(ins, g.inputs.attention_mask, 'input', 'inputs.attention_mask');
  const logits = find(outs, g.outputs.logits, 'output', 'outputs.logits');
  const logitsIndex = ins.find((t) => t.name === g.inputs.logits_index);
  const pastKey = layerNames(g.inputs.past_key, g.num_layers);
  const pastValue = layerNames(g.inputs.past_value, g.num_layers);
  const presentKey = layerNames(g.outputs.present_key, g.num_layers);
  const presentValue = layerNames(g.outputs.present_value, g.num_layers);
  let kvHeads = 0;
  let headDim = 0;
  const cacheTensors = [
    ...pastKey.map((n) => find(ins, n, 'input', 'inputs.past_key')),
    ...pastValue.map((n) => find(ins, n, 'input', 'inputs.past_value')),
    ...presentKey.map((n) => find(outs, n, 'output', 'outputs.present_key')),
    ...presentValue.map((n) => find(outs, n, 'output', 'outputs.present_value')),
  ];
  for (const t of cacheTensors) {
    if (t.datatype !== 'FP32') bad(`cache tensor '${t.name}' is ${t.datatype}; only FP32 caches are supported`);
    const [, h, , d] = t.shape;
    if (t.shape.length !== 4 || h === undefined || d === undefined || h <= 0 || d <= 0) {
      bad(
        `cache tensor '${t.name}' must have shape [batch, kv_heads, length, head_dim] with fixed kv_heads and head_dim, got [${t.shape.join(', ')}]`,
      );
    }
    if (kvHeads === 0) {
      kvHeads = h as number;
      headDim = d as number;
    } else if (h !== kvHeads || d !== headDim) {
      bad(`cache tensor '${t.name}' has shape [${t.shape.join(', ')}], unlike the others ([-1, ${kvHeads}, -1, ${headDim}])`);
    }
  }
  const lastDim = logits.shape.at(-1);
  if (logits.shape.length !== 3 || (lastDim !== undefined && lastDim > 0 && lastDim !== g.vocab_size)) {
    bad(`output '${logits.name}' must be [batch, seq, vocab_size=${g.vocab_size}], got [${logits.shape.join(', ')}]`);
  }
  if (g.eos_token_id >= g.vocab_size) bad(`eos_token_id ${g.eos_token_id} is outside the vocabulary (vocab_size ${g.vocab_size})`);
  if (g.bos_token_id !== undefined && g.bos_token_id >= g.vocab_size)
    bad(`bos_token_id ${g.bos_token_id} is outside the vocabulary (vocab_size ${g.vocab_size})`);
  if (g.tokenizer === 'bytes' && g.vocab_size < 256) bad(`the bytes tokenizer needs vocab_size >= 256, got ${g.vocab_size}`);
  if (g.tokenizer === 'huggingface' && text === undefined) {
    bad(`tokenizer 'huggingface' needs a Hugging Face checkpoint (config.json, *.safetensors, tokenizer.json) in the version directory`);
  }
  const stops = new Set([g.eos_token_id, ...g.stop_token_ids, ...(text?.stopTokenIds ?? [])]);
  for (const id of stops) if (id >= g.vocab_size) bad(`stop token id ${id} is outside the vocabulary (vocab_size ${g.vocab_size})`);
  return {
    model,
    inputIds: ids.name,
    idsType: typeIn(ids, ['INT64', 'INT32'] as const, 'inputs.input_ids'),
    positionIds: pos.name,
    positionsType: typeIn(pos, ['INT64', 'INT32'] as const, 'inputs.position_ids'),
    attentionMask: mask.name,
    maskType: typeIn(mask, ['INT64', 'INT32', 'FP32', 'BOOL'] as const, 'inputs.attention_mask'),
    logitsIndex: logitsIndex?.name,
    logitsIndexType: logitsIndex === undefined ? 'INT64' : typeIn(logitsIndex, ['INT64', 'INT32'] as const, 'inputs.logits_index'),
    pastKey,
    pastValue,
    logits: logits.name,
    presentKey,
    presentValue,
    numLayers: g.num_layers,
    kvHeads,
    headDim,
    vocabSize: g.vocab_size,
    eosTokenId: g.eos_token_id,
    stopTokenIds: stops,
    bosTokenId: g.bos_token_id,
    maxContext: g.max_context,
    tokenizer: g.tokenizer === 'huggingface' && text !== undefined ? text.tokenizer : tokenizerFor(g.tokenizer),
    chatTemplate: {
      system: g.chat_template.system,
      user: g.chat_template.user,
      assistant: g.chat_template.assistant,
      generationPrompt: g.chat_template.generation_prompt,
      render: text?.renderChat,
    },
    outputNames: [logits.name, ...presentKey.flatMap((k, i) => [k, presentValue[i] as string])],
  };
}
