import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { rtError } from '../../errors/registry.ts';
import { DT, allocData, elemTypeName, readNumber, writeNumber, type NumericData } from '../../tensor/onnx-dtype.ts';
import type { ValueInfo } from '../ir/graph.ts';
import { numel } from '../ir/tensor.ts';
import type { Feeds, HostTensor } from '../../plan/runtime.ts';
import { readNpy } from './npy.ts';
import { readNpz } from './npz.ts';
import { mulberry32, normal } from '../../util/random.ts';

/**
 * Calibration and validation data: per model input, one array whose leading dimension counts samples. Sources:
 * - FILE.npy: the only input of a single-input model;
 * - FILE.npz: one array per input, named like the input; a validation archive may add `labels` (int, [N]);
 * - DIR: every *.npy / *.npz in name order, each one batch in the forms above, concatenated.
 */
export interface Dataset {
  readonly source: string;
  readonly samples: number;
  readonly inputs: ReadonlyMap<string, HostTensor>;
  /** Class ids, one per sample, for top-1 accuracy. */
  readonly labels: Int32Array | undefined;
  /** sha256 of the arrays (recorded in the calibration table). */
  readonly sha256: string;
}

export const LABELS_KEY = 'labels';

const fmt = (dims: readonly (number | string | null)[]): string => `[${dims.map((d) => (d === null ? '?' : String(d))).join(',')}]`;

/** Converts an array to the model input's element type where that is lossless or the usual float64 → float32. */
function coerce(t: HostTensor, want: number, what: string): HostTensor {
  if (t.elemType === want) return t;
  const floats = [DT.FLOAT, DT.DOUBLE, DT.FLOAT16] as number[];
  const ints = [DT.INT32, DT.INT64, DT.INT16, DT.INT8, DT.UINT8, DT.UINT16, DT.UINT32] as number[];
  const ok = (floats.includes(t.elemType) && floats.includes(want)) || (ints.includes(t.elemType) && ints.includes(want));
  if (!ok) {
    throw rtError('BAD_DATATYPE', `${what} has dtype ${elemTypeName(t.elemType)} but the model input is ${elemTypeName(want)}`);
  }
  const out = allocData(want, t.data.length);
  for (let i = 0; i < out.length; i++) writeNumber(want, out, i, readNumber(t.elemType, t.data, i));
  return { elemType: want, dims: t.dims, data: out };
}

function checkShape(t: HostTensor, input: ValueInfo, what: string): void {
  const model = input.type.shape;
  if (model === null) return;
  if (t.dims.length !== model.length) {
    throw rtError(
      'BAD_SHAPE',
      `${what} has shape ${fmt(t.dims)} (rank ${t.dims.length}) but model input '${input.name}' has shape ${fmt(model)} (rank ${model.length}); ` +
        'the first dimension counts samples',
    );
  }
  for (let i = 1; i < model.length; i++) {
    const d = model[i];
    if (typeof d === 'number' && d !== t.dims[i]) {
      throw rtError(
        'BAD_SHAPE',
        `${what} has shape ${fmt(t.dims)} but model input '${input.name}' has shape ${fmt(model)}: dimension ${i} must be ${d}, got ${t.dims[i]}`,
      );
    }
  }
  const first = model[0];
  if (typeof first === 'number' && first > 0 && (t.dims[0] ?? 0) % first !== 0) {
    throw rtError('BAD_SHAPE', `${what} has ${t.dims[0]} samples, not a multiple of model input '${input.name}''s fixed batch size ${first}`);
  }
}

function concat(parts: readonly HostTensor[]): HostTensor {
  const first = parts[0] as HostTensor;
  for (const p of parts) {
    if (p.dims.length !== first.dims.length || p.dims.slice(1).some((d, i) => d !== first.dims[i + 1]) || p.elemType !== first.elemType) {
      throw rtError(
        'BAD_SHAPE',
        `the batches of a data directory disagree: ${fmt(first.dims)} ${elemTypeName(first.elemType)} vs ${fmt(p.dims)} ${elemTypeName(p.elemType)}`,
      );
    }
  }
  const total = parts.reduce((s, p) => s + (p.dims[0] ?? 0), 0);
  const out = allocData(
    first.elemType,
    parts.reduce((s, p) => s + p.data.length, 0),
  );
  let o = 0;
  for (const p of parts) {
    (out as unknown as { set(a: ArrayLike<number | bigint>, o: number): void }).set(p.data as ArrayLike<number | bigint>, o);
    o += p.data.length;
  }
  return { elemType: first.elemType, dims: [total, ...first.dims.slice(1)], data: out };
}

async function readArrays(file: string, inputs: readonly ValueInfo[]): Promise<Map<string, HostTensor>> {
  const bytes = new Uint8Array(await readFile(file));
  const ext = extname(file).toLowerCase();
  if (ext === '.npz') return readNpz(bytes, file);
  if (ext === '.npy') {
    if (inputs.length !== 1) {
      throw rtError(
        'BAD_CONFIG',
        `${file}: a single .npy array can only feed a single-input model; this model has inputs ${inputs.map((i) => `'${i.name}'`).join(', ')}: use an .npz with one array per input`,
      );
    }
    return new Map([[inputs[0]?.name ?? '', readNpy(bytes, file)]]);
  }
  throw rtError('BAD_CONFIG', `${file}: data files must be .npy or .npz`);
}

/** Loads and checks a dataset against the model's inputs. `purpose` names it in messages ('calibration'). */
export async function loadDataset(path: string, inputs: readonly ValueInfo[], purpose: string): Promise<Dataset> {
  let st;
  try {
    st = await stat(path);
  } catch {
    throw rtError('BAD_CONFIG', `${purpose} data '${path}' does not exist`);
  }
  const files: string[] = [];
  if (st.isDirectory()) {
    const names = (await readdir(path)).filter((n) => /\.(npy|npz)$/i.test(n)).sort();
    if (names.length === 0) throw rtError('BAD_CONFIG', `${purpose} directory '${path}' holds no .npy or .npz files`);
    files.push(...names.map((n) => join(path, n)));
  } else files.push(path);

  const perInput = new Map<string, HostTensor[]>(inputs.map((i) => [i.name, []]));
  const labelParts: HostTensor[] = [];
  for (const file of files) {
    const arrays = await readArrays(file, inputs);
    for (const [key, arr] of arrays) {
      if (key === LABELS_KEY && !perInput.has(key)) {
        labelParts.push(arr);
        continue;
      }
      const list = perInput.get(key);
      if (list === undefined) {
        throw rtError(
          'BAD_CONFIG',
          `${purpose} file ${basename(file)} has an array '${key}' that is not a model input (inputs: ${inputs.map((i) => i.name).join(', ')}; '${LABELS_KEY}' is reserved for class labels)`,
        );
      }
      list.push(arr);
    }
    for (const i of inputs) {
      if (!arrays.has(i.name))
        throw rtError(
          'BAD_CONFIG',
          `${purpose} file ${basename(file)} has no array for model input '${i.name}' (has: ${[...arrays.keys()].join(', ') || 'nothing'})`,
        );
    }
  }
  const tensors = new Map<string, HostTensor>();
  let samples = -1;
  const hash = createHash('sha256');
  for (const i of inputs) {
    const parts = perInput.get(i.name) ?? [];
    const what = `${purpose} data for input '${i.name}'`;
    const coerced = parts.map((p) => coerce(p, i.type.elemType, what));
    for (const p of coerced) checkShape(p, i, what);
    const t = coerced.length === 1 ? (coerced[0] as HostTensor) : concat(coerced);
    const n = t.dims[0] ?? 0;
    if (samples >= 0 && n !== samples)
      throw rtError('BAD_SHAPE', `${purpose} data: input '${i.name}' has ${n} samples but another input has ${samples}`);
    samples = n;
    tensors.set(i.name, t);
    hash.update(i.name).update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  }
  let labels: Int32Array | undefined;
  if (labelParts.length > 0) {
    const ints = [DT.INT32, DT.INT64, DT.INT16, DT.INT8, DT.UINT8, DT.UINT16, DT.UINT32] as number[];
    const bad = labelParts.find((l) => l.dims.length !== 1 || !ints.includes(l.elemType));
    const total = labelParts.reduce((s, l) => s + (l.dims[0] ?? 0), 0);
    if (bad !== undefined || total !== samples) {
      const shown = bad ?? (labelParts[0] as HostTensor);
      throw rtError(
        'BAD_SHAPE',
        `${purpose} labels must be one integer class id per sample: ${samples} in total, got ${total} (${fmt(shown.dims)} ${elemTypeName(shown.elemType)})`,
      );
    }
    labels = new Int32Array(samples);
    let k = 0;
    for (const l of labelParts) for (let i = 0; i < l.data.length; i++) labels[k++] = readNumber(l.elemType, l.data, i);
  }
  if (samples <= 0) throw rtError('BAD_CONFIG', `${purpose} data '${path}' holds no samples`);
  return { source: path, samples, inputs: tensors, labels, sha256: hash.digest('hex') };
}

function sliceSamples(t: HostTensor, from: number, to: number): HostTensor {
  const per = numel(t.dims.slice(1));
  const data = (t.data as unknown as { subarray(a: number, b: number): NumericData }).subarray(from * per, to * per);
  return { elemType: t.elemType, dims: [to - from, ...t.dims.slice(1)], data };
}

/** Samples [from, to) of a dataset (views, no copies). */
export function subset(d: Dataset, from: number, to: number): Dataset {
  const inputs = new Map([...d.inputs].map(([k, t]) => [k, sliceSamples(t, from, to)]));
  return { source: `${d.source}[${from}:${to}]`, samples: to - from, inputs, labels: d.labels?.subarray(from, to), sha256: d.sha256 };
}

/**
 * Splits off the last `fraction` of the samples (at least one, and leaving at least one) as a held-out part.
 * With a single sample both parts are that sample.
 */
export function holdOut(d: Dataset, fraction: number): { readonly train: Dataset; readonly heldOut: Dataset } {
  if (d.samples < 2) return { train: d, heldOut: d };
  const k = Math.min(d.samples - 1, Math.max(1, Math.round(d.samples * fraction)));
  return { train: subset(d, 0, d.samples - k), heldOut: subset(d, d.samples - k, d.samples) };
}

/** Feeds of at most `batchSize` samples each (exactly the model's fixed batch when it has one). */
export function* batches(d: Dataset, batchSize: number, inputs: readonly ValueInfo[]): Generator<{ feeds: Feeds; from: number; to: number }> {
  let size = batchSize;
  for (const i of inputs) {
    const first = i.type.shape?.[0];
    if (typeof first === 'number' && first > 0) size = first;
  }
  for (let from = 0; from < d.samples; from += size) {
    const to = Math.min(d.samples, from + size);
    const feeds: Record<string, HostTensor> = {};
    for (const [k, t] of d.inputs) feeds[k] = sliceSamples(t, from, to);
    yield { feeds, from, to };
  }
}

/** Seeded standard-normal inputs (dynamic dims set to 1 except the sample dim) for gates without data. */
export function syntheticDataset(inputs: readonly ValueInfo[], samples: number, seed: number): Dataset {
  const rand = mulberry32(seed);
  const tensors = new Map<string, HostTensor>();
  for (const i of inputs) {
    const shape = i.type.shape ?? [];
    const dims = [samples, ...shape.slice(1).map((d) => (typeof d === 'number' ? d : 1))];
    const n = numel(dims);
    const data = allocData(i.type.elemType, n);
    for (let k = 0; k < n; k++) {
      const v = normal(rand);
      writeNumber(
        i.type.elemType,
        data,
        k,
        i.type.elemType === DT.BOOL ? (v > 0 ? 1 : 0) : [DT.FLOAT, DT.DOUBLE, DT.FLOAT16].includes(i.type.elemType as 1) ? v : Math.round(v * 4),
      );
    }
    tensors.set(i.name, { elemType: i.type.elemType, dims, data });
  }
  return { source: 'synthetic', samples, inputs: tensors, labels: undefined, sha256: `synthetic-${seed}` };
}
