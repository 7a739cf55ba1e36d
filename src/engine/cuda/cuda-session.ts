import type { CudaDeviceInfo, CudaIoBinding } from '../../plan/cuda-network.ts';
import type { Tensor, TensorMetadata } from '../../tensor/tensor.ts';
import { rtError } from '../../errors/registry.ts';
import type { NumericArray } from '../../tensor/datatype.ts';
import { BatchScratch } from '../batch-scratch.ts';
import type { BatchFeed, EngineSession, FrameRun, SessionDescription } from '../engine.ts';
import type { ImageSpec } from '../../config/image-spec.ts';
import type { EncodedFrame } from '../../tensor/frames.ts';
import { CudaFrameInput } from './frame-input.ts';
import type { CudaAddon, NativeEngineHandle } from './addon.ts';
import type { CudaPayload } from './payload.ts';

/** GPU-only timings of one program (`bench`): per-launch latencies and the back-to-back time per batch. */
export interface CudaBenchResult {
  readonly batch: number;
  readonly graph: boolean;
  readonly latencyUs: readonly number[];
  readonly throughputUsPerBatch: number;
}

/** What the native engine chose per program: tactics, whether the CUDA graph was captured, memory. */
export interface CudaEngineDescription {
  readonly arenaBytes: number;
  readonly weightBytes: number;
  readonly workspaceBytes: number;
  readonly programs: readonly {
    readonly batch: number;
    readonly graph: boolean;
    readonly captureError: string;
    readonly layers: number;
    /** The load-time history check: the program's output changed with what earlier runs left in memory. */
    readonly historyDependent: boolean;
    /** Programmatic (PDL) edges of the captured graph the engine made full dependencies (native serializeProgrammaticEdges). */
    readonly pdlEdges?: number;
    /** Layers whose tuned tactic failed the load-time memory check (native readsUngivenMemory) and what replaced it. */
    readonly replaced: readonly {
      readonly layer: string;
      readonly from: unknown;
      readonly to: unknown;
      readonly why: string;
      readonly fallbackAlsoFails?: boolean;
    }[];
    readonly tactics: readonly { readonly name: string; readonly tactic: Readonly<Record<string, unknown>> }[];
  }[];
}

const ccText = (cc: readonly number[]): string => `sm_${cc.join('')}`;

/**
 * One instance of a CUDA plan: its weights on the device, one stream, a CUDA graph per batch size of the
 * profile. Runs execute on a libuv worker thread (napi_async_work) and are queued one at a time per instance;
 * a request of n rows runs the smallest program whose batch is >= n.
 */
export class CudaSession implements EngineSession {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private inFlight = 0;

  /** Batches given as pieces are joined here (runBatch); one run at a time per instance uses it. */
  private readonly scratch = new BatchScratch();
  private readonly addon: CudaAddon;
  private readonly handle: NativeEngineHandle;
  private readonly payload: CudaPayload;

  /** The CUDA device ordinal this instance runs on (instance_group `gpus`). */
  readonly device: number;

  /** Encoded frames decoded on the device straight into the plan's input (frame-input.ts), where the plan allows it. */
  private readonly frames: CudaFrameInput | undefined;

  private constructor(addon: CudaAddon, handle: NativeEngineHandle, payload: CudaPayload, device: number, image: ImageSpec | undefined) {
    this.addon = addon;
    this.handle = handle;
    this.payload = payload;
    this.device = device;
    this.frames = CudaFrameInput.of(addon, payload.network, image);
  }

  /** An instance of the plan on device `ordinal` (`device` is that device's description: the plan is checked against it). */
  static async create(
    addon: CudaAddon,
    device: CudaDeviceInfo,
    payload: CudaPayload,
    what = 'the plan',
    ordinal = 0,
    image?: ImageSpec,
  ): Promise<CudaSession> {
    const tuned = payload.network.device;
    if (tuned !== null) {
      if (tuned.cc.join('.') !== device.cc.join('.')) {
        throw rtError(
          'ENGINE_UNAVAILABLE',
          `${what} was tuned for ${tuned.name} (${ccText(tuned.cc)}) and this GPU is ${device.name} (${ccText(device.cc)}); rebuild it here with \`rtserve build --target cuda\``,
        );
      }
      if (tuned.name !== device.name || tuned.cudnn !== device.cudnn) {
        process.emitWarning(
          `${what} was tuned on ${tuned.name} with cuDNN ${tuned.cudnn}; running on ${device.name} with cuDNN ${device.cudnn}: rebuild for its own tactics`,
          { code: 'RTSERVE_CUDA_DEVICE' },
        );
      }
    }
    let handle: NativeEngineHandle;
    try {
      handle = await addon.create(payload.json, payload.weights, ordinal);
    } catch (e) {
      throw rtError(
        'ENGINE_UNAVAILABLE',
        `${what}: the CUDA engine could not load it on GPU ${ordinal}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    return new CudaSession(addon, handle, payload, ordinal, image);
  }

  describe(): SessionDescription {
    const meta = (io: CudaIoBinding): TensorMetadata => ({
      name: io.name,
      datatype: io.datatype,
      shape: [-1, ...io.rowShape],
    });
    return { inputs: this.payload.network.inputs.map(meta), outputs: this.payload.network.outputs.map(meta), provider: 'cuda' };
  }

  /** Batch sizes with a program (and a CUDA graph). */
  get batches(): readonly number[] {
    return this.payload.network.batches;
  }

  run(feeds: readonly Tensor[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]> {
    const infos = feeds.map((t) => ({
      name: t.name,
      datatype: t.datatype,
      shape: t.shape,
      data: Array.isArray(t.data) ? undefined : (t.data as NumericArray),
    }));
    return this.submit(infos, (i) => infos[i]?.data as ArrayBufferView, outputNames, signal);
  }

  /**
   * A batch as its requests' pieces: they go to the addon as they are and are copied back to back into the
   * instance's pinned input memory on the run's own thread, so the event loop never copies a batch (at 27,000
   * images/s of FP32 ResNet input that would be 16 GB/s). Only a batch larger than the largest program, which runs
   * in chunks of it, is joined first, into a buffer this instance reuses (engine/batch-scratch.ts): runs are queued
   * one at a time per instance, so the run before has stopped reading it.
   */
  runBatch(feeds: readonly BatchFeed[], outputNames: readonly string[], signal?: AbortSignal): Promise<Tensor[]> {
    const infos = feeds.map((f) => {
      const numeric = f.parts.every((p) => !Array.isArray(p.data));
      let bytes = 0;
      for (const p of f.parts) bytes += numeric ? (p.data as NumericArray).byteLength : 0;
      return { name: f.name, datatype: f.datatype, shape: f.shape, data: numeric ? { byteLength: bytes } : undefined };
    });
    const join = (i: number): ArrayBufferView => {
      const f = feeds[i] as BatchFeed;
      return this.scratch.join(
        f.name,
        f.datatype as 'FP32' | 'FP16',
        f.parts.map((p) => p.data as NumericArray),
      );
    };
    const pieces = (i: number): readonly ArrayBufferView[] => (feeds[i] as BatchFeed).parts.map((p) => p.data as NumericArray);
    return this.submit(infos, join, outputNames, signal, pieces);
  }

  get frameInput(): string | undefined {
    return this.frames?.name;
  }

  /** A batch of encoded frames, decoded by nvJPEG into the plan's input on the device; queued like every run. */
  runFrames(frames: readonly EncodedFrame[], outputNames: readonly string[], signal?: AbortSignal): Promise<FrameRun> {
    const input = this.frames;
    if (this.closed) return Promise.reject(rtError('MODEL_NOT_READY', 'the CUDA session is closed'));
    if (input === undefined) return Promise.reject(rtError('INTERNAL', 'this plan does not take encoded frames'));
    const job = async (): Promise<FrameRun> => {
      if (signal?.aborted === true) throw rtError('CANCELLED', 'request was cancelled before it ran');
      this.inFlight++;
      try {
        return await input.run(this, frames, outputNames);
      } finally {
        this.inFlight--;
      }
    };
    return this.enqueue(job);
  }

  /** Runs `job` after every run queued before it (one at a time per instance), whether those succeeded or not. */
  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const result = this.queue.then(job, job);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private submit(
    feeds: readonly FeedInfo[],
    bytesOf: (feedIndex: number) => ArrayBufferView,
    outputNames: readonly string[],
    signal: AbortSignal | undefined,
    piecesOf?: (feedIndex: number) => readonly ArrayBufferView[],
  ): Promise<Tensor[]> {
    if (this.closed) return Promise.reject(rtError('MODEL_NOT_READY', 'the CUDA session is closed'));
    if (signal?.aborted === true) return Promise.reject(rtError('CANCELLED', 'request was cancelled before it ran'));
    let rows: number;
    let order: number[];
    try {
      ({ rows, order } = this.checkFeeds(feeds));
    } catch (e) {
      return Promise.reject(e);
    }
    const net = this.payload.network;
    const wanted = outputNames.length === 0 ? net.outputs.map((o) => o.name) : outputNames;
    for (const name of wanted) {
      if (!net.outputs.some((o) => o.name === name)) return Promise.reject(rtError('UNKNOWN_OUTPUT', `the model has no output '${name}'`));
    }
    const outputs = net.outputs.map((o) => allocate(o.datatype, rows * o.rowShape.reduce((a, b) => a * b, 1)));
    const launch = async (
      batch: number,
      n: number,
      ins: readonly (ArrayBufferView | readonly ArrayBufferView[])[],
      outs: readonly ArrayBufferView[],
    ): Promise<void> => {
      this.inFlight++;
      try {
        await this.addon.run(this.handle, batch, n, ins, outs);
      } catch (e) {
        // The addon's run fails only on CUDA / cuDNN / cuBLAS status errors: a device failure, never the input's
        // (checkFeeds has validated the batch), so the model's engine chain fails over on it.
        throw rtError('ENGINE_DEVICE_FAILED', `CUDA engine: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        this.inFlight--;
      }
    };
    const job = async (): Promise<Tensor[]> => {
      if (signal?.aborted === true) throw rtError('CANCELLED', 'request was cancelled before it ran');
      if (rows <= net.maxBatch) {
        const batch = net.batches.find((b) => b >= rows) ?? net.maxBatch;
        await launch(
          batch,
          rows,
          order.map((i) => piecesOf?.(i) ?? bytesOf(i)),
          outputs,
        );
      } else {
        // Requests beyond the largest program run in chunks of it (the batcher normally keeps below it).
        const inputs = order.map(bytesOf);
        for (let from = 0; from < rows; from += net.maxBatch) {
          const n = Math.min(net.maxBatch, rows - from);
          const batch = net.batches.find((b) => b >= n) ?? net.maxBatch;
          const ins = inputs.map((v, i) => sliceRows(v, net.inputs[i]?.rowBytes ?? 0, from, n));
          await launch(
            batch,
            n,
            ins,
            outputs.map((v, i) => sliceRows(v, net.outputs[i]?.rowBytes ?? 0, from, n)),
          );
        }
      }
      return net.outputs
        .map(
          (o, i): Tensor => ({
            name: o.name,
            datatype: o.datatype,
            shape: [rows, ...o.rowShape],
            data: outputs[i] as Float32Array | Uint16Array | Int32Array,
          }),
        )
        .filter((t) => wanted.includes(t.name));
    };
    return this.enqueue(job);
  }

  /** GPU-only timing of one program (benchmarks). */
  async bench(batch: number, iters: number): Promise<CudaBenchResult> {
    const run = async (): Promise<CudaBenchResult> => JSON.parse(await this.addon.bench(this.handle, batch, iters)) as CudaBenchResult;
    return this.enqueue(run);
  }

  /**
   * Diagnostics (bench/cuda/localize-drift.ts): runs the first `layers` layers of the program for `batch` on
   * `feeds` (the plan's inputs, in order, `rows` rows each) and returns `bytes` of the arena at `offset`; `fill` sets
   * an arena range to one byte value just before the last of those layers runs.
   */
  async probe(
    batch: number,
    rows: number,
    feeds: readonly ArrayBufferView[],
    layers: number,
    offset: number,
    bytes: number,
    fill?: { readonly offset: number; readonly bytes: number; readonly byte: number },
  ): Promise<Uint8Array> {
    const out = new Uint8Array(bytes);
    const run = async (): Promise<void> =>
      fill === undefined
        ? this.addon.probe(this.handle, batch, rows, feeds, layers, offset, out)
        : this.addon.probe(this.handle, batch, rows, feeds, layers, offset, out, fill.offset, fill.bytes, fill.byte);
    await this.enqueue(run);
    return out;
  }

  /** The addon, native handle and network of this instance, for the GPU image path (engine/cuda/image-run.ts). */
  nativeParts(): { readonly addon: CudaAddon; readonly handle: NativeEngineHandle; readonly network: CudaPayload['network'] } {
    return { addon: this.addon, handle: this.handle, network: this.payload.network };
  }

  /** The tactics and CUDA-graph state the native engine ended up with. */
  nativeDescription(): CudaEngineDescription {
    return JSON.parse(this.addon.describe(this.handle)) as CudaEngineDescription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    if (this.inFlight === 0) this.addon.destroy(this.handle);
  }

  /** Checks the feeds against the plan's inputs; `order[i]` is the index in `feeds` of the plan's input i. */
  private checkFeeds(feeds: readonly FeedInfo[]): { rows: number; order: number[] } {
    const net = this.payload.network;
    let rows = -1;
    const order: number[] = [];
    for (const io of net.inputs) {
      const at = feeds.findIndex((f) => f.name === io.name);
      const t = feeds[at];
      if (t === undefined) throw rtError('MISSING_INPUT', `input '${io.name}' is missing`);
      if (t.datatype !== io.datatype) throw rtError('BAD_DATATYPE', `input '${io.name}' must be ${io.datatype}, got ${t.datatype}`);
      const expect = `[n,${io.rowShape.join(',')}]`;
      if (t.shape.length !== io.rowShape.length + 1 || io.rowShape.some((d, i) => t.shape[i + 1] !== d)) {
        throw rtError('BAD_SHAPE', `input '${io.name}' has shape [${t.shape.join(',')}], expected ${expect}`);
      }
      const n = t.shape[0] ?? 0;
      if (n < 1) throw rtError('BAD_SHAPE', `input '${io.name}' has an empty batch`);
      if (rows >= 0 && n !== rows) throw rtError('BAD_SHAPE', `inputs disagree on the batch size (${rows} and ${n})`);
      rows = n;
      if (t.data === undefined) throw rtError('BAD_DATATYPE', `input '${io.name}' must be numeric`);
      if (t.data.byteLength !== n * io.rowBytes) {
        throw rtError(
          'BAD_DATA',
          `input '${io.name}' holds ${t.data.byteLength} bytes, expected ${n * io.rowBytes} for shape [${t.shape.join(',')}]`,
        );
      }
      order.push(at);
    }
    for (const f of feeds) {
      if (!net.inputs.some((i) => i.name === f.name)) throw rtError('UNEXPECTED_INPUT', `the model has no input '${f.name}'`);
    }
    return { rows, order };
  }
}

/** What checkFeeds needs of an input: `data` is undefined for BYTES, and only its size for a batch not yet joined. */
interface FeedInfo {
  readonly name: string;
  readonly datatype: Tensor['datatype'];
  readonly shape: readonly number[];
  readonly data: { readonly byteLength: number } | undefined;
}

function allocate(datatype: 'FP32' | 'FP16' | 'INT32', count: number): Float32Array | Uint16Array | Int32Array {
  if (datatype === 'INT32') return new Int32Array(count);
  return datatype === 'FP32' ? new Float32Array(count) : new Uint16Array(count);
}

function sliceRows(v: ArrayBufferView, rowBytes: number, from: number, n: number): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset + from * rowBytes, n * rowBytes);
}
