/**
 * What the native decoder is told about a Hugging Face checkpoint (native/src/llm/llm-model.cu `LlmConfig`) and which
 * checkpoint tensor goes into which of its weight slots: q/k/v concatenated into one fused QKV slot, gate and up into
 * one gate/up slot, GPT-2's Conv1D weights ([in, out]) transposed to [out, in] on the device at upload.
 */
import type { DecoderArch } from '../../hf/hf-config.ts';
import type { SafetensorsCheckpoint } from '../../hf/safetensors.ts';

/** The native MLP activation numbers (llm-kernels.cuh `MlpAct`). */
const ACT = { silu: 0, gelu: 1, gelu_new: 2, gelu_pytorch_tanh: 3 } as const;

export interface LlmGeometryOptions {
  readonly blockTokens: number;
  readonly maxRows: number;
  readonly maxStepTokens: number;
  readonly maxContext: number;
  readonly kvMemoryFraction: number;
  /** 0: as many blocks as the fraction of free memory holds. */
  readonly maxBlocks: number;
  readonly cudaGraphs: boolean;
}

/**
 * GPT-2's activation as config.json names it: the architecture folds gelu_new and gelu_pytorch_tanh together, the
 * decoder computes them as transformers does (NewGELUActivation op by op in FP16, or torch's tanh GELU).
 */
function gpt2Activation(config: Readonly<Record<string, unknown>>): number {
  const a = config['activation_function'] ?? 'gelu_new';
  if (a === 'gelu') return ACT.gelu;
  if (a === 'gelu_pytorch_tanh') return ACT.gelu_pytorch_tanh;
  return ACT.gelu_new;
}

/** The native decoder's config JSON. */
export function nativeConfigJson(arch: DecoderArch, config: Readonly<Record<string, unknown>>, o: LlmGeometryOptions): string {
  const gpt2 = arch.family === 'gpt2';
  return JSON.stringify({
    family: arch.family,
    vocab: arch.vocabSize,
    hidden: arch.hiddenSize,
    layers: arch.numLayers,
    heads: arch.numHeads,
    kvHeads: arch.numKvHeads,
    headDim: arch.headDim,
    inter: arch.intermediateSize,
    maxPositions: arch.maxPositions,
    norm: arch.norm,
    eps: arch.normEps,
    act: gpt2 ? gpt2Activation(config) : ACT.silu,
    qkvBias: arch.qkvBias ? 1 : 0,
    oBias: arch.outputBias ? 1 : 0,
    mlpBias: arch.mlpBias ? 1 : 0,
    tied: arch.tiedEmbeddings ? 1 : 0,
    ...(arch.rope === undefined ? {} : { invFreq: Array.from(arch.rope.invFreq) }),
    blockTokens: o.blockTokens,
    maxRows: o.maxRows,
    maxStepTokens: o.maxStepTokens,
    maxContext: o.maxContext,
    kvFraction: o.kvMemoryFraction,
    maxBlocks: o.maxBlocks,
    graphs: o.cudaGraphs ? 1 : 0,
  });
}

/** One checkpoint tensor's upload: into `slot` at `elemOffset`, [rows, cols] as stored, transposed when asked. */
export interface WeightUpload {
  readonly name: string;
  readonly shape: readonly number[];
  readonly slot: string;
  readonly elemOffset: number;
  readonly transpose: boolean;
}

function gpt2Uploads(arch: DecoderArch, ckpt: SafetensorsCheckpoint): WeightUpload[] {
  const p = ckpt.has('transformer.wte.weight') ? 'transformer.' : '';
  const { hiddenSize: H, intermediateSize: I, vocabSize: V } = arch;
  const up = (name: string, shape: readonly number[], slot: string, transpose = false): WeightUpload => ({
    name: p + name,
    shape,
    slot,
    elemOffset: 0,
    transpose,
  });
  const out = [up('wte.weight', [V, H], 'embed'), up('wpe.weight', [arch.maxPositions, H], 'pos')];
  for (let l = 0; l < arch.numLayers; l++) {
    const h = `h.${l}.`;
    const L = `L${l}.`;
    out.push(
      up(`${h}ln_1.weight`, [H], `${L}ln1.w`),
      up(`${h}ln_1.bias`, [H], `${L}ln1.b`),
      up(`${h}attn.c_attn.weight`, [H, 3 * H], `${L}qkv.w`, true),
      up(`${h}attn.c_attn.bias`, [3 * H], `${L}qkv.b`),
      up(`${h}attn.c_proj.weight`, [H, H], `${L}o.w`, true),
      up(`${h}attn.c_proj.bias`, [H], `${L}o.b`),
      up(`${h}ln_2.weight`, [H], `${L}ln2.w`),
      up(`${h}ln_2.bias`, [H], `${L}ln2.b`),
      up(`${h}mlp.c_fc.weight`, [H, I], `${L}up.w`, true),
      up(`${h}mlp.c_fc.bias`, [I], `${L}up.b`),
      up(`${h}mlp.c_proj.weight`, [I, H], `${L}down.w`, true),
      up(`${h}mlp.c_proj.bias`, [H], `${L}down.b`),
    );
  }
  out.push(up('ln_f.weight', [H], 'norm.w'), up('ln_f.bias', [H], 'norm.b'));
  return out;
}

function llamaUploads(arch: DecoderArch): WeightUpload[] {
  const { hiddenSize: H, intermediateSize: I, vocabSize: V, numHeads: nH, numKvHeads: kvH, headDim: D } = arch;
  const up = (name: string, shape: readonly number[], slot: string, elemOffset = 0): WeightUpload => ({
    name,
    shape,
    slot,
    elemOffset,
    transpose: false,
  });
  const out = [up('model.embed_tokens.weight', [V, H], 'embed')];
  for (let l = 0; l < arch.numLayers; l++) {
    const p = `model.layers.${l}.`;
    const L = `L${l}.`;
    out.push(
      up(`${p}input_layernorm.weight`, [H], `${L}ln1.w`),
      up(`${p}self_attn.q_proj.weight`, [nH * D, H], `${L}qkv.w`),
      up(`${p}self_attn.k_proj.weight`, [kvH * D, H], `${L}qkv.w`, nH * D * H),
      up(`${p}self_attn.v_proj.weight`, [kvH * D, H], `${L}qkv.w`, (nH + kvH) * D * H),
    );
    if (arch.qkvBias) {
      out.push(
        up(`${p}self_attn.q_proj.bias`, [nH * D], `${L}qkv.b`),
        up(`${p}self_attn.k_proj.bias`, [kvH * D], `${L}qkv.b`, nH * D),
        up(`${p}self_attn.v_proj.bias`, [kvH * D], `${L}qkv.b`, (nH + kvH) * D),
      );
    }
    out.push(up(`${p}self_attn.o_proj.weight`, [H, nH * D], `${L}o.w`));
    if (arch.outputBias) out.push(up(`${p}self_attn.o_proj.bias`, [H], `${L}o.b`));
    out.push(
      up(`${p}post_attention_layernorm.weight`, [H], `${L}ln2.w`),
      up(`${p}mlp.gate_proj.weight`, [I, H], `${L}up.w`),
      up(`${p}mlp.up_proj.weight`, [I, H], `${L}up.w`, I * H),
      up(`${p}mlp.down_proj.weight`, [H, I], `${L}down.w`),
    );
    if (arch.mlpBias) {
      out.push(
        up(`${p}mlp.gate_proj.bias`, [I], `${L}up.b`),
        up(`${p}mlp.up_proj.bias`, [I], `${L}up.b`, I),
        up(`${p}mlp.down_proj.bias`, [H], `${L}down.b`),
      );
    }
  }
  out.push(up('model.norm.weight', [H], 'norm.w'));
  if (!arch.tiedEmbeddings) out.push(up('lm_head.weight', [V, H], 'lm_head'));
  return out;
}

/** Every tensor the decoder needs, in upload order. */
export function weightUploads(arch: DecoderArch, ckpt: SafetensorsCheckpoint): WeightUpload[] {
  return arch.family === 'gpt2' ? gpt2Uploads(arch, ckpt) : llamaUploads(arch);
}
