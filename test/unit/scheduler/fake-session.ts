/**
 * Test doubles for scheduler unit tests: an EngineSession whose runs the test completes by hand (or that
 * completes them itself), computing y = 2x and z = x + 1 so that every answer is checkable per request.
 */
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import type { ModelConfigInput } from '../../../src/config/model-config.ts';
import { ModelStats } from '../../../src/observability/model-stats.ts';
import type { NumericArray } from '../../../src/tensor/datatype.ts';
import type { InferResponse, Parameters } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import type { EngineSession, SessionDescription } from '../../../src/engine/engine.ts';
import type { SchedulerOptions, ValidatedRequest } from '../../../src/scheduler/scheduler.ts';

export interface RunCall {
  readonly feeds: readonly Tensor[];
  readonly outputNames: readonly string[];
  readonly signal: AbortSignal | undefined;
  /** Rows of input 'x' (the batch size the engine saw). */
  readonly rows: number;
  /** The 'x' values the engine saw, in batch order. */
  readonly values: number[];
  done: boolean;
  release(): void;
  fail(err: unknown): void;
}

export function compute(feeds: readonly Tensor[], outputNames: readonly string[]): Tensor[] {
  const x = feeds.find((t) => t.name === 'x');
  if (x === undefined || Array.isArray(x.data)) throw new Error('fake engine: no numeric input x');
  const src = x.data as NumericArray;
  return outputNames.map((name) => {
    const out = new Float32Array(src.length);
    for (let i = 0; i < src.length; i++) {
      const v = Number(src[i]);
      out[i] = name === 'y' ? v * 2 : v + 1;
    }
    return { name, datatype: 'FP32', shape: [...x.shape], data: out };
  });
}

export class FakeSession implements EngineSession {
  readonly calls: RunCall[] = [];
  /** manual: runs complete when the test calls release()/fail(); auto: after a macrotask. `device`: the GPU it stands for. */
  constructor(
    private readonly mode: 'manual' | 'auto' = 'manual',
    readonly device?: number,
  ) {}

  describe(): SessionDescription {
    return {
      inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, -1] }],
      outputs: [
        { name: 'y', datatype: 'FP32', shape: [-1, -1] },
        { name: 'z', datatype: 'FP32', shape: [-1, -1] },
      ],
      provider: 'cpu',
    };
  }

  run(feeds: readonly Tensor[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]> {
    const x = feeds.find((t) => t.name === 'x');
    const values = x === undefined || Array.isArray(x.data) ? [] : Array.from(x.data as NumericArray, Number);
    // Compute now: the scheduler may hand over buffers that a real engine would transfer away.
    let outputs: Tensor[] | undefined;
    let error: unknown;
    try {
      outputs = compute(feeds, outputNames);
    } catch (err) {
      error = err;
    }
    return new Promise<Tensor[]>((resolve, reject) => {
      const call: RunCall = {
        feeds,
        outputNames,
        signal,
        rows: x?.shape[0] ?? 0,
        values,
        done: false,
        release: () => {
          call.done = true;
          if (outputs !== undefined) resolve(outputs);
          else reject(error);
        },
        fail: (err) => {
          call.done = true;
          reject(err);
        },
      };
      this.calls.push(call);
      if (this.mode === 'auto') setImmediate(() => call.release());
    });
  }

  async close(): Promise<void> {}

  call(i: number): RunCall {
    const c = this.calls[i];
    if (c === undefined) throw new Error(`no run call ${i} (have ${this.calls.length})`);
    return c;
  }
}

/** Lets queued microtasks and immediates run (the scheduler pumps on a microtask). */
export async function flush(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

/** Waits (bounded) until `cond` holds; fails the test instead of hanging. */
export async function until(cond: () => boolean, what: string, rounds = 2000): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    if (cond()) return;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

export interface RequestSpec {
  /** First value of x; x[i] = base + i. */
  readonly base: number;
  /** Batch rows (dim 0). */
  readonly rows?: number;
  /** Elements per row. */
  readonly width?: number;
  readonly datatype?: 'FP32' | 'INT32';
  readonly id?: string;
  readonly outputs?: readonly string[];
  readonly parameters?: Parameters;
  readonly signal?: AbortSignal;
  /** Extra input besides x (changes the batch key). */
  readonly extraInput?: boolean;
}

export function makeRequest(spec: RequestSpec): ValidatedRequest {
  const rows = spec.rows ?? 1;
  const width = spec.width ?? 2;
  const n = rows * width;
  const data = spec.datatype === 'INT32' ? new Int32Array(n) : new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = spec.base + i;
  const inputs: Tensor[] = [{ name: 'x', datatype: spec.datatype ?? 'FP32', shape: [rows, width], data }];
  if (spec.extraInput === true) inputs.push({ name: 'w', datatype: 'FP32', shape: [rows, 1], data: new Float32Array(rows) });
  return {
    request: {
      model: 'm',
      inputs,
      ...(spec.id === undefined ? {} : { id: spec.id }),
      ...(spec.parameters === undefined ? {} : { parameters: spec.parameters }),
      ...(spec.signal === undefined ? {} : { signal: spec.signal }),
    },
    batchSize: rows,
    outputNames: spec.outputs ?? ['y'],
    arrivalNs: process.hrtime.bigint(),
  };
}

/** Checks that a response answers exactly this request: y = 2x, z = x + 1, shape [rows, width]. */
export function expectedOutput(spec: RequestSpec, name: string): number[] {
  const n = (spec.rows ?? 1) * (spec.width ?? 2);
  return Array.from({ length: n }, (_, i) => (name === 'y' ? (spec.base + i) * 2 : spec.base + i + 1));
}

export function valuesOf(res: InferResponse, name: string): number[] {
  const t = res.outputs.find((o) => o.name === name);
  if (t === undefined || Array.isArray(t.data)) throw new Error(`no numeric output ${name}`);
  return Array.from(t.data as NumericArray, Number);
}

export function makeOptions(
  config: Omit<ModelConfigInput, 'name'>,
  sessions: readonly EngineSession[],
  maxQueueSizeDefault = 1000,
): SchedulerOptions & { stats: ModelStats } {
  return {
    modelName: 'm',
    version: '1',
    config: modelConfigSchema.parse({ name: 'm', ...config }),
    sessions,
    stats: new ModelStats('m', '1'),
    maxQueueSizeDefault,
  };
}

/** Tracks whether a promise settled, without unhandled rejections. */
export function track<T>(p: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
  let settled = false;
  p.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  return { settled: () => settled, promise: p };
}

/**
 * Advances node:test fake timers 1 ms at a time, letting the scheduler react between steps (as real time does:
 * a timer set from a timer callback fires in a later step, not inside one big jump).
 */
export async function advance(ms: number, tick: (ms: number) => void): Promise<void> {
  for (let i = 0; i < ms; i++) {
    tick(1);
    await flush(1);
  }
}
