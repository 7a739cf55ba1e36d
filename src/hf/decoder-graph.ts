/**
 * Builds the ONNX graph of a decoder-only transformer from a Hugging Face checkpoint, in the KV-cache contract the
 * generation service drives (the same as models/charlm; docs/generate.md):
 *   inputs  input_ids [batch, seq] int64, position_ids [batch, seq] int64, attention_mask [batch, past + seq] int64,
 *           past_key_values.{l}.key / .value [batch, kv_heads, past, head_dim] float32
 *           logits_index [batch] int64 (the new token whose logits a row wants, 0..seq-1)
 *   outputs logits [batch, 1, vocab] float32, present.{l}.key / .value [batch, kv_heads, past + seq, head_dim]
 * Query i of a row attends to cache column j when attention_mask[row, j] = 1 and j <= past + i (the new tokens
 * follow the past columns), so right-padded prefill and a batch with dead rows both work.
 *
 * The ops are plain opset-17 ONNX (Gemm, MatMul, Softmax, LayerNormalization...), so onnxruntime's CPU provider
 * runs it and fuses what it recognizes. Weights are float32 (F16/BF16 checkpoints are widened at load) and are
 * written as external data beside the graph (`weights.bin`), so the graph stays small and a model over 2 GiB
 * loads. Linear layers are `Gemm` with transB=1 over the weights exactly as transformers stores them ([out, in]),
 * so nothing is transposed and a tied lm_head is the embedding matrix itself.
 */
import type { FileHandle } from 'node:fs/promises';
import { GraphBuilder } from '../onnx/builder.ts';
import { ElemType } from '../onnx/proto.ts';
import type { DecoderArch } from './hf-config.ts';
import type { SafetensorsCheckpoint } from './safetensors.ts';

export const WEIGHTS_FILE = 'weights.bin';
export const OPSET = 17;
/** Tensors up to this many elements stay inside the graph; larger ones go to weights.bin. */
const INLINE_MAX_ELEMENTS = 4096;
/** Large tensors start on a page boundary, so onnxruntime may map them instead of copying. */
const PAGE = 4096;
/** The additive mask value, as transformers uses torch.finfo(float32).min: a fully masked row stays finite. */
const MASKED = -3.4028234663852886e38;

/** Appends float32 tensors to weights.bin and records them as external initializers. */
class WeightFile {
  private offset = 0;

  constructor(
    private readonly g: GraphBuilder,
    private readonly fh: FileHandle,
  ) {}

  async add(name: string, data: Float32Array, dims: readonly number[]): Promise<string> {
    if (data.length <= INLINE_MAX_ELEMENTS) return this.g.initializer(name, data, dims);
    const start = Math.ceil(this.offset / PAGE) * PAGE;
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    await this.fh.write(bytes, 0, bytes.length, start);
    this.offset = start + bytes.length;
    return this.g.externalInitializer(name, dims, ElemType.FLOAT, WEIGHTS_FILE, start, bytes.length);
  }
}

/** Checkpoint tensor names per family (transformers' state_dict keys). */
function namesOf(arch: DecoderArch, ckpt: SafetensorsCheckpoint) {
  if (arch.family === 'gpt2') {
    const p = ckpt.has('transformer.wte.weight') ? 'transformer.' : '';
    return {
      embed: `${p}wte.weight`,
      positions: `${p}wpe.weight`,
      finalNorm: `${p}ln_f`,
      lmHead: undefined,
      layer: (l: number) => `${p}h.${l}.`,
    };
  }
  return {
    embed: 'model.embed_tokens.weight',
    positions: undefined,
    finalNorm: 'model.norm',
    lmHead: arch.tiedEmbeddings ? undefined : 'lm_head.weight',
    layer: (l: number) => `model.layers.${l}.`,
  };
}

export interface BuiltGraph {
  readonly graph: ReturnType<GraphBuilder['toModel']>;
  readonly weightBytes: number;
}

/** The whole decoder, with its weights streamed from `ckpt` into `weights` (an open, empty weights.bin). */
export async function buildDecoderGraph(arch: DecoderArch, ckpt: SafetensorsCheckpoint, weights: FileHandle): Promise<BuiltGraph> {
  const g = new GraphBuilder('rtserve_hf_decoder');
  const w = new WeightFile(g, weights);
  const F = ElemType.FLOAT;
  const I64 = ElemType.INT64;
  const { hiddenSize: H, numHeads: nH, numKvHeads: kvH, headDim: D, vocabSize: V, numLayers: L } = arch;
  const nRep = nH / kvH;
  const names = namesOf(arch, ckpt);

  let constants = 0;
  const i64 = (values: readonly number[], dims: readonly number[] = [values.length]): string =>
    g.initializer(`const_${constants++}`, BigInt64Array.from(values.map((v) => BigInt(v))), dims);
  const f32 = (value: number): string => g.initializer(`const_${constants++}`, Float32Array.of(value), []);
  const read = (name: string, dims: readonly number[]): Promise<string> => ckpt.read(name, dims).then((d) => w.add(name, d, dims));

  const ids = g.input('input_ids', I64, ['batch', 'seq']);
  const pos = g.input('position_ids', I64, ['batch', 'seq']);
  const mask = g.input('attention_mask', I64, ['batch', 'total']);
  // Which new token's logits each row wants: the vocabulary projection runs for one position per row instead of
  // batch x seq (a 2k-token prompt with a 150k vocabulary would otherwise return 1.2 GB of logits).
  const logitsIndex = g.input('logits_index', I64, ['batch']);
  const past = Array.from({ length: L }, (_, l) => ({
    key: g.input(`past_key_values.${l}.key`, F, ['batch', kvH, 'past', D]),
    value: g.input(`past_key_values.${l}.value`, F, ['batch', kvH, 'past', D]),
  }));

  // --- shapes and the attention bias [B, 1, 1, S, T], shared by every layer
  const bs = g.op('Shape', [ids]);
  const seqLen = g.op('Gather', [bs, i64([1], [])], { axis: 0 });
  const total = g.op('Gather', [g.op('Shape', [mask]), i64([1], [])], { axis: 0 });
  const pastLen = g.op('Sub', [total, seqLen]);
  const zero = i64([0], []);
  const one = i64([1], []);
  const cols = g.op('Range', [zero, total, one]);
  const rows = g.op('Add', [g.op('Range', [zero, seqLen, one]), pastLen]);
  const causal = g.op('LessOrEqual', [g.op('Unsqueeze', [cols, i64([0])]), g.op('Unsqueeze', [rows, i64([1])])]);
  const padMask = g.op('Unsqueeze', [g.op('Cast', [mask], { to: ElemType.BOOL }), i64([1])]);
  const allowed = g.op('And', [g.op('Unsqueeze', [causal, i64([0])]), padMask]);
  const bias = g.op('Unsqueeze', [g.op('Where', [allowed, f32(0), f32(MASKED)]), i64([1, 2])]);
  const qShape = g.op('Concat', [bs, i64([nH, D])], { axis: 0 });
  const kvShape = g.op('Concat', [bs, i64([kvH, D])], { axis: 0 });

  // --- rotary embeddings: cos / sin [B, S, 1, D] from the positions (rotate-half convention of transformers)
  let rope: ((x: string) => string) | undefined;
  if (arch.rope !== undefined) {
    const inv = g.initializer('rope_inv_freq', Float32Array.from(arch.rope.invFreq), [D / 2]);
    const freqs = g.op('Mul', [g.op('Unsqueeze', [g.op('Cast', [pos], { to: F }), i64([2])]), inv]);
    const emb = g.op('Unsqueeze', [g.op('Concat', [freqs, freqs], { axis: -1 }), i64([2])]);
    const cos = g.op('Cos', [emb]);
    const sin = g.op('Sin', [emb]);
    const halves = i64([D / 2, D / 2]);
    rope = (x: string): string => {
      const [x1, x2] = g.node('Split', [x, halves], [g.uniqueName('rope_x1'), g.uniqueName('rope_x2')], { axis: -1 }) as [string, string];
      const rotated = g.op('Concat', [g.op('Neg', [x2]), x1], { axis: -1 });
      return g.op('Add', [g.op('Mul', [x, cos]), g.op('Mul', [rotated, sin])]);
    };
  }

  const norm = async (x: string, prefix: string): Promise<string> => {
    const weight = await read(`${prefix}.weight`, [H]);
    if (arch.norm === 'layer') {
      return g.op('LayerNormalization', [x, weight, await read(`${prefix}.bias`, [H])], { axis: -1, epsilon: arch.normEps });
    }
    // RMSNorm (Zhang & Sennrich 2019), as LlamaRMSNorm: x / sqrt(mean(x^2) + eps) * weight.
    const ms = g.op('ReduceMean', [g.op('Mul', [x, x])], { axes: [-1], keepdims: 1 });
    return g.op('Mul', [g.op('Div', [x, g.op('Sqrt', [g.op('Add', [ms, f32(arch.normEps)])])]), weight]);
  };
  /** x [N, in] times a [out, in] weight (transformers' Linear) or an [in, out] one (GPT-2's Conv1D). */
  const linear = async (x: string, prefix: string, outDim: number, inDim: number, withBias: boolean, conv1d = false): Promise<string> => {
    const weight = await read(`${prefix}.weight`, conv1d ? [inDim, outDim] : [outDim, inDim]);
    const inputs = [x, weight];
    if (withBias) inputs.push(await read(`${prefix}.bias`, [outDim]));
    return g.op('Gemm', inputs, { transB: conv1d ? 0 : 1 });
  };
  const activation = (x: string): string => {
    if (arch.activation === 'silu') return g.op('Mul', [x, g.op('Sigmoid', [x])]);
    const halfX = g.op('Mul', [x, f32(0.5)]);
    if (arch.activation === 'gelu') {
      return g.op('Mul', [halfX, g.op('Add', [f32(1), g.op('Erf', [g.op('Mul', [x, f32(Math.SQRT1_2)])])])]);
    }
    // GELU, tanh approximation (Hendrycks & Gimpel 2016; transformers' NewGELUActivation).
    const cube = g.op('Mul', [g.op('Mul', [x, x]), x]);
    const inner = g.op('Mul', [g.op('Add', [x, g.op('Mul', [cube, f32(0.044715)])]), f32(Math.sqrt(2 / Math.PI))]);
    return g.op('Mul', [halfX, g.op('Add', [f32(1), g.op('Tanh', [inner])])]);
  };

  // --- embeddings, flattened to [N = B*S, H] for the whole stack
  const embed = await read(names.embed, [V, H]);
  let x3 = g.op('Gather', [embed, ids], { axis: 0 });
  if (names.positions !== undefined) {
    x3 = g.op('Add', [x3, g.op('Gather', [await read(names.positions, [arch.maxPositions, H]), pos], { axis: 0 })]);
  }
  let x = g.op('Reshape', [x3, i64([-1, H])]);
  const scale = f32(1 / Math.sqrt(D));

  for (let l = 0; l < L; l++) {
    const p = names.layer(l);
    const gpt2 = arch.family === 'gpt2';
    const h = await norm(x, gpt2 ? `${p}ln_1` : `${p}input_layernorm`);
    let q: string;
    let k: string;
    let v: string;
    if (gpt2) {
      const qkv = await linear(h, `${p}attn.c_attn`, 3 * H, H, true, true);
      [q, k, v] = g.node('Split', [qkv, i64([H, H, H])], [g.uniqueName('q'), g.uniqueName('k'), g.uniqueName('v')], { axis: 1 }) as [
        string,
        string,
        string,
      ];
    } else {
      q = await linear(h, `${p}self_attn.q_proj`, nH * D, H, arch.qkvBias);
      k = await linear(h, `${p}self_attn.k_proj`, kvH * D, H, arch.qkvBias);
      v = await linear(h, `${p}self_attn.v_proj`, kvH * D, H, arch.qkvBias);
    }
    let q4 = g.op('Reshape', [q, qShape]);
    let k4 = g.op('Reshape', [k, kvShape]);
    if (rope !== undefined) {
      q4 = rope(q4);
      k4 = rope(k4);
    }
    const kNew = g.op('Transpose', [k4], { perm: [0, 2, 1, 3] });
    const vNew = g.op('Transpose', [g.op('Reshape', [v, kvShape])], { perm: [0, 2, 1, 3] });
    const presentKey = g.node('Concat', [past[l]?.key as string, kNew], [`present.${l}.key`], { axis: 2 })[0] as string;
    const presentValue = g.node('Concat', [past[l]?.value as string, vNew], [`present.${l}.value`], { axis: 2 })[0] as string;
    g.output(presentKey, F, ['batch', kvH, 'total', D]);
    g.output(presentValue, F, ['batch', kvH, 'total', D]);
    // Grouped-query attention without copying K/V: the nRep query heads of one KV head form one more axis, and
    // MatMul broadcasts K/V over it. Scores [B, kvH, nRep, S, T].
    const qScaled = g.op('Mul', [g.op('Transpose', [q4], { perm: [0, 2, 1, 3] }), scale]);
    const q5 = g.op('Reshape', [qScaled, i64([0, kvH, nRep, -1, D])]);
    const kT5 = g.op('Unsqueeze', [g.op('Transpose', [presentKey], { perm: [0, 1, 3, 2] }), i64([2])]);
    const probs = g.op('Softmax', [g.op('Add', [g.op('MatMul', [q5, kT5]), bias])], { axis: -1 });
    const o5 = g.op('MatMul', [probs, g.op('Unsqueeze', [presentValue, i64([2])])]);
    const o4 = g.op('Transpose', [g.op('Reshape', [o5, i64([0, nH, -1, D])])], { perm: [0, 2, 1, 3] });
    const o = g.op('Reshape', [o4, i64([-1, nH * D])]);
    const attn = gpt2 ? await linear(o, `${p}attn.c_proj`, H, H, true, true) : await linear(o, `${p}self_attn.o_proj`, H, nH * D, arch.outputBias);
    x = g.op('Add', [x, attn]);
    const h2 = await norm(x, gpt2 ? `${p}ln_2` : `${p}post_attention_layernorm`);
    const I = arch.intermediateSize;
    let mlp: string;
    if (gpt2) {
      mlp = await linear(activation(await linear(h2, `${p}mlp.c_fc`, I, H, true, true)), `${p}mlp.c_proj`, H, I, true, true);
    } else {
      const gate = activation(await linear(h2, `${p}mlp.gate_proj`, I, H, arch.mlpBias));
      const up = await linear(h2, `${p}mlp.up_proj`, I, H, arch.mlpBias);
      mlp = await linear(g.op('Mul', [gate, up]), `${p}mlp.down_proj`, H, I, arch.mlpBias);
    }
    x = g.op('Add', [x, mlp]);
  }

  // Hidden state of the chosen position per row: [B, S, H] gathered along S at logits_index -> [B, H].
  const picked = g.op(
    'GatherElements',
    [
      g.op('Reshape', [x, g.op('Concat', [bs, i64([H])], { axis: 0 })]),
      g.op('Expand', [g.op('Unsqueeze', [logitsIndex, i64([1, 2])]), i64([1, 1, H])]),
    ],
    {
      axis: 1,
    },
  );
  const xf = await norm(g.op('Reshape', [picked, i64([-1, H])]), names.finalNorm);
  const head = names.lmHead === undefined ? embed : await read(names.lmHead, [V, H]);
  const logits2 = g.op('Gemm', [xf, head], { transB: 1 });
  g.node('Reshape', [logits2, i64([-1, 1, V])], ['logits']);
  g.output('logits', F, ['batch', 1, V]);
  const weightBytes = (await weights.stat()).size;
  return {
    graph: g.toModel({ opsetVersion: OPSET, producerName: 'rtserve', docString: `${arch.architecture} (Hugging Face checkpoint)` }),
    weightBytes,
  };
}
