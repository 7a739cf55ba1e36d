/**
 * A step's rows checked against the decoder's geometry and packed into the two arrays the addon copies into its one
 * pinned buffer (native/src/llm/llm-forward.cu): `meta` = [rows, tokens, then per row slot, fresh, start, length,
 * sample, greedy, topK, seedLo, seedHi, blockCount, then every row's tokens, then every row's block ids] and `params` =
 * per row temperature, topP, repetition penalty.
 */
import { rtError } from '../../errors/registry.ts';
import type { StepRow, TokenEngineGeometry } from '../token-engine.ts';

export const ROW_META = 10;

export interface PackedStep {
  readonly meta: Int32Array;
  readonly params: Float32Array;
  readonly rows: number;
}

function bad(message: string): never {
  throw rtError('BAD_REQUEST', `decoder step: ${message}`);
}

/** The row's positions and block ids; returns how many blocks its positions need. */
function checkPlacement(r: StepRow, i: number, g: TokenEngineGeometry): number {
  const n = r.tokens.length;
  if (n < 1) bad(`row ${i}: no tokens`);
  if (!Number.isInteger(r.start) || r.start < 0) bad(`row ${i}: start ${r.start} must be an integer >= 0`);
  const end = r.start + n;
  if (end > g.maxContext) bad(`row ${i}: positions up to ${end} exceed the context of ${g.maxContext}`);
  const need = Math.ceil(end / g.blockTokens);
  if (r.blocks.length < need) bad(`row ${i}: ${r.blocks.length} blocks cannot hold ${end} positions of ${g.blockTokens} per block`);
  for (let b = 0; b < need; b++) {
    const id = r.blocks[b] as number;
    if (id < 0 || id >= g.totalBlocks) bad(`row ${i}: block id ${id} is not in [0, ${g.totalBlocks})`);
  }
  for (const t of r.tokens) if (t < 0 || t >= g.vocabSize) bad(`row ${i}: token id ${t} is not in [0, ${g.vocabSize})`);
  return need;
}

function checkSampling(r: StepRow, i: number): void {
  const s = r.sampling;
  if (!s.greedy && !(s.temperature > 0)) bad(`row ${i}: temperature must be > 0 unless greedy`);
  if (!Number.isInteger(s.topK) || s.topK < 0) bad(`row ${i}: topK must be an integer >= 0`);
  if (!(s.topP > 0 && s.topP <= 1)) bad(`row ${i}: topP must be in (0, 1]`);
  if (!(s.repetitionPenalty > 0)) bad(`row ${i}: repetitionPenalty must be > 0`);
  if (!Number.isSafeInteger(s.seed)) bad(`row ${i}: seed must be a safe integer`);
}

function checkRow(r: StepRow, i: number, g: TokenEngineGeometry, slots: Set<number>): number {
  if (!Number.isInteger(r.slot) || r.slot < 0 || r.slot >= g.maxRows) bad(`row ${i}: slot ${r.slot} is not in [0, ${g.maxRows})`);
  if (slots.has(r.slot)) bad(`row ${i}: slot ${r.slot} appears twice in one step`);
  slots.add(r.slot);
  const need = checkPlacement(r, i, g);
  checkSampling(r, i);
  return need;
}

/** Checks every row (BAD_REQUEST naming the row and the bound it breaks) and packs the step. */
export function packStep(rows: readonly StepRow[], g: TokenEngineGeometry): PackedStep {
  if (rows.length < 1 || rows.length > g.maxRows) bad(`${rows.length} rows; a step takes 1 to ${g.maxRows}`);
  const slots = new Set<number>();
  const needs = rows.map((r, i) => checkRow(r, i, g, slots));
  const tokens = rows.reduce((a, r) => a + r.tokens.length, 0);
  if (tokens > g.maxStepTokens) bad(`${tokens} tokens; a step takes at most ${g.maxStepTokens}`);
  const blocks = needs.reduce((a, n) => a + n, 0);
  const meta = new Int32Array(2 + rows.length * ROW_META + tokens + blocks);
  const params = new Float32Array(rows.length * 3);
  meta[0] = rows.length;
  meta[1] = tokens;
  let t = 2 + rows.length * ROW_META;
  let b = t + tokens;
  rows.forEach((r, i) => {
    const s = r.sampling;
    const seed = BigInt.asUintN(64, BigInt(s.seed));
    meta.set(
      [
        r.slot,
        r.fresh ? 1 : 0,
        r.start,
        r.tokens.length,
        r.sample ? 1 : 0,
        s.greedy ? 1 : 0,
        s.topK,
        Number(seed & 0xffffffffn) | 0,
        Number(seed >> 32n) | 0,
        needs[i] as number,
      ],
      2 + i * ROW_META,
    );
    meta.set(r.tokens, t);
    t += r.tokens.length;
    meta.set(r.blocks.subarray(0, needs[i]), b);
    b += needs[i] as number;
    params[i * 3] = s.greedy ? 1 : s.temperature;
    params[i * 3 + 1] = s.topP;
    params[i * 3 + 2] = s.repetitionPenalty;
  });
  return { meta, params, rows: rows.length };
}
