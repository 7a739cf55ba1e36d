/**
 * A straightforward float64 forward pass of the tiny checkpoints (test/helpers/hf-checkpoint.ts), written from
 * transformers' modeling_llama.py / modeling_qwen2.py / modeling_gpt2.py with plain loops, independent of
 * src/hf: the ONNX decoder's logits are checked against it.
 */
import type { NamedTensor, TinyModel } from '../../helpers/hf-checkpoint.ts';

type Vec = Float64Array;

class Weights {
  private readonly byName: Map<string, NamedTensor>;
  constructor(tensors: readonly NamedTensor[]) {
    this.byName = new Map(tensors.map((t) => [t.name, t]));
  }
  get(name: string): NamedTensor {
    const t = this.byName.get(name);
    if (t === undefined) throw new Error(`no tensor ${name}`);
    return t;
  }
  has(name: string): boolean {
    return this.byName.has(name);
  }
}

/** y = W x (+ b) for W [out, in] (torch Linear). */
function linear(w: NamedTensor, x: Vec, b?: NamedTensor): Vec {
  const [out, inn] = w.shape as [number, number];
  const y = new Float64Array(out);
  for (let o = 0; o < out; o++) {
    let s = b === undefined ? 0 : (b.data[o] as number);
    for (let i = 0; i < inn; i++) s += (w.data[o * inn + i] as number) * (x[i] as number);
    y[o] = s;
  }
  return y;
}

/** y = x W + b for W [in, out] (GPT-2's Conv1D). */
function conv1d(w: NamedTensor, x: Vec, b: NamedTensor): Vec {
  const [inn, out] = w.shape as [number, number];
  const y = new Float64Array(out);
  for (let o = 0; o < out; o++) {
    let s = b.data[o] as number;
    for (let i = 0; i < inn; i++) s += (w.data[i * out + o] as number) * (x[i] as number);
    y[o] = s;
  }
  return y;
}

function rms(x: Vec, w: NamedTensor, eps: number): Vec {
  let ms = 0;
  for (const v of x) ms += v * v;
  ms /= x.length;
  const r = 1 / Math.sqrt(ms + eps);
  return x.map((v, i) => v * r * (w.data[i] as number));
}

function layerNorm(x: Vec, w: NamedTensor, b: NamedTensor, eps: number): Vec {
  let mean = 0;
  for (const v of x) mean += v;
  mean /= x.length;
  let varr = 0;
  for (const v of x) varr += (v - mean) ** 2;
  varr /= x.length;
  const r = 1 / Math.sqrt(varr + eps);
  return x.map((v, i) => (v - mean) * r * (w.data[i] as number) + (b.data[i] as number));
}

const add = (a: Vec, b: Vec): Vec => a.map((v, i) => v + (b[i] as number));
const silu = (v: number): number => v / (1 + Math.exp(-v));
const geluTanh = (v: number): number => 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)));

/** transformers' default and llama3 inverse frequencies (modeling_rope_utils.py), recomputed here. */
function invFreqOf(config: Record<string, unknown>, D: number): number[] {
  const theta = (config['rope_theta'] as number | undefined) ?? 10000;
  const inv = Array.from({ length: D / 2 }, (_, i) => 1 / theta ** ((2 * i) / D));
  const s = config['rope_scaling'] as Record<string, number> | undefined;
  if (s === undefined) return inv;
  const { factor, low_freq_factor: low, high_freq_factor: high, original_max_position_embeddings: orig } = s as Record<string, number>;
  return inv.map((f) => {
    const wl = (2 * Math.PI) / f;
    if (wl < (orig as number) / (high as number)) return f;
    if (wl > (orig as number) / (low as number)) return f / (factor as number);
    const sm = ((orig as number) / wl - (low as number)) / ((high as number) - (low as number));
    return (1 - sm) * (f / (factor as number)) + sm * f;
  });
}

/** Logits [position][vocab] of one sequence, every position attending to itself and those before. */
export function referenceLogits(m: TinyModel, ids: readonly number[]): Vec[] {
  const w = new Weights(m.tensors);
  const c = m.config;
  const gpt2 = m.family === 'gpt2';
  const H = (gpt2 ? c['n_embd'] : c['hidden_size']) as number;
  const L = (gpt2 ? c['n_layer'] : c['num_hidden_layers']) as number;
  const nH = (gpt2 ? c['n_head'] : c['num_attention_heads']) as number;
  const kvH = gpt2 ? nH : (c['num_key_value_heads'] as number);
  const D = H / nH;
  const V = c['vocab_size'] as number;
  const eps = (gpt2 ? c['layer_norm_epsilon'] : c['rms_norm_eps']) as number;
  const inv = gpt2 ? [] : invFreqOf(c, D);
  const row = (t: NamedTensor, i: number, n: number): Vec => Float64Array.from(t.data.subarray(i * n, (i + 1) * n));
  const rope = (v: Vec, heads: number, p: number): Vec => {
    const out = new Float64Array(v.length);
    for (let h = 0; h < heads; h++) {
      for (let i = 0; i < D / 2; i++) {
        const a = p * (inv[i] as number);
        const x1 = v[h * D + i] as number;
        const x2 = v[h * D + i + D / 2] as number;
        out[h * D + i] = x1 * Math.cos(a) - x2 * Math.sin(a);
        out[h * D + i + D / 2] = x2 * Math.cos(a) + x1 * Math.sin(a);
      }
    }
    return out;
  };
  let xs: Vec[] = ids.map((t, p) =>
    gpt2 ? add(row(w.get('wte.weight'), t, H), row(w.get('wpe.weight'), p, H)) : row(w.get('model.embed_tokens.weight'), t, H),
  );
  for (let l = 0; l < L; l++) {
    const pre = gpt2 ? `h.${l}.` : `model.layers.${l}.`;
    const qs: Vec[] = [];
    const ks: Vec[] = [];
    const vs: Vec[] = [];
    xs.forEach((x, p) => {
      if (gpt2) {
        const h = layerNorm(x, w.get(`${pre}ln_1.weight`), w.get(`${pre}ln_1.bias`), eps);
        const qkv = conv1d(w.get(`${pre}attn.c_attn.weight`), h, w.get(`${pre}attn.c_attn.bias`));
        qs.push(qkv.slice(0, H));
        ks.push(qkv.slice(H, 2 * H));
        vs.push(qkv.slice(2 * H));
      } else {
        const h = rms(x, w.get(`${pre}input_layernorm.weight`), eps);
        const b = (n: string) => (w.has(`${pre}self_attn.${n}.bias`) ? w.get(`${pre}self_attn.${n}.bias`) : undefined);
        qs.push(rope(linear(w.get(`${pre}self_attn.q_proj.weight`), h, b('q_proj')), nH, p));
        ks.push(rope(linear(w.get(`${pre}self_attn.k_proj.weight`), h, b('k_proj')), kvH, p));
        vs.push(linear(w.get(`${pre}self_attn.v_proj.weight`), h, b('v_proj')));
      }
    });
    xs = xs.map((x, t) => {
      const o = new Float64Array(nH * D);
      for (let h = 0; h < nH; h++) {
        const kh = Math.floor(h / (nH / kvH));
        const scores: number[] = [];
        for (let j = 0; j <= t; j++) {
          let s = 0;
          for (let d = 0; d < D; d++) s += (qs[t]?.[h * D + d] as number) * (ks[j]?.[kh * D + d] as number);
          scores.push(s / Math.sqrt(D));
        }
        const mx = Math.max(...scores);
        const e = scores.map((s) => Math.exp(s - mx));
        const z = e.reduce((a, b) => a + b, 0);
        for (let j = 0; j <= t; j++)
          for (let d = 0; d < D; d++) o[h * D + d] = (o[h * D + d] as number) + ((e[j] as number) / z) * (vs[j]?.[kh * D + d] as number);
      }
      const attn = gpt2
        ? conv1d(w.get(`${pre}attn.c_proj.weight`), o, w.get(`${pre}attn.c_proj.bias`))
        : linear(w.get(`${pre}self_attn.o_proj.weight`), o);
      const x1 = add(x, attn);
      if (gpt2) {
        const h2 = layerNorm(x1, w.get(`${pre}ln_2.weight`), w.get(`${pre}ln_2.bias`), eps);
        const a = conv1d(w.get(`${pre}mlp.c_fc.weight`), h2, w.get(`${pre}mlp.c_fc.bias`)).map(geluTanh);
        return add(x1, conv1d(w.get(`${pre}mlp.c_proj.weight`), a, w.get(`${pre}mlp.c_proj.bias`)));
      }
      const h2 = rms(x1, w.get(`${pre}post_attention_layernorm.weight`), eps);
      const gate = linear(w.get(`${pre}mlp.gate_proj.weight`), h2).map(silu);
      const up = linear(w.get(`${pre}mlp.up_proj.weight`), h2);
      return add(
        x1,
        linear(
          w.get(`${pre}mlp.down_proj.weight`),
          gate.map((g, i) => g * (up[i] as number)),
        ),
      );
    });
  }
  return xs.map((x) => {
    const xf = gpt2 ? layerNorm(x, w.get('ln_f.weight'), w.get('ln_f.bias'), eps) : rms(x, w.get('model.norm.weight'), eps);
    const head = gpt2 ? w.get('wte.weight') : w.has('lm_head.weight') ? w.get('lm_head.weight') : w.get('model.embed_tokens.weight');
    const logits = linear(head, xf);
    if (logits.length !== V) throw new Error('vocab mismatch');
    return logits;
  });
}
