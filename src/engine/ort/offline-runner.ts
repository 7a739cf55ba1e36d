import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { Feeds, HostTensor, OfflineRuntime, Outputs, RuntimeSession } from '../../plan/runtime.ts';
import { rtError } from '../../errors/registry.ts';
import { elemTypeOfOrt, ortTypeOfElemType } from './ort-types.ts';
import { numericOrtTensor, type OrtNumericType } from './ort-tensor.ts';

/**
 * An in-process onnxruntime for the offline compiler (`rtserve build`): calibration runs, onnxruntime's own
 * offline optimization (optimizedModelFilePath) and accuracy checks. It runs on the calling thread, which is
 * fine for a build tool and never used by the server (the serving engine runs sessions in workers).
 */

/** Numeric element types only: the compiler feeds and compares numbers, never strings. */
function ortType(elemType: number): OrtNumericType | undefined {
  const t = ortTypeOfElemType(elemType);
  return t === 'string' ? undefined : t;
}

function toOrt(name: string, t: HostTensor): ort.Tensor {
  const type = ortType(t.elemType);
  if (type === undefined) throw rtError('UNSUPPORTED', `input '${name}': element type ${t.elemType} cannot be fed to onnxruntime`);
  return numericOrtTensor(type, t.data as ort.Tensor.DataType, t.dims);
}

function fromOrt(t: ort.Tensor): HostTensor {
  const elemType = t.type === 'string' ? undefined : elemTypeOfOrt(t.type);
  if (elemType === undefined || typeof t.data === 'string' || Array.isArray(t.data)) {
    throw rtError('UNSUPPORTED', `onnxruntime returned a ${t.type} tensor, which the compiler cannot compare`);
  }
  let data = t.data as HostTensor['data'];
  // onnxruntime-node may hand back fp16 as Float16Array on newer Node; keep the raw-bits convention.
  if (t.type === 'float16' && !(data instanceof Uint16Array)) data = new Uint16Array(data.buffer, data.byteOffset, data.length);
  if (t.type === 'bool' && !(data instanceof Uint8Array)) data = Uint8Array.from(data as ArrayLike<number>);
  return { elemType, dims: [...t.dims], data };
}

function wrapOrtError(what: string, err: unknown): Error {
  const msg = err instanceof Error ? err.message : String(err);
  if (/Could not find an implementation|not implemented|No Op registered|Unrecognized attribute|is not a registered function\/op/i.test(msg)) {
    return rtError('UNSUPPORTED', `${what}: onnxruntime ${ort.env.versions.node ?? ''} cannot run this model: ${msg}`, { cause: err });
  }
  return rtError('BAD_CONFIG', `${what}: onnxruntime rejected the model: ${msg}`, { cause: err });
}

export interface OfflineRunnerOptions {
  /**
   * Run ort-webgpu sessions on the WebGPU execution provider (benchmarks on a GPU machine). Off by default:
   * builds check ort-webgpu payloads for semantics on the CPU provider, which every machine has.
   */
  readonly webgpu?: boolean;
}

/** The execution providers an offline session for `target` gets. */
export function offlineProviders(target: string, options: OfflineRunnerOptions): string[] {
  // The cuda target never reaches onnxruntime.
  if (target === 'cuda') throw rtError('ENGINE_UNAVAILABLE', 'target cuda is not available: the native CUDA engine is not part of this build');
  return target === 'ort-webgpu' && options.webgpu === true ? ['webgpu'] : ['cpu'];
}

export function createOfflineRunner(runnerOptions: OfflineRunnerOptions = {}): OfflineRuntime {
  return {
    name: 'onnxruntime-node',
    version: ort.env.versions.node ?? ort.env.versions.common,
    runnableTargets: ['ort-cpu', 'ort-webgpu'],
    async createSession(model, options) {
      let session: ort.InferenceSession;
      try {
        session = await ort.InferenceSession.create(model, {
          executionProviders: offlineProviders(options.target, runnerOptions),
          graphOptimizationLevel: options.optimizationLevel ?? 'all',
          intraOpNumThreads: options.intraOpThreads ?? 0,
          logSeverityLevel: 3,
        });
      } catch (err) {
        throw wrapOrtError('loading the model', err);
      }
      const s: RuntimeSession = {
        inputNames: session.inputNames,
        outputNames: session.outputNames,
        async run(feeds: Feeds, outputNames?: readonly string[]): Promise<Outputs> {
          const ortFeeds: Record<string, ort.Tensor> = {};
          for (const [k, v] of Object.entries(feeds)) ortFeeds[k] = toOrt(k, v);
          let res: ort.InferenceSession.ReturnType;
          try {
            res = outputNames === undefined ? await session.run(ortFeeds) : await session.run(ortFeeds, [...outputNames]);
          } catch (err) {
            throw wrapOrtError('running the model', err);
          }
          const out: Outputs = {};
          for (const [k, v] of Object.entries(res)) out[k] = fromOrt(v);
          return out;
        },
        async release() {
          await session.release();
        },
      };
      return s;
    },
    async optimize(model, options) {
      const dir = await mkdtemp(join(tmpdir(), 'rtserve-ortopt-'));
      const path = join(dir, 'optimized.onnx');
      try {
        let session: ort.InferenceSession;
        try {
          session = await ort.InferenceSession.create(model, {
            // Offline optimization always on the CPU provider: its output must not depend on a GPU being present.
            executionProviders: offlineProviders(options.target, {}),
            graphOptimizationLevel: options.level,
            optimizedModelFilePath: path,
            logSeverityLevel: 3,
          });
        } catch (err) {
          throw wrapOrtError('onnxruntime offline optimization', err);
        }
        await session.release();
        return new Uint8Array(await readFile(path));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
