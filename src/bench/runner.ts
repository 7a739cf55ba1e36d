/**
 * `rtserve bench` as a library: every protocol × batch size × load level against a server, and optionally the
 * same model through the raw engine in the same run, in one BenchReport.
 */
import type { Tensor, TensorMetadata } from '../tensor/tensor.ts';
import type { EngineLoadOptions } from '../engine/engine.ts';
import { httpClientFactories, type HttpStack } from './clients/http-client.ts';
import { openEngineClient, type EngineKind } from './clients/engine-client.ts';
import { grpcClientFactories } from './clients/grpc-client.ts';
import { wsClientFactory, wsUrlOf } from './clients/ws-client.ts';
import type { LoadClientFactory } from './clients/load-client.ts';
import { RestControl } from './control.ts';
import { BenchError } from './errors.ts';
import { describeLoad } from './format.ts';
import { inputsFromFile, randomInputs, zeroInputs, type ShapeOptions } from './inputs.ts';
import { machineInfo, reportHeader } from './machine.ts';
import { measureLevel, type LevelProgress } from './measure.ts';
import type { BenchReport, BenchTotals, LevelResult, LoadMode, MeasureOptions } from './types.ts';
import type { SharedMemoryMode } from './shared-memory.ts';

export type InputSource = { readonly kind: 'random' } | { readonly kind: 'zero' } | { readonly kind: 'file'; readonly path: string };

export interface EngineBenchOptions {
  /** The model file (model.onnx) to load in-process. */
  readonly modelPath: string;
  readonly kinds: readonly EngineKind[];
  readonly options: EngineLoadOptions;
  /** Load levels for the engine; default one request at a time (concurrency 1). */
  readonly loads?: readonly LoadMode[];
}

export interface BenchOptions {
  /** The server's REST base URL: control plane (metadata, statistics) and the http-* protocols. */
  readonly url?: string;
  /** Addresses for the other protocols, where they differ from `url` (gRPC host:port, ws:// URL). */
  readonly grpcUrl?: string;
  readonly wsUrl?: string;
  readonly model: string;
  readonly version?: string;
  readonly protocols: readonly string[];
  readonly loads: readonly LoadMode[];
  readonly batches: readonly number[];
  readonly input: InputSource;
  /** Shapes for inputs with dynamic dimensions, without the batch dimension. */
  readonly shapes?: ReadonlyMap<string, readonly number[]>;
  readonly measure: MeasureOptions;
  readonly timeoutMs?: number;
  /**
   * `system`: the load clients put their tensors in system shared memory regions and send references (perf_analyzer
   * --shared-memory system; src/bench/shared-memory.ts). Default `none`.
   */
  readonly sharedMemory?: SharedMemoryMode;
  readonly engine?: EngineBenchOptions;
  /** The command line, recorded in the report. */
  readonly command?: string;
  readonly onProgress?: (label: string, p: LevelProgress) => void;
  /** Called when a level is done (the CLI clears its progress line). */
  readonly onLevel?: (result: LevelResult) => void;
}

/** The protocols this build can drive (one file per protocol under clients/). */
export function defaultFactories(stack: HttpStack = 'net'): LoadClientFactory[] {
  return [...httpClientFactories(stack), ...grpcClientFactories, wsClientFactory];
}

async function inputSetsFor(source: InputSource, inputs: readonly TensorMetadata[], shape: ShapeOptions): Promise<Tensor[][]> {
  switch (source.kind) {
    case 'random':
      return [randomInputs(inputs, shape)];
    case 'zero':
      return [zeroInputs(inputs, shape)];
    case 'file':
      return inputsFromFile(source.path, inputs, shape);
  }
}

/** Outstanding requests a client must allow for: the highest concurrency, or the in-flight cap of rate mode. */
function poolSize(loads: readonly LoadMode[], maxInflight: number): number {
  return Math.max(1, ...loads.map((l) => (l.kind === 'concurrency' ? l.concurrency : maxInflight)));
}

export async function runBench(opts: BenchOptions, factories: readonly LoadClientFactory[] = defaultFactories()): Promise<BenchReport> {
  if (opts.url === undefined && opts.engine === undefined) throw new BenchError('nothing to measure: give a server --url, --engine, or both');
  const byName = new Map(factories.map((f) => [f.protocol, f]));
  const sharedMemory = opts.sharedMemory ?? 'none';
  for (const p of opts.url === undefined ? [] : opts.protocols) {
    const f = byName.get(p);
    if (f === undefined) throw new BenchError(`unknown or unavailable protocol '${p}'; available: ${[...byName.keys()].join(', ')}`);
    if (sharedMemory === 'system' && f.sharedMemory !== true) {
      const able = [...byName.values()].filter((x) => x.sharedMemory === true).map((x) => x.protocol);
      throw new BenchError(`--shared-memory system: protocol '${p}' cannot send tensors through shared memory; use ${able.join(', ')}`);
    }
  }
  const machine = machineInfo();
  const levels: LevelResult[] = [];
  const totals: Record<string, BenchTotals> = {};
  const addTotals = (protocol: string, o: { sent: number; succeeded: number; failed: number }): void => {
    const t = totals[protocol] ?? { sent: 0, succeeded: 0, failed: 0 };
    totals[protocol] = { sent: t.sent + o.sent, succeeded: t.succeeded + o.succeeded, failed: t.failed + o.failed };
  };
  const finishLevel = (r: LevelResult): void => {
    levels.push(r);
    opts.onLevel?.(r);
  };

  let serverTotals: BenchReport['serverTotals'];
  if (opts.url !== undefined) {
    const control = new RestControl(opts.url, opts.model, opts.version);
    const info = await control.modelInfo();
    const before = await control.statistics();
    for (const protocol of opts.protocols) {
      const factory = byName.get(protocol) as LoadClientFactory;
      const endpoint = factory.endpoint === 'http' ? opts.url : factory.endpoint === 'grpc' ? opts.grpcUrl : (opts.wsUrl ?? wsUrlOf(opts.url));
      if (endpoint === undefined) throw new BenchError(`protocol ${protocol} needs --${factory.endpoint}-url`);
      for (const batch of opts.batches) {
        const shape: ShapeOptions = { batch, maxBatchSize: info.maxBatchSize, ...(opts.shapes === undefined ? {} : { shapes: opts.shapes }) };
        const inputSets = await inputSetsFor(opts.input, info.inputs, shape);
        const client = await factory.create({
          url: endpoint,
          model: opts.model,
          ...(opts.version === undefined ? {} : { version: opts.version }),
          inputSets,
          concurrency: poolSize(opts.loads, opts.measure.maxInflight),
          ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
          ...(sharedMemory === 'system' ? { sharedMemory: { controlUrl: opts.url } } : {}),
        });
        // Requests the client sent to set itself up are requests the server counts too.
        if (client.setupRequests !== undefined) addTotals(protocol, { sent: client.setupRequests, succeeded: client.setupRequests, failed: 0 });
        try {
          for (const mode of opts.loads) {
            const label = `${protocol} b=${batch} ${describeLoad(mode)}`;
            const outcome = await measureLevel(client, { batch, mode }, opts.measure, {
              snapshot: () => control.statistics(),
              ...(opts.onProgress === undefined ? {} : { onProgress: (p: LevelProgress) => opts.onProgress?.(label, p) }),
            });
            addTotals(protocol, outcome);
            finishLevel(outcome.result);
          }
        } finally {
          await client.close();
        }
      }
    }
    // A server that died during the run still gets its client-side report; only the cross-check is missing then.
    const after = await control.statistics().catch(() => undefined);
    if (after !== undefined) serverTotals = { requests: after.success.count - before.success.count, failures: after.fail.count - before.fail.count };
  }

  if (opts.engine !== undefined) {
    const loads = opts.engine.loads ?? [{ kind: 'concurrency', concurrency: 1 }];
    for (const kind of opts.engine.kinds) {
      const client = await openEngineClient(kind, opts.engine.modelPath, opts.engine.options);
      try {
        const inputs = client.describe().inputs;
        // A graph whose every input has a dynamic first dimension batches along it (the auto-complete rule).
        const batching = inputs.every((t) => t.shape[0] === -1);
        for (const batch of opts.batches) {
          const shape: ShapeOptions = {
            batch,
            maxBatchSize: batching ? Number.MAX_SAFE_INTEGER : 0,
            ...(opts.shapes === undefined ? {} : { shapes: opts.shapes }),
          };
          client.setInputSets(await inputSetsFor(opts.input, inputs, shape));
          for (const mode of loads) {
            const label = `${kind} b=${batch} ${describeLoad(mode)}`;
            const outcome = await measureLevel(client, { batch, mode }, opts.measure, {
              ...(opts.onProgress === undefined ? {} : { onProgress: (p: LevelProgress) => opts.onProgress?.(label, p) }),
            });
            addTotals(kind, outcome);
            finishLevel(outcome.result);
          }
        }
      } finally {
        await client.close();
      }
    }
  }

  return {
    ...reportHeader(machine, opts),
    measure: opts.measure,
    ...(sharedMemory === 'none' || opts.url === undefined ? {} : { sharedMemory }),
    levels,
    totals,
    ...(serverTotals === undefined ? {} : { serverTotals }),
  };
}
