import type { CudaBuildDeps, CudaTuner, TuneOptions, TuneResult } from '../../plan/cuda-tuning.ts';
import type { ConvLayer, GemmLayer } from '../../plan/cuda-network.ts';
import type { OfflineRuntime, RuntimeSession, Feeds, Outputs, HostTensor } from '../../plan/runtime.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import { rtError } from '../../errors/registry.ts';
import { loadCudaAddon } from './addon.ts';
import { loadCudaSession } from './cuda-engine.ts';

/** What `rtserve build --target cuda` gets from the engine side: the tuner, or why there is none. */
export function createCudaTuner(): { readonly tuner?: CudaTuner; readonly unavailable?: string } {
  const status = loadCudaAddon();
  if (!status.available) return { unavailable: status.reason };
  const { addon, device } = status;
  return {
    tuner: {
      device,
      tune(layer: ConvLayer | GemmLayer, options: TuneOptions): TuneResult {
        const opts = {
          workspaceLimit: options.workspaceLimit,
          graphCandidates: options.graphCandidates,
          iters: options.iters,
          verify: options.verify ? 1 : 0,
        };
        return JSON.parse(addon.tune(JSON.stringify(layer), JSON.stringify(opts))) as TuneResult;
      },
    },
  };
}

const DTYPES: Readonly<Record<number, 'FP32' | 'FP16'>> = { 1: 'FP32', 10: 'FP16' };

/**
 * An OfflineRuntime whose target 'cuda' sessions run plan payloads on the native engine and whose other
 * targets are the given onnxruntime runner: the build's accuracy gate compares the two on the same data.
 */
export function cudaAccuracyRuntime(ort: OfflineRuntime): OfflineRuntime {
  return {
    name: ort.name,
    version: ort.version,
    runnableTargets: [...new Set([...ort.runnableTargets, 'cuda' as const])],
    optimize: (model, o) => ort.optimize(model, o),
    async createSession(model, options): Promise<RuntimeSession> {
      if (options.target !== 'cuda') return ort.createSession(model, options);
      const s = await loadCudaSession(model, 'the built plan');
      const names = s.describe().outputs.map((o) => o.name);
      return {
        inputNames: s.describe().inputs.map((i) => i.name),
        outputNames: names,
        async run(feeds: Feeds, outputNames?: readonly string[]): Promise<Outputs> {
          const tensors: Tensor[] = Object.entries(feeds).map(([name, t]) => {
            const datatype = DTYPES[t.elemType];
            if (datatype === undefined) throw rtError('UNSUPPORTED', `input '${name}': the CUDA engine takes FP32 or FP16`);
            return { name, datatype, shape: [...t.dims], data: t.data as Float32Array | Uint16Array };
          });
          const out = await s.run(tensors, outputNames ?? names);
          const result: Outputs = {};
          for (const t of out) {
            const h: HostTensor = { elemType: t.datatype === 'FP32' ? 1 : 10, dims: t.shape, data: t.data as Float32Array | Uint16Array };
            result[t.name] = h;
          }
          return result;
        },
        historyDependentBatches: () =>
          s
            .nativeDescription()
            .programs.filter((p) => p.historyDependent)
            .map((p) => p.batch),
        release: () => s.close(),
      };
    },
  };
}

/** The CUDA build's dependencies for the CLI: the tuner (or why there is none) and the accuracy runtime. */
export function cudaBuildDeps(runtime: OfflineRuntime | undefined): CudaBuildDeps {
  const t = createCudaTuner();
  return {
    ...(t.tuner !== undefined ? { tuner: t.tuner } : {}),
    ...(t.unavailable !== undefined ? { unavailable: t.unavailable } : {}),
    ...(runtime !== undefined ? { accuracyRuntime: cudaAccuracyRuntime(runtime) } : {}),
  };
}
