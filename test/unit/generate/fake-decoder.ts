/**
 * A tiny deterministic "decoder" EngineSession with the same KV-cache contract as models/charlm (inputs
 * input_ids, position_ids, attention_mask, past_key_values.0.key/value; outputs logits, present.0.key/value),
 * implemented in plain TypeScript so the batcher's bookkeeping can be tested exactly and fast.
 *
 * Each token t at position p writes key [t, p] and value [t, 1] into the cache. The next token is a hash of every
 * cache entry the query may attend to (mask and causality), so a row that sees a wrong, missing or extra entry
 * — a batching bug — produces different tokens than the same prompt decoded alone. All arithmetic is on small
 * integers, exact in float32.
 */
import type { ModelConfig } from '../../../src/config/model-config.ts';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import type { EngineSession, SessionDescription } from '../../../src/engine/engine.ts';

export const FAKE_VOCAB = 20;
export const FAKE_EOS = 19;

export function fakeConfig(overrides: Record<string, unknown> = {}): ModelConfig {
  return modelConfigSchema.parse({
    name: 'fake',
    max_batch_size: 64,
    generate: { tokenizer: 'bytes', vocab_size: 257, eos_token_id: 256, max_context: 64, num_layers: 1, ...overrides },
  });
}

/** The next token after the attended entries (pairs of token and position). */
export function fakeNext(entries: readonly (readonly [number, number])[], _vocab: number, eos: number): number {
  let h = 0;
  for (const [t, p] of entries) h += (t % 97) * (p + 1) + 1;
  // About one step in 60 ends the sequence; otherwise a printable byte so the text decodes.
  if (h % 61 === 0) return eos;
  return 97 + (h % 26);
}

export interface FakeCall {
  readonly rows: number;
  readonly newTokens: number;
  readonly pastCols: number;
}

export class FakeDecoderSession implements EngineSession {
  readonly calls: FakeCall[] = [];
  /** When set, each run waits for it (tests hold a step to cancel or enqueue mid-flight). */
  gate: (() => Promise<void>) | undefined;
  closed = false;

  constructor(
    private readonly vocab = 257,
    private readonly eos = 256,
  ) {}

  describe(): SessionDescription {
    const i64 = (name: string, shape: number[]) => ({ name, datatype: 'INT64' as const, shape });
    const f32 = (name: string, shape: number[]) => ({ name, datatype: 'FP32' as const, shape });
    return {
      provider: 'cpu',
      inputs: [
        i64('input_ids', [-1, -1]),
        i64('position_ids', [-1, -1]),
        i64('attention_mask', [-1, -1]),
        f32('past_key_values.0.key', [-1, 1, -1, 2]),
        f32('past_key_values.0.value', [-1, 1, -1, 2]),
      ],
      outputs: [f32('logits', [-1, -1, this.vocab]), f32('present.0.key', [-1, 1, -1, 2]), f32('present.0.value', [-1, 1, -1, 2])],
    };
  }

  async run(feeds: readonly Tensor[], outputNames: readonly string[]): Promise<Tensor[]> {
    if (this.closed) throw new Error('closed');
    if (this.gate !== undefined) await this.gate();
    const get = (n: string): Tensor => {
      const t = feeds.find((f) => f.name === n);
      if (t === undefined) throw new Error(`missing feed ${n}`);
      return t;
    };
    const ids = get('input_ids');
    const pos = get('position_ids');
    const mask = get('attention_mask');
    const pk = get('past_key_values.0.key');
    const pv = get('past_key_values.0.value');
    const [B, S] = ids.shape as [number, number];
    const P = pk.shape[2] as number;
    const T = P + S;
    if (mask.shape[1] !== T || mask.shape[0] !== B) throw new Error(`mask shape [${mask.shape.join(',')}] but past ${P} + new ${S}`);
    this.calls.push({ rows: B, newTokens: S, pastCols: P });
    const idv = ids.data as BigInt64Array;
    const posv = pos.data as BigInt64Array;
    const maskv = mask.data as BigInt64Array;
    const pkv = pk.data as Float32Array;
    const pvv = pv.data as Float32Array;
    const key = new Float32Array(B * T * 2);
    const value = new Float32Array(B * T * 2);
    for (let b = 0; b < B; b++) {
      key.set(pkv.subarray(b * P * 2, (b + 1) * P * 2), b * T * 2);
      value.set(pvv.subarray(b * P * 2, (b + 1) * P * 2), b * T * 2);
      for (let i = 0; i < S; i++) {
        const at = (b * T + P + i) * 2;
        key[at] = Number(idv[b * S + i]);
        key[at + 1] = Number(posv[b * S + i]);
        value[at] = Number(idv[b * S + i]);
        value[at + 1] = 1;
      }
    }
    const logits = new Float32Array(B * S * this.vocab);
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < S; i++) {
        const entries: [number, number][] = [];
        for (let c = 0; c < T; c++) {
          if (maskv[b * T + c] !== 1n) continue;
          if (c >= P && c - P > i) continue; // causal among the new tokens
          entries.push([key[(b * T + c) * 2] as number, key[(b * T + c) * 2 + 1] as number]);
        }
        logits[(b * S + i) * this.vocab + fakeNext(entries, this.vocab, this.eos)] = 1;
      }
    }
    const all: Record<string, Tensor> = {
      logits: { name: 'logits', datatype: 'FP32', shape: [B, S, this.vocab], data: logits },
      'present.0.key': { name: 'present.0.key', datatype: 'FP32', shape: [B, 1, T, 2], data: key },
      'present.0.value': { name: 'present.0.value', datatype: 'FP32', shape: [B, 1, T, 2], data: value },
    };
    return outputNames.map((n) => all[n] as Tensor);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Greedy decoding of one prompt by the fake model's rule directly, with no batching and no cache tricks. */
export function fakeReference(prompt: readonly number[], maxTokens: number, eos = 256): number[] {
  const seqTokens = [...prompt];
  const out: number[] = [];
  while (out.length < maxTokens) {
    const entries = seqTokens.map((t, p) => [t, p] as const);
    const next = fakeNext(entries, 257, eos);
    out.push(next);
    if (next === eos) break;
    seqTokens.push(next);
  }
  return out;
}
