import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { rtError } from '../errors/registry.ts';
import { PLAN_FORMAT_MAJOR, PLAN_FORMAT_MINOR, sha256Hex, writePlan } from '../plan/format.ts';
import type { CalibrationTable, NodePrecision, PlanManifest } from '../plan/manifest.ts';
import { defaultGates, evaluateAccuracy, type AccuracyReport } from './accuracy.ts';
import { holdOut, loadDataset, syntheticDataset, type Dataset } from './data/dataset.ts';
import { DT, elemSize, elemTypeName } from '../tensor/onnx-dtype.ts';
import { loadModel, saveModel, type Graph } from './ir/graph.ts';
import { DEFAULT_PASSES, deadNodeElimination, runPasses } from './passes/index.ts';
import { calibrate } from './precision/calibration.ts';
import { DEFAULT_FP16_BLOCK_LIST, convertToFp16 } from './precision/fp16.ts';
import { quantizeInt8 } from './precision/int8.ts';
import { planQuantization, type QuantPlan } from './precision/quant-plan.ts';
import type { HostTensor, OptimizationLevel } from '../plan/runtime.ts';
import { toolVersion } from './version.ts';

import { type ProgressListener, type BuildOptions, type PrecisionReport, type BuildReport, type BuildResult, finishBuild } from './build-options.ts';
import {
  ioSpec,
  manifestAccuracy,
  stageTimer,
  loadAndValidateSource,
  countOps,
  countPrecisions,
  int8Report,
  passesSummary,
  readCalibrationCache,
  checkTarget,
} from './build-steps.ts';

export async function buildPlan(options: BuildOptions, progress: ProgressListener = () => {}): Promise<BuildResult> {
  const t0 = performance.now();
  const target = options.target ?? 'ort-cpu';
  const precision = options.precision ?? 'fp32';
  const keepIoTypes = options.keepIoTypes ?? true;
  const perChannel = options.perChannel ?? true;
  const runtime = options.runtime;
  const warnings: string[] = [];
  const { stagesMs, start, done, skip } = stageTimer(progress);

  checkTarget(target);

  const { sourceBytes, g, sourceInputs, source, profiles } = await loadAndValidateSource(options, warnings, start, done);
  const needsCalibration = precision === 'int8' || precision === 'mixed';
  if (needsCalibration && options.calibration === undefined && options.calibrationCache === undefined) {
    throw rtError('BAD_CONFIG', `--precision ${precision} needs calibration data (--calibration FILE.npy|FILE.npz|DIR) or a --calibration-cache`);
  }
  if (needsCalibration && runtime === undefined && options.calibrationCache === undefined) {
    throw rtError('BAD_CONFIG', `--precision ${precision} needs a runtime to calibrate with`);
  }
  const gates = options.accuracyGates ?? defaultGates(precision);
  if (
    gates.some((x) => x.metric === 'top1-accuracy' || x.metric === 'accuracy-drop') &&
    options.validation === undefined &&
    options.calibration === undefined
  ) {
    throw rtError('BAD_CONFIG', 'accuracy gates top1-accuracy and accuracy-drop need labelled data: pass --validation with a `labels` array');
  }
  if (precision === 'fp16' && target === 'ort-cpu') {
    warnings.push('fp16 on ort-cpu: onnxruntime has few FP16 CPU kernels and inserts casts around the rest; expect a smaller file, not a faster one');
  }
  if (needsCalibration && target === 'ort-webgpu') {
    warnings.push('int8 on ort-webgpu: the WebGPU provider runs QDQ models as dequantize + float kernels; expect a smaller file, not a faster one');
  }
  // Data: calibration (minus a held-out part when no validation data is given) and validation.
  let calibData: Dataset | undefined;
  let valData: Dataset | undefined;
  let dataSource: AccuracyReport['dataSource'] = 'synthetic';
  if (options.calibration !== undefined) calibData = await loadDataset(options.calibration, g.inputs, 'calibration');
  if (options.validation !== undefined) {
    valData = await loadDataset(options.validation, g.inputs, 'validation');
    dataSource = 'validation';
  } else if (calibData !== undefined) {
    // The same held-out part for every precision, so that FP32, FP16 and INT8 reports compare like for like.
    const split = holdOut(calibData, options.holdoutFraction ?? 0.2);
    if (calibData.samples < 2) warnings.push('calibration data has a single sample: it is used for both calibration and validation');
    calibData = split.train;
    valData = split.heldOut;
    dataSource = 'calibration-holdout';
  }
  done('validate', warnings.length > 0 ? `${warnings.length} warning(s)` : 'ok');

  // ---- passes
  start('passes');
  const disabled = new Set(options.disablePasses ?? []);
  for (const name of disabled) {
    if (!DEFAULT_PASSES.some((p) => p.name === name)) {
      throw rtError('BAD_CONFIG', `--disable-pass ${name}: no such pass (passes: ${DEFAULT_PASSES.map((p) => p.name).join(', ')})`);
    }
  }
  const nodesBefore = g.nodes.length;
  const passReports = runPasses(
    g,
    DEFAULT_PASSES.filter((p) => !disabled.has(p.name)),
    { target, precision },
  );
  done('passes', passesSummary(nodesBefore, g.nodes.length, passReports));
  const fp32Graph = g.clone();

  // ---- calibrate
  let table: CalibrationTable | null = null;
  let quantPlan: QuantPlan | undefined;
  let calibrationInfo: BuildReport['calibration'] = null;
  const fp32Nodes = new Set(options.fp32Nodes ?? []);
  if (needsCalibration) {
    start('calibrate');
    quantPlan = planQuantization(g, { excludeNodes: fp32Nodes });
    const graphSha256 = sha256Hex(saveModel(fp32Graph));
    const method = options.calibrationMethod ?? 'minmax';
    const cached = options.calibrationCache === undefined ? undefined : await readCalibrationCache(options.calibrationCache);
    const missing = (t: CalibrationTable): string[] => quantPlan?.calibrationTensors.filter((n) => t.tensors[n] === undefined) ?? [];
    let fromCache = false;
    if (cached !== undefined) {
      const problem =
        cached.graphSha256 !== graphSha256
          ? 'it was made for a different model or pass pipeline'
          : cached.method !== method && options.calibrationMethod !== undefined
            ? `it was made with --calibration-method ${cached.method}`
            : missing(cached).length > 0
              ? `it lacks ${missing(cached).length} tensor(s)`
              : undefined;
      if (problem === undefined) {
        table = cached;
        fromCache = true;
      } else if (calibData === undefined) {
        throw rtError(
          'BAD_CONFIG',
          `calibration cache ${options.calibrationCache ?? ''} cannot be used: ${problem}; pass --calibration to recalibrate`,
        );
      } else {
        warnings.push(`calibration cache ${options.calibrationCache ?? ''} not used (${problem}); recalibrated and rewrote it`);
      }
    }
    if (table === null) {
      if (calibData === undefined || runtime === undefined) throw rtError('BAD_CONFIG', 'calibration needs --calibration data and a runtime');
      const data = calibData;
      table = await calibrate(runtime, fp32Graph, quantPlan.calibrationTensors, data, {
        method,
        ...(options.percentile !== undefined ? { percentile: options.percentile } : {}),
        ...(options.calibrationBatchSize !== undefined ? { batchSize: options.calibrationBatchSize } : {}),
        target,
        graphSha256,
        onBatch: (k, total) => progress({ stage: 'calibrate', state: 'progress', fraction: k / total }),
      });
      if (options.calibrationCache !== undefined) await writeFile(options.calibrationCache, `${JSON.stringify(table, null, 1)}\n`);
    }
    calibrationInfo = {
      method: table.method,
      samples: table.samples,
      source: fromCache ? (options.calibrationCache ?? '') : (calibData?.source ?? ''),
      fromCache,
      tensors: Object.keys(table.tensors).length,
    };
    done('calibrate', `${fromCache ? 'from cache' : `${table.method} over ${table.samples} samples`}, ${Object.keys(table.tensors).length} tensors`);
  } else {
    skip('calibrate', `not needed for ${precision}`);
  }

  // ---- precision
  start('precision');
  let nodePrecision = new Map<string, NodePrecision>(g.nodes.map((n) => [n.name, 'fp32']));
  let precisionReport: PrecisionReport = { precision, nodes: countPrecisions(nodePrecision) };
  const fallback: string[] = [];
  if (precision === 'fp16') {
    const r = convertToFp16(g, { keepIoTypes, blockOps: new Set([...DEFAULT_FP16_BLOCK_LIST, ...(options.fp32Ops ?? [])]), blockNodes: fp32Nodes });
    nodePrecision = r.nodePrecision;
    precisionReport = {
      precision,
      nodes: countPrecisions(nodePrecision),
      fp16: { castsInserted: r.castsInserted, convertedInitializers: r.convertedInitializers, keptFp32: r.kept },
    };
  } else if (needsCalibration && quantPlan !== undefined && table !== null) {
    const r = quantizeInt8(g, quantPlan, table, { perChannel });
    nodePrecision = r.nodePrecision;
    precisionReport = int8Report(precision, r, perChannel, fallback);
  }
  // The FP32 originals of converted weights are now unused.
  deadNodeElimination.run(g, { target, precision });
  done('precision', `fp32 ${precisionReport.nodes.fp32}, fp16 ${precisionReport.nodes.fp16}, int8 ${precisionReport.nodes.int8} nodes`);

  // Data for the gates (and for mixed precision's search).
  // String tensors cannot be synthesized or fed by the offline runner: such models skip the run-based checks.
  const unfeedable = [...sourceInputs, ...g.outputs].find((v) => elemSize(v.type.elemType) === 0);
  if (unfeedable !== undefined) {
    const why = `'${unfeedable.name}' is a ${elemTypeName(unfeedable.type.elemType)} tensor, which the offline runner cannot feed or compare`;
    if ((options.accuracyGates ?? []).length > 0) throw rtError('BAD_CONFIG', `the accuracy gate cannot run: ${why}`);
    warnings.push(`profile check and accuracy gate skipped: ${why}`);
  }
  const canRun = runtime !== undefined && unfeedable === undefined;
  const validation = canRun ? (valData ?? syntheticDataset(sourceInputs, 16, options.seed ?? 1234)) : undefined;
  if (canRun && valData === undefined && gates.length > 0)
    warnings.push('no validation or calibration data: the accuracy gate ran on 16 synthetic (seeded normal) samples');
  const outputNames = g.outputs.map((o) => o.name);
  const reference = { bytes: sourceBytes, inputs: sourceInputs };

  // mixed: if the all-INT8 graph misses the gate, move the most sensitive quantized layers back to FP32.
  if (precision === 'mixed' && runtime !== undefined && validation !== undefined && quantPlan !== undefined && table !== null && gates.length > 0) {
    progress({ stage: 'precision', state: 'progress', message: 'mixed: checking the all-INT8 graph against the gate' });
    const evalGraph = async (graph: Graph): Promise<AccuracyReport> =>
      evaluateAccuracy(runtime, reference, { bytes: saveModel(graph), inputs: graph.inputs }, outputNames, validation, { target, gates, dataSource });
    let current = await evalGraph(g);
    if (!current.passed) {
      // Sensitivity of each weight layer alone: quantize only that layer and measure the output cosine.
      const layers = [...quantPlan.weightNodes].map((n) => n.name);
      const sens: { name: string; cosine: number }[] = [];
      for (const name of layers) {
        const only = fp32Graph.clone();
        const others = new Set([...layers.filter((l) => l !== name), ...fp32Nodes]);
        const p = planQuantization(only, { excludeNodes: others });
        quantizeInt8(only, p, table, { perChannel });
        const rep = await evaluateAccuracy(runtime, reference, { bytes: saveModel(only), inputs: only.inputs }, outputNames, validation, {
          target,
          gates: [],
          dataSource,
        });
        sens.push({ name, cosine: Math.min(...rep.outputs.map((o) => o.cosine)) });
        progress({ stage: 'precision', state: 'progress', fraction: sens.length / layers.length, message: 'mixed: per-layer sensitivity' });
      }
      sens.sort((a, b) => a.cosine - b.cosine);
      const excluded = new Set(fp32Nodes);
      for (const s of sens) {
        excluded.add(s.name);
        fallback.push(`${s.name} (alone in INT8: cosine ${s.cosine.toFixed(6)})`);
        const trial = fp32Graph.clone();
        const p = planQuantization(trial, { excludeNodes: excluded });
        const r = quantizeInt8(trial, p, table, { perChannel });
        current = await evalGraph(trial);
        nodePrecision = r.nodePrecision;
        deadNodeElimination.run(trial, { target, precision });
        g.nodes = trial.nodes;
        g.initializers = trial.initializers;
        g.valueTypes = trial.valueTypes;
        g.opsets = trial.opsets;
        g.invalidateNames();
        precisionReport = int8Report(precision, r, perChannel, fallback);
        if (current.passed) break;
      }
    }
  }

  // ---- onnxruntime offline optimization
  let payload = saveModel(g);
  let ortInfo: BuildReport['ortOptimization'] = null;
  const level: OptimizationLevel | 'none' = options.ortOptimization ?? (target === 'ort-webgpu' ? 'basic' : 'extended');
  if (runtime !== undefined && level !== 'none' && level !== 'disabled') {
    start('ort-optimize', `${runtime.name} ${runtime.version}, level ${level}`);
    const optimizedBytes = await runtime.optimize(payload, { target, level });
    const optimized = loadModel(optimizedBytes, { fileName: 'optimized payload' });
    const addedCasts = countOps(optimized, 'Cast') - countOps(g, 'Cast');
    if (target === 'ort-webgpu' && addedCasts > 0) {
      // The offline optimizer runs on the CPU provider, whose InsertCastTransformer wraps every FP16 node without
      // a CPU kernel (MatMul, Conv, Gemm, ... on x86) in Casts to FP32 and saves them into the model: the WebGPU
      // provider would then compute those nodes in FP32. Keep the compiler's own graph instead.
      warnings.push(
        `ort-optimize skipped for ort-webgpu: onnxruntime's CPU provider added ${addedCasts} Cast(s) to run FP16 nodes in FP32; ` +
          'the payload keeps them in FP16 for the WebGPU provider',
      );
      done('ort-optimize', `skipped: the CPU provider added ${addedCasts} Cast(s)`);
    } else {
      payload = optimizedBytes;
      const opTypes: Record<string, number> = {};
      for (const n of optimized.nodes) opTypes[n.opType] = (opTypes[n.opType] ?? 0) + 1;
      ortInfo = { level, nodesBefore: g.nodes.length, nodesAfter: optimized.nodes.length, opTypes };
      done('ort-optimize', `${g.nodes.length} → ${optimized.nodes.length} nodes`);
    }
  } else {
    skip('ort-optimize', runtime === undefined ? 'no runtime' : 'disabled');
  }

  // ---- profiles: the plan must actually run at every min/opt/max shape
  if (runtime !== undefined && canRun && profiles.length > 0 && runtime.runnableTargets.includes(target)) {
    start('profiles');
    const session = await runtime.createSession(payload, { target, optimizationLevel: 'all' });
    try {
      for (const which of ['min', 'opt', 'max'] as const) {
        const feeds: Record<string, HostTensor> = {};
        for (const i of g.inputs) {
          const p = profiles.find((x) => x.input === i.name);
          const dims = p !== undefined ? p[which] : (i.type.shape ?? []).map((d) => (typeof d === 'number' ? d : 1));
          const n = dims.reduce((a, b) => a * b, 1);
          const data =
            i.type.elemType === DT.FLOAT
              ? new Float32Array(n)
              : i.type.elemType === DT.FLOAT16
                ? new Uint16Array(n)
                : i.type.elemType === DT.INT64
                  ? new BigInt64Array(n)
                  : i.type.elemType === DT.INT32
                    ? new Int32Array(n)
                    : new Uint8Array(n);
          feeds[i.name] = { elemType: i.type.elemType, dims, data };
        }
        try {
          await session.run(feeds);
        } catch (err) {
          throw rtError('BAD_CONFIG', `the plan does not run at the profile's ${which} shapes: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    } finally {
      await session.release();
    }
    done('profiles', `${profiles.length} profile(s): min, opt and max shapes run`);
  } else {
    skip('profiles', profiles.length === 0 ? 'no --profile given' : canRun ? 'no runtime for this target' : 'inputs cannot be fed');
  }

  // ---- accuracy
  let accuracy: AccuracyReport | null = null;
  if (runtime !== undefined && validation !== undefined) {
    start('accuracy', `${validation.samples} samples (${valData === undefined ? 'synthetic' : dataSource})`);
    accuracy = await evaluateAccuracy(runtime, reference, { bytes: payload, inputs: g.inputs }, outputNames, validation, {
      target,
      gates,
      dataSource: valData === undefined ? 'synthetic' : dataSource,
      onBatch: (k, total) => progress({ stage: 'accuracy', state: 'progress', fraction: k / total }),
    });
    done('accuracy', accuracy.gates.map((x) => x.message).join('; ') || 'no gates');
  } else {
    skip('accuracy', runtime === undefined ? 'no runtime' : 'inputs or outputs cannot be compared');
  }

  // ---- write
  start('write');
  const manifest: PlanManifest = {
    formatVersion: { major: PLAN_FORMAT_MAJOR, minor: PLAN_FORMAT_MINOR },
    createdAt: new Date().toISOString(),
    source,
    target,
    precision,
    keepIoTypes,
    payload: {
      format: 'onnx',
      sha256: sha256Hex(payload),
      bytes: payload.byteLength,
      ortOptimizationLevel: ortInfo === null ? 'none' : (level as 'basic' | 'extended' | 'all'),
    },
    tool: { name: 'rtserve', version: toolVersion(), node: process.version },
    runtime: runtime === undefined || ortInfo === null ? null : { name: runtime.name, version: runtime.version },
    deviceRequirements: {
      executionProvider: target === 'ort-webgpu' ? 'webgpu' : 'cpu',
      // onnxruntime's 'all' level applies layout transforms (NCHWc blocking) sized for this CPU's vector width.
      ...(ortInfo !== null && level === 'all' && target === 'ort-cpu' ? { arch: process.arch } : {}),
      ...(target === 'ort-webgpu' && precision === 'fp16' ? { shaderF16: true } : {}),
      notes: [
        ...(needsCalibration ? ['INT8: activations UINT8 asymmetric, weights INT8 symmetric (u8s8); fastest on CPUs with VNNI'] : []),
        ...(ortInfo !== null && level === 'all' ? ['payload optimized at level all: tied to this CPU type'] : []),
      ],
    },
    io: { inputs: ioSpec(g.inputs), outputs: ioSpec(g.outputs) },
    passes: passReports.map((p) => ({ name: p.name, changed: p.changed, changes: [...p.changes] })),
    nodePrecision: Object.fromEntries(nodePrecision),
    calibration: table,
    profiles,
    accuracy: manifestAccuracy(accuracy),
  };
  const plan = writePlan(manifest, payload);
  done('write', `${plan.byteLength} bytes`);
  const report: BuildReport = {
    tool: { name: 'rtserve', version: manifest.tool.version },
    source,
    target,
    precision,
    stagesMs,
    totalMs: Math.round(performance.now() - t0),
    passes: passReports,
    precisionReport,
    calibration: calibrationInfo,
    ortOptimization: ortInfo,
    profiles,
    accuracy,
    sizes: { sourceBytes: sourceBytes.byteLength, payloadBytes: payload.byteLength, planBytes: plan.byteLength },
    warnings,
  };
  return finishBuild(plan, manifest, report);
}
