import { rtError } from '../../errors/registry.ts';
import type { Lowered, LTensor } from './lowering/types.ts';
import type { CudaProgram, OperandRef } from '../../plan/cuda-network.ts';

/** Arena offsets are 256-byte aligned: vectorized kernels read 16 bytes, cuDNN and cuBLASLt want 16 too. */
export const ARENA_ALIGN = 256;

export interface StorageLife {
  readonly storage: number;
  readonly bytes: number;
  /** Step index of the first write (-1: written by the host before the program). */
  readonly first: number;
  /** Step index of the last read (steps.length: read by the host after the program). */
  readonly last: number;
}

export interface ArenaPlan {
  readonly offsets: ReadonlyMap<number, number>;
  readonly arenaBytes: number;
  readonly lives: readonly StorageLife[];
  /** Sum of all storages: what the arena would need without reuse. */
  readonly unpackedBytes: number;
}

export const tensorBytes = (t: LTensor, b: number): number => t.shape(b).reduce((a, x) => a * x, 1) * (t.dtype === 'f16' ? 2 : 4);
const align = (n: number): number => Math.ceil(n / ARENA_ALIGN) * ARENA_ALIGN;

/**
 * Packs tensor lifetimes into one arena (greedy by size, first fit in address order among the storages whose
 * lifetimes overlap), planned at the largest batch; smaller batches use the same offsets with fewer bytes.
 */
export function planArena(lowered: Lowered, batches: readonly number[]): ArenaPlan {
  const maxB = Math.max(...batches);
  const bytes = new Map<number, number>();
  for (const t of lowered.tensors) {
    for (const b of batches) {
      if (tensorBytes(t, b) > tensorBytes(t, maxB)) {
        throw rtError(
          'UNSUPPORTED',
          `tensor '${t.name}' is larger at batch ${b} than at batch ${maxB}; the CUDA engine plans memory at the largest batch`,
        );
      }
    }
    bytes.set(t.storage, Math.max(bytes.get(t.storage) ?? 0, tensorBytes(t, maxB)));
  }
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const touch = (s: number, i: number): void => {
    first.set(s, Math.min(first.get(s) ?? i, i));
    last.set(s, Math.max(last.get(s) ?? i, i));
  };
  lowered.steps.forEach((st, i) => {
    for (const t of st.reads) touch(t.storage, i);
    for (const t of st.writes) touch(t.storage, i);
  });
  for (const io of lowered.inputs) touch(io.raw.storage, -1);
  for (const io of lowered.outputs) touch(io.raw.storage, lowered.steps.length);
  const lives: StorageLife[] = [...bytes.entries()]
    .filter(([s]) => first.has(s))
    .map(([s, n]) => ({ storage: s, bytes: align(Math.max(n, 1)), first: first.get(s) ?? 0, last: last.get(s) ?? 0 }));
  const order = [...lives].sort((a, b) => b.bytes - a.bytes || a.first - b.first);
  const placed: { life: StorageLife; off: number }[] = [];
  const offsets = new Map<number, number>();
  let arenaBytes = 0;
  for (const l of order) {
    const clashes = placed.filter((p) => !(p.life.last < l.first || l.last < p.life.first)).sort((a, b) => a.off - b.off);
    let off = 0;
    for (const p of clashes) {
      if (off + l.bytes <= p.off) break;
      off = Math.max(off, p.off + p.life.bytes);
    }
    placed.push({ life: l, off });
    offsets.set(l.storage, off);
    arenaBytes = Math.max(arenaBytes, off + l.bytes);
  }
  return { offsets, arenaBytes, lives, unpackedBytes: lives.reduce((a, l) => a + l.bytes, 0) };
}

/** The concrete program (layers with offsets) for each batch size. */
export function emitPrograms(lowered: Lowered, plan: ArenaPlan, batches: readonly number[]): CudaProgram[] {
  const ref = (t: LTensor, b: number): OperandRef => {
    const off = plan.offsets.get(t.storage);
    if (off === undefined) throw rtError('INTERNAL', `cuda memory plan: tensor '${t.name}' has no storage`);
    return { off, bytes: tensorBytes(t, b) };
  };
  return batches.map((b) => ({ batch: b, layers: lowered.steps.flatMap((s) => s.emit(b, ref)) }));
}
