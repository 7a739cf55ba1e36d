import { performance } from 'node:perf_hooks';
import { rtError } from '../../errors/registry.ts';
import { PLAN_FORMAT_MAJOR, PLAN_FORMAT_MINOR, sha256Hex, writePlan } from '../../plan/format.ts';
import type { NodePrecision, PlanManifest, ShapeProfile } from '../../plan/manifest.ts';
import { defaultGates, evaluateAccuracy, type AccuracyReport } from '../accuracy.ts';
import { ioSpec, loadAndValidateSource, manifestAccuracy, passesSummary, stageTimer } from '../build-steps.ts';
import { finishBuild, type BuildOptions, type BuildReport, type BuildResult, type ProgressListener } from '../build-options.ts';
import { loadDataset, subset, syntheticDataset } from '../data/dataset.ts';
import { DT } from '../../tensor/onnx-dtype.ts';
import { Graph, makeNode, saveModel, type ValueInfo } from '../ir/graph.ts';
import { DEFAULT_PASSES, runPasses } from '../passes/index.ts';
import type { CudaBuildDeps, TuneOptions, TuneResult } from '../../plan/cuda-tuning.ts';
import { toolVersion } from '../version.ts';
import { lowerGraph } from './lower.ts';
import type { Lowered } from './lowering/types.ts';
import { verifyPrograms, type ProgramCheck } from './verify-programs.ts';
import { emitPrograms, planArena, tensorBytes } from './memory.ts';
import {
  CUDA_NETWORK_FORMAT,
  CUDA_NETWORK_KEY,
  CUDA_OPSET_DOMAIN,
  CUDA_WEIGHTS_NAME,
  type ConvLayer,
  type CudaDeviceInfo,
  type CudaIoBinding,
  type CudaLayer,
  type CudaNetwork,
  type GemmLayer,
  type Tactic,
} from '../../plan/cuda-network.ts';

export const DEFAULT_TUNE_OPTIONS: TuneOptions = { workspaceLimit: 256 * 1024 * 1024, graphCandidates: 4, iters: 10, verify: true };

export interface CudaTuningSummary {
  readonly device: CudaDeviceInfo;
  readonly batches: readonly number[];
  readonly tunedLayers: number;
  readonly uniqueProblems: number;
  readonly tuningMs: number;
  /** impl → how many (layer, batch) pairs chose it. */
  readonly chosen: Readonly<Record<string, number>>;
  /** Per batch: the sum of the chosen tactics' times (conv and gemm only), µs. */
  readonly tunedUsPerBatch: Readonly<Record<string, number>>;
  readonly arenaBytes: number;
  readonly unpackedBytes: number;
  readonly weightBytes: number;
  readonly layersPerProgram: number;
  readonly notes: readonly string[];
  /** The slowest tuned layers at the largest batch, with their candidates. */
  readonly slowest: readonly {
    readonly name: string;
    readonly us: number;
    readonly tactic: Tactic;
    readonly tried: number;
    readonly failed: number;
  }[];
  /** Each batch program's end-to-end error against onnxruntime FP32 (null when no reference runtime was wired in). */
  readonly programChecks: readonly ProgramCheck[] | null;
}

export interface CudaBuildReport extends BuildReport {
  readonly cuda: CudaTuningSummary;
}

/** Batch sizes the plan gets a program (and a CUDA graph) for: min, opt, max and the powers of two between. */
export function profileBatches(inputs: readonly ValueInfo[], profiles: readonly ShapeProfile[], warnings: string[]): number[] {
  const dynamic = inputs.some((i) => typeof i.type.shape?.[0] !== 'number');
  if (!dynamic) {
    const b = inputs[0]?.type.shape?.[0];
    return [typeof b === 'number' && b > 0 ? b : 1];
  }
  const ranges = profiles.map((p) => [p.min[0] ?? 1, p.opt[0] ?? 1, p.max[0] ?? 1] as const);
  let min = 1;
  let opt = 8;
  let max = 32;
  if (ranges.length === 0) {
    warnings.push('no --profile: CUDA programs for batch 1..32; pass --profile INPUT:MIN,OPT,MAX to choose the range');
  } else {
    const [first] = ranges;
    if (first === undefined || ranges.some((r) => r[0] !== first[0] || r[2] !== first[2])) {
      throw rtError('BAD_CONFIG', 'the CUDA target needs every profile to give the same batch range (dimension 0)');
    }
    [min, opt, max] = first;
  }
  if (min < 1) min = 1;
  const set = new Set<number>([min, opt, max]);
  for (let p = 1; p <= max; p *= 2) if (p >= min) set.add(p);
  return [...set].filter((b) => b >= min && b <= max).sort((a, b) => a - b);
}

/** Non-batch dimensions of each input: static in the model or fixed by its profile (min = max). */
function rowShapes(inputs: readonly ValueInfo[], profiles: readonly ShapeProfile[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const i of inputs) {
    const shape = i.type.shape ?? [];
    const p = profiles.find((x) => x.input === i.name);
    out.set(
      i.name,
      shape.slice(1).map((d, k) => {
        if (typeof d === 'number') return d;
        const lo = p?.min[k + 1];
        const hi = p?.max[k + 1];
        if (lo === undefined || lo !== hi) {
          throw rtError(
            'UNSUPPORTED',
            `input '${i.name}' dimension ${k + 1} is dynamic; the CUDA target needs it fixed (give a --profile with min = max there)`,
          );
        }
        return lo;
      }),
    );
  }
  return out;
}

function tuneKey(l: CudaLayer): string {
  return JSON.stringify(l, (k, v: unknown) => {
    if (k === 'name' || k === 'tactic' || k === 'fallback') return undefined;
    if (v !== null && typeof v === 'object' && 'bytes' in v && ('off' in v || 'woff' in v)) {
      return { bytes: (v as { bytes: number }).bytes, weight: 'woff' in v };
    }
    return v;
  });
}

/** The plan payload: a valid ONNX model in the ai.rtserve.cuda domain (one node per step), weights and network. */
function payloadModel(g: Graph, sourceInputs: readonly ValueInfo[], lowered: Lowered, network: CudaNetwork, weights: Uint8Array): Uint8Array {
  const pg = new Graph({
    ...g.meta,
    docString: 'rtserve CUDA engine plan payload: run by the native addon (docs/cuda-engine.md); the nodes only describe its layers',
    metadataProps: [{ key: CUDA_NETWORK_KEY, value: JSON.stringify(network) }],
    functions: [],
  });
  pg.opsets = new Map([
    ['', g.opset],
    [CUDA_OPSET_DOMAIN, 1],
  ]);
  pg.inputs = sourceInputs.map((v) => ({
    name: v.name,
    type: { elemType: v.type.elemType, shape: v.type.shape?.map((d, i) => (i === 0 && typeof d !== 'number' ? 'batch' : d)) ?? null },
  }));
  // integer outputs are answered as INT32 (an INT64 output too: lowering/typed-elementwise.ts)
  const int32 = new Set(lowered.outputs.filter((o) => o.datatype === 'INT32').map((o) => o.name));
  pg.outputs = g.outputs.map((v) => ({
    name: v.name,
    type: {
      elemType: int32.has(v.name) ? DT.INT32 : v.type.elemType,
      shape: v.type.shape?.map((d, i) => (i === 0 && typeof d !== 'number' ? 'batch' : d)) ?? null,
    },
  }));
  pg.initializers.set(CUDA_WEIGHTS_NAME, { elemType: DT.UINT8, dims: [weights.byteLength], data: weights });
  const maxProgram = network.programs[network.programs.length - 1];
  const tacticOf = new Map<string, string>();
  for (const l of maxProgram?.layers ?? [])
    if ((l.kind === 'conv' || l.kind === 'gemm') && l.tactic !== undefined) tacticOf.set(l.name, JSON.stringify(l.tactic));
  pg.nodes = lowered.steps.map((s) =>
    makeNode(
      s.name,
      s.ops.join('+'),
      s.reads.map((t) => t.name),
      s.writes.map((t) => t.name),
      tacticOf.has(s.name) ? { tactic: { kind: 'string', value: tacticOf.get(s.name) ?? '' } } : {},
      CUDA_OPSET_DOMAIN,
    ),
  );
  return saveModel(pg);
}

/**
 * `rtserve build --target cuda`: load → validate → passes (BatchNormalization folding, bias fusion, ...) →
 * lowering (Conv/Gemm + bias + activation + residual fusion, NHWC, FP16 weights) → per-layer tactic selection
 * on the device, for every batch size of the profile → memory planning → accuracy against onnxruntime FP32
 * (when a runtime is wired in) → plan.
 */
export async function buildCudaPlan(options: BuildOptions, progress: ProgressListener, deps: CudaBuildDeps): Promise<BuildResult> {
  const t0 = performance.now();
  const tuner = deps.tuner;
  if (tuner === undefined) {
    throw rtError('ENGINE_UNAVAILABLE', `target 'cuda' is unavailable: ${deps.unavailable ?? 'the native CUDA engine is not part of this build'}`);
  }
  const precision = options.precision ?? 'fp32';
  if (precision !== 'fp16') {
    throw rtError('BAD_CONFIG', `the CUDA target builds FP16 plans (FP16 storage, FP32 accumulation): pass --precision fp16 (got ${precision})`);
  }
  const warnings: string[] = [];
  const { stagesMs, start, done, skip } = stageTimer(progress);

  const { sourceBytes, g, sourceInputs, source, profiles } = await loadAndValidateSource(options, warnings, start, done);
  const batches = deps.batches !== undefined ? [...deps.batches].sort((a, b) => a - b) : profileBatches(g.inputs, profiles, warnings);
  const rows = rowShapes(g.inputs, profiles);
  if ((options.fp32Ops ?? []).length > 0 || (options.fp32Nodes ?? []).length > 0)
    warnings.push('--fp32-ops / --fp32-nodes are ignored by the CUDA target (every layer runs FP16 with FP32 accumulation)');
  done('validate', `batch sizes ${batches.join(', ')}`);
  skip('calibrate', 'not needed for fp16');

  // ---- passes
  start('passes');
  const disabled = new Set(options.disablePasses ?? []);
  const nodesBefore = g.nodes.length;
  const passReports = runPasses(
    g,
    DEFAULT_PASSES.filter((p) => !disabled.has(p.name)),
    { target: 'cuda', precision },
  );
  done('passes', passesSummary(nodesBefore, g.nodes.length, passReports));

  // ---- precision: lowering (fusion, layouts, FP16 weights)
  start('precision', 'lowering: Conv/Gemm + bias + activation (+ residual) fusion, NHWC, FP16 weights');
  const lowered = lowerGraph(g, batches, rows);
  warnings.push(...lowered.notes);
  const fusedConvs = lowered.steps.filter((s) => s.ops[0] === 'Conv' && s.ops.length > 1).length;
  done(
    'precision',
    `${g.nodes.length} nodes → ${lowered.steps.length} steps (${fusedConvs} convolutions with fused epilogues), ${lowered.weights.byteLength} bytes of FP16 weights`,
  );
  skip('ort-optimize', 'the CUDA target does not use onnxruntime');

  // ---- profiles: memory plan and per-layer tactic selection for every batch size
  start('profiles', `tuning on ${tuner.device.name} for batch ${batches.join(', ')}`);
  const arena = planArena(lowered, batches);
  const programs = emitPrograms(lowered, arena, batches);
  const tuneOptions: TuneOptions = { ...DEFAULT_TUNE_OPTIONS, ...deps.tuneOptions };
  const cache = new Map<string, TuneResult>();
  const tunable = programs.flatMap((p) => p.layers.filter((l): l is ConvLayer | GemmLayer => l.kind === 'conv' || l.kind === 'gemm'));
  const chosen: Record<string, number> = {};
  const tuneStart = performance.now();
  let budgetSpent = false;
  let k = 0;
  const resultOf = new Map<CudaLayer, TuneResult>();
  for (const l of tunable) {
    const key = tuneKey(l);
    let r = cache.get(key);
    if (r === undefined) {
      const overBudget = deps.tuneBudgetMs !== undefined && performance.now() - tuneStart > deps.tuneBudgetMs;
      if (overBudget && !budgetSpent) {
        budgetSpent = true;
        warnings.push(`tuning budget of ${deps.tuneBudgetMs ?? 0} ms spent after ${cache.size} problems: the rest tried no cuDNN graph-API engines`);
      }
      r = tuner.tune(l, overBudget ? { ...tuneOptions, graphCandidates: 0, iters: Math.min(tuneOptions.iters, 3) } : tuneOptions);
      cache.set(key, r);
    }
    resultOf.set(l, r);
    if (r.best === null) {
      const why = r.candidates
        .filter((c) => !c.ok)
        .slice(0, 3)
        .map((c) => `${String(c.tactic.impl)}: ${c.why ?? '?'}`)
        .join('; ');
      throw rtError('UNSUPPORTED', `no tactic could run ${l.kind} '${l.name}' at this shape on ${tuner.device.name} (${why})`);
    }
    l.tactic = r.best;
    if (r.best.impl === 'cudnn-graph' && r.fallback !== null) l.fallback = r.fallback;
    const impl = String(r.best.impl);
    chosen[impl] = (chosen[impl] ?? 0) + 1;
    k++;
    if (k % 16 === 0) progress({ stage: 'profiles', state: 'progress', fraction: k / tunable.length, message: `${cache.size} problems timed` });
  }
  const tuningMs = Math.round(performance.now() - tuneStart);
  const tunedUsPerBatch: Record<string, number> = {};
  for (const p of programs) {
    let us = 0;
    for (const l of p.layers) us += resultOf.get(l)?.bestUs ?? 0;
    tunedUsPerBatch[String(p.batch)] = Math.round(us * 10) / 10;
  }
  const maxProgram = programs[programs.length - 1];
  const slowest = (maxProgram?.layers ?? [])
    .filter((l): l is ConvLayer | GemmLayer => l.kind === 'conv' || l.kind === 'gemm')
    .map((l) => {
      const r = resultOf.get(l);
      return {
        name: l.name,
        us: r?.bestUs ?? 0,
        tactic: l.tactic ?? {},
        tried: r?.candidates.length ?? 0,
        failed: r?.candidates.filter((c) => !c.ok).length ?? 0,
      };
    })
    .sort((a, b) => b.us - a.us)
    .slice(0, 8);
  const maxB = Math.max(...batches);
  const binding = (io: Lowered['inputs'][number]): CudaIoBinding => ({
    name: io.name,
    off: arena.offsets.get(io.raw.storage) ?? 0,
    rowBytes: tensorBytes(io.raw, maxB) / maxB,
    datatype: io.datatype,
    rowShape: io.raw.shape(maxB).slice(1),
  });
  const weightBytes = lowered.weights.bytes();
  let network: CudaNetwork = {
    format: CUDA_NETWORK_FORMAT,
    version: 1,
    maxBatch: maxB,
    batches,
    arenaBytes: arena.arenaBytes,
    weightBytes: weightBytes.byteLength,
    workspaceLimit: tuneOptions.workspaceLimit,
    cudaGraphs: deps.cudaGraphs === false ? 0 : 1,
    inputs: lowered.inputs.map(binding),
    outputs: lowered.outputs.map(binding),
    programs,
    device: tuner.device,
  };
  done(
    'profiles',
    `${cache.size} problems timed in ${tuningMs} ms; arena ${(arena.arenaBytes / 2 ** 20).toFixed(1)} MiB (${(arena.unpackedBytes / 2 ** 20).toFixed(1)} MiB unpacked); tactics ${Object.entries(
      chosen,
    )
      .map(([x, n]) => `${x} ${n}`)
      .join(', ')}`,
  );
  let payload = payloadModel(g, sourceInputs, lowered, network, weightBytes);

  // ---- accuracy, one stage: every batch program end to end (verify-programs.ts), then the gates on the plan as a whole
  let programChecks: ProgramCheck[] | null = null;
  let accuracy: AccuracyReport | null = null;
  const gates = options.accuracyGates ?? defaultGates('fp16');
  const runtime = deps.accuracyRuntime;
  const checkPrograms = batches.length > 1;
  const checkGates = gates.length > 0;
  // One sample of every input: the model's row shape (static, or fixed by the profile).
  const sampleInputs = sourceInputs.map((i) => ({ ...i, type: { ...i.type, shape: [1, ...(rows.get(i.name) ?? [])] } }));
  const accuracyNotes: string[] = [];
  // a detector's ranked outputs (boxes and classes of its best peaks) are compared through the scores that ranked them
  const ranked = new Set(lowered.rankedOutputs);
  const compared = g.outputs.map((o) => o.name).filter((o) => !ranked.has(o));
  const checkedOutputs = compared.length > 0 ? compared : g.outputs.map((o) => o.name);
  if (runtime !== undefined && ranked.size > 0 && compared.length > 0)
    warnings.push(`outputs ${[...ranked].join(', ')} are ranked by a TopK: the accuracy checks compare ${compared.join(', ')}`);
  // --validation: real inputs for both checks (a detector on random noise ranks noise), else synthetic ones
  const validation = options.validation === undefined ? undefined : await loadDataset(options.validation, sourceInputs, 'validation');
  if (runtime !== undefined && (checkPrograms || checkGates)) start('accuracy', 'against onnxruntime FP32');
  if (runtime !== undefined && checkPrograms) {
    progress({ stage: 'accuracy', state: 'progress', message: `every batch program (${batches.join(', ')})` });
    const data =
      validation !== undefined && validation.samples >= maxB
        ? subset(validation, 0, maxB)
        : syntheticDataset(sampleInputs, maxB, (options.seed ?? 7) + 1);
    programChecks = await verifyPrograms(runtime, { bytes: sourceBytes, inputs: sourceInputs }, payload, checkedOutputs, data, batches);
    const bad = programChecks.filter((c) => c.outlier);
    if (bad.some((c) => c.batch === maxB)) {
      throw rtError(
        'BAD_CONFIG',
        `the batch-${maxB} program of the plan is off (relative error ${bad.find((c) => c.batch === maxB)?.relMaxError.toExponential(2) ?? '?'} against onnxruntime FP32, others ${programChecks
          .filter((c) => !c.outlier)
          .map((c) => c.relMaxError.toExponential(1))
          .join(', ')}); rebuild, or lower the profile's max batch`,
      );
    }
    if (bad.length > 0) {
      const dropped = new Set(bad.map((c) => c.batch));
      network = {
        ...network,
        batches: network.batches.filter((b) => !dropped.has(b)),
        programs: network.programs.filter((p) => !dropped.has(p.batch)),
      };
      payload = payloadModel(g, sourceInputs, lowered, network, weightBytes);
      for (const c of bad) {
        const next = network.batches.find((b) => b > c.batch) ?? maxB;
        const why =
          c.historyDependent === true
            ? `'s output depends on what earlier runs left in device memory (found when the engine loaded it; relative error on the check's dataset, run after the largest program, ${c.relMaxError.toExponential(2)})`
            : ` disagreed with onnxruntime FP32 when run after the largest program (relative error ${c.relMaxError.toExponential(2)}, the other programs ${programChecks
                .filter((x) => !x.outlier)
                .map((x) => x.relMaxError.toExponential(1))
                .join(', ')})`;
        warnings.push(`the batch-${c.batch} program${why}: dropped; batch ${c.batch} runs on the batch-${next} program`);
      }
    }
    const maxDependent = programChecks.find((c) => c.batch === maxB && c.historyDependent === true);
    if (maxDependent !== undefined) {
      warnings.push(
        `the batch-${maxB} program's output depends on what earlier runs left in device memory (found when the engine loaded it); it is the largest and is kept: rebuild to get other tactics`,
      );
    }
    accuracyNotes.push(
      `programs ${programChecks.map((c) => `${c.batch}:${c.relMaxError.toExponential(1)}${c.historyDependent === true ? ' history-dependent' : ''}${c.outlier ? ' dropped' : ''}`).join(' ')}`,
    );
  }
  if (runtime !== undefined && checkGates) {
    const data =
      validation !== undefined
        ? subset(validation, 0, Math.min(validation.samples, 256))
        : syntheticDataset(sampleInputs, Math.min(64, maxB * 2), options.seed ?? 7);
    progress({
      stage: 'accuracy',
      state: 'progress',
      message: `the gates on ${data.samples} ${validation !== undefined ? 'validation' : 'synthetic'} samples`,
    });
    const report = await evaluateAccuracy(
      runtime,
      { bytes: sourceBytes, inputs: sourceInputs },
      { bytes: payload, inputs: sourceInputs },
      checkedOutputs,
      data,
      {
        target: 'cuda',
        gates,
        dataSource: validation !== undefined ? 'validation' : 'synthetic',
        batchSize: Math.min(maxB, 32),
        onBatch: (x, total) => progress({ stage: 'accuracy', state: 'progress', fraction: x / total }),
      },
    );
    accuracy = { ...report, measuredOn: `rtserve CUDA engine on ${tuner.device.name} (reference: onnxruntime CPU FP32)` };
    accuracyNotes.push(accuracy.gates.map((x) => x.message).join('; ') || 'no gates');
  }
  if (runtime !== undefined && (checkPrograms || checkGates)) done('accuracy', accuracyNotes.join('; '));
  else skip('accuracy', runtime === undefined ? 'no runtime wired in' : 'no gates');

  // ---- write
  start('write');
  const nodePrecision: Record<string, NodePrecision> = {};
  for (const n of lowered.nodeSteps.keys()) nodePrecision[n] = 'fp16';
  const dev = tuner.device;
  const manifest: PlanManifest = {
    formatVersion: { major: PLAN_FORMAT_MAJOR, minor: PLAN_FORMAT_MINOR },
    createdAt: new Date().toISOString(),
    source,
    target: 'cuda',
    precision: 'fp16',
    keepIoTypes: true,
    payload: { format: 'onnx', sha256: sha256Hex(payload), bytes: payload.byteLength, ortOptimizationLevel: 'none' },
    tool: { name: 'rtserve', version: toolVersion(), node: process.version },
    runtime: null,
    deviceRequirements: {
      executionProvider: 'cuda',
      notes: [
        `tuned on ${dev.name} (sm_${dev.cc.join('')}, ${dev.sms} SMs), CUDA runtime ${dev.cudaRuntime}, cuDNN ${dev.cudnn}, cuBLASLt ${dev.cublasLt}`,
        'the CUDA engine refuses another compute capability; on another device of the same one, tactics that do not run fall back to the recorded alternative',
        `CUDA graphs for batch ${network.batches.join(', ')}`,
      ],
    },
    io: { inputs: ioSpec(sourceInputs), outputs: ioSpec(g.outputs) },
    passes: passReports.map((p) => ({ name: p.name, changed: p.changed, changes: [...p.changes] })),
    nodePrecision,
    calibration: null,
    profiles,
    accuracy: manifestAccuracy(accuracy),
  };
  const plan = writePlan(manifest, payload);
  done('write', `${plan.byteLength} bytes`);
  const counts: Record<NodePrecision, number> = { fp32: 0, fp16: Object.keys(nodePrecision).length, int8: 0 };
  const report: CudaBuildReport = {
    tool: { name: 'rtserve', version: manifest.tool.version },
    source,
    target: 'cuda',
    precision: 'fp16',
    stagesMs,
    totalMs: Math.round(performance.now() - t0),
    passes: passReports,
    precisionReport: { precision: 'fp16', nodes: counts },
    calibration: null,
    ortOptimization: null,
    profiles,
    accuracy,
    sizes: { sourceBytes: sourceBytes.byteLength, payloadBytes: payload.byteLength, planBytes: plan.byteLength },
    warnings,
    cuda: {
      device: dev,
      batches: network.batches,
      tunedLayers: tunable.length,
      uniqueProblems: cache.size,
      tuningMs,
      chosen,
      tunedUsPerBatch,
      arenaBytes: arena.arenaBytes,
      unpackedBytes: arena.unpackedBytes,
      weightBytes: weightBytes.byteLength,
      layersPerProgram: maxProgram?.layers.length ?? 0,
      notes: lowered.notes,
      slowest,
      programChecks,
    },
  };
  return finishBuild(plan, manifest, report);
}
