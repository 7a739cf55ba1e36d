/**
 * Helpers for tests against the bundled charlm model: a server whose repository holds only charlm, and a direct
 * reference decoder that drives the ONNX file with onnxruntime-node itself — batch 1, no padding, the prompt
 * prefilled and then one token per run — independent of rtserve's engine, batcher and sampling code.
 */
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import type { ServerConfigInput } from '../../../src/config/server-config.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { startTestServer } from '../../helpers/server.ts';

export const CHARLM_DIR = fileURLToPath(new URL('../../../models/charlm', import.meta.url));
export const CHARLM_ONNX = join(CHARLM_DIR, '1', 'model.onnx');

interface CharlmConfig {
  generate: { eos_token_id: number; bos_token_id: number; num_layers: number; max_context: number; vocab_size: number };
}
export const CHARLM_CONFIG = JSON.parse(readFileSync(join(CHARLM_DIR, 'config.json'), 'utf8')) as CharlmConfig;
export const EOS = CHARLM_CONFIG.generate.eos_token_id;
export const BOS = CHARLM_CONFIG.generate.bos_token_id;

/**
 * A server on port 0 whose repository is a temporary copy of models/charlm only; `generate` overrides keys of the
 * config's generate section (engine, kv_cache).
 */
export async function startCharlmServer(
  overrides: Partial<ServerConfigInput> = {},
  generate: Readonly<Record<string, unknown>> = {},
): Promise<{ server: RunningServer; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-charlm-'));
  await cp(join(CHARLM_DIR, '1'), join(dir, 'charlm', '1'), { recursive: true });
  const config = JSON.parse(readFileSync(join(CHARLM_DIR, 'config.json'), 'utf8')) as { generate: Record<string, unknown> };
  config.generate = { ...config.generate, ...generate };
  await writeFile(join(dir, 'charlm', 'config.json'), JSON.stringify(config));
  const server = await startTestServer({ modelRepository: [dir], ...overrides });
  return {
    server,
    cleanup: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];

export class DirectDecoder {
  private constructor(private readonly session: ort.InferenceSession) {}

  static async open(): Promise<DirectDecoder> {
    return new DirectDecoder(await ort.InferenceSession.create(CHARLM_ONNX, { intraOpNumThreads: 1 }));
  }

  private emptyPast(batch: number): Record<string, ort.Tensor> {
    const f: Record<string, ort.Tensor> = {};
    for (let l = 0; l < CHARLM_CONFIG.generate.num_layers; l++) {
      for (const kv of ['key', 'value']) f[`past_key_values.${l}.${kv}`] = new ort.Tensor('float32', new Float32Array(0), [batch, 1, 0, 64]);
    }
    return f;
  }

  private static i64(values: number[], dims: number[]): ort.Tensor {
    return new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);
  }

  /** Greedy tokens after `prompt` (token ids, BOS included), stopping at EOS or maxTokens. */
  async greedy(prompt: readonly number[], maxTokens: number): Promise<number[]> {
    const argmax = (d: Float32Array, from: number, n: number): number => {
      let best = 0;
      for (let i = 1; i < n; i++) if ((d[from + i] as number) > (d[from + best] as number)) best = i;
      return best;
    };
    const V = CHARLM_CONFIG.generate.vocab_size;
    const P = prompt.length;
    let out = await this.session.run({
      input_ids: DirectDecoder.i64([...prompt], [1, P]),
      position_ids: DirectDecoder.i64(
        prompt.map((_, i) => i),
        [1, P],
      ),
      attention_mask: DirectDecoder.i64(
        prompt.map(() => 1),
        [1, P],
      ),
      ...this.emptyPast(1),
    });
    const tokens: number[] = [argmax(out['logits']?.data as Float32Array, (P - 1) * V, V)];
    while (tokens.length < maxTokens && tokens.at(-1) !== EOS) {
      const pos = P + tokens.length - 1;
      const past: Record<string, ort.Tensor> = {};
      for (let l = 0; l < CHARLM_CONFIG.generate.num_layers; l++) {
        for (const kv of ['key', 'value']) past[`past_key_values.${l}.${kv}`] = out[`present.${l}.${kv}`] as ort.Tensor;
      }
      out = await this.session.run({
        input_ids: DirectDecoder.i64([tokens.at(-1) as number], [1, 1]),
        position_ids: DirectDecoder.i64([pos], [1, 1]),
        attention_mask: DirectDecoder.i64(Array(pos + 1).fill(1), [1, pos + 1]),
        ...past,
      });
      tokens.push(argmax(out['logits']?.data as Float32Array, 0, V));
    }
    return tokens;
  }

  /** Mean next-token negative log-likelihood (nats per byte) of `tokens`, in windows of the model's context. */
  async meanNll(tokens: readonly number[]): Promise<number> {
    const ctx = CHARLM_CONFIG.generate.max_context;
    const V = CHARLM_CONFIG.generate.vocab_size;
    let total = 0;
    let count = 0;
    for (let start = 0; start + 1 < tokens.length; start += ctx) {
      const x = tokens.slice(start, Math.min(start + ctx, tokens.length - 1));
      const S = x.length;
      const out = await this.session.run({
        input_ids: DirectDecoder.i64(x, [1, S]),
        position_ids: DirectDecoder.i64(
          x.map((_, i) => i),
          [1, S],
        ),
        attention_mask: DirectDecoder.i64(
          x.map(() => 1),
          [1, S],
        ),
        ...this.emptyPast(1),
      });
      const logits = out['logits']?.data as Float32Array;
      for (let i = 0; i < S; i++) {
        const row = logits.subarray(i * V, (i + 1) * V);
        let max = -Infinity;
        for (const v of row) max = Math.max(max, v);
        let sum = 0;
        for (const v of row) sum += Math.exp(v - max);
        const target = tokens[start + i + 1] as number;
        total += -((row[target] as number) - max - Math.log(sum));
        count++;
      }
    }
    return total / count;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

export function decodeBytes(tokens: readonly number[]): string {
  return new TextDecoder().decode(new Uint8Array(tokens.filter((t) => t < 256)));
}
