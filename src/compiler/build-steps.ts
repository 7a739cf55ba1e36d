import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rtError } from '../errors/registry.ts';
import { isPlanBytes, readPlan, sha256Hex } from '../plan/format.ts';
import {
  calibrationTableSchema,
  type CalibrationTable,
  type NodePrecision,
  type PlanManifest,
  type PlanPrecision,
  type PlanTarget,
  type ShapeProfile,
} from '../plan/manifest.ts';
import type { AccuracyReport } from './accuracy.ts';
import { kserveDatatype } from '../tensor/onnx-dtype.ts';
import { loadModel, type Graph, type ValueInfo } from './ir/graph.ts';
import { inferShapes } from './ir/shape-inference.ts';
import { validateGraph } from './ir/validate.ts';
import { checkProfiles } from './profiles.ts';

import type { BuildStage, ProgressListener, BuildOptions, PrecisionReport } from './build-options.ts';
import type { Int8Result } from './precision/int8.ts';
import type { PassReport } from './passes/index.ts';

/** The stages both builds share (the ONNX plan build in build.ts, the CUDA build in cuda/build-cuda.ts): loading and
 * validating the source, stage timing, the manifest's I/O and accuracy sections. */

export function countOps(g: Graph, opType: string): number {
  return g.nodes.filter((n) => n.opType === opType && n.domain === '').length;
}

export function countPrecisions(m: ReadonlyMap<string, NodePrecision>): Record<NodePrecision, number> {
  const out: Record<NodePrecision, number> = { fp32: 0, fp16: 0, int8: 0 };
  for (const v of m.values()) out[v]++;
  return out;
}

/** The progress line of the graph passes: node counts before and after, and what each pass changed. */
export function passesSummary(nodesBefore: number, nodesAfter: number, reports: readonly PassReport[]): string {
  const changed = reports.filter((r) => r.changed > 0).map((r) => `${r.name} ${r.changed}`);
  return `${nodesBefore} → ${nodesAfter} nodes (${changed.join(', ') || 'no changes'})`;
}

/** The precision report of an INT8 (or mixed) graph: node counts and what the quantizer did. */
export function int8Report(precision: PlanPrecision, r: Int8Result, perChannel: boolean, fallbackFp32: readonly string[]): PrecisionReport {
  const { quantizedTensors, quantizedWeights, removedActivations } = r;
  return {
    precision,
    nodes: countPrecisions(r.nodePrecision),
    int8: { quantizedTensors, quantizedWeights, removedActivations, perChannel, fallbackFp32 },
  };
}

/** A plan manifest's inputs or outputs: KServe datatypes, dynamic dims as -1 (every target's build writes these). */
export function ioSpec(vs: readonly ValueInfo[]): PlanManifest['io']['inputs'] {
  return vs.map((v) => {
    const datatype = kserveDatatype(v.type.elemType);
    if (datatype === undefined) throw rtError('UNSUPPORTED', `tensor '${v.name}' has an element type the server cannot carry`);
    return { name: v.name, datatype, shape: (v.type.shape ?? []).map((d) => (typeof d === 'number' ? d : -1)) };
  });
}

/** What a plan manifest records of the accuracy report (every target's build). */
export function manifestAccuracy(accuracy: AccuracyReport | null): PlanManifest['accuracy'] {
  return accuracy === null
    ? null
    : {
        passed: accuracy.passed,
        samples: accuracy.samples,
        dataSource: accuracy.dataSource,
        gates: accuracy.gates.map((x) => ({ metric: x.metric, threshold: x.threshold, value: x.value, passed: x.passed })),
      };
}

export async function readCalibrationCache(path: string): Promise<CalibrationTable | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch {
    return undefined;
  }
  if (isPlanBytes(bytes)) {
    const table = readPlan(bytes, { name: path }).manifest.calibration;
    if (table === null) throw rtError('BAD_CONFIG', `calibration cache ${path} is a plan without a calibration table`);
    return table;
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw rtError('BAD_CONFIG', `calibration cache ${path} is neither a plan nor a JSON calibration table`);
  }
  const parsed = calibrationTableSchema.safeParse(json);
  if (!parsed.success) {
    throw rtError(
      'BAD_CONFIG',
      `calibration cache ${path} is malformed: ${parsed.error.issues
        .slice(0, 2)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  }
  return parsed.data;
}

export function checkTarget(target: PlanTarget): void {
  if (target === 'cuda') {
    throw rtError(
      'ENGINE_UNAVAILABLE',
      "target 'cuda' is unavailable: the native CUDA engine is not part of this build; use --target ort-cpu (or ort-webgpu for browsers/GPUs via onnxruntime)",
    );
  }
}

/** Builds a plan: load → validate → passes → calibrate → precision → onnxruntime optimization → profile check → accuracy → write. */
/** Stage progress events and per-stage times (the report's `stagesMs`), shared by every target's build. */
export function stageTimer(progress: ProgressListener): {
  stagesMs: Partial<Record<BuildStage, number>>;
  start: (stage: BuildStage, message?: string) => void;
  done: (stage: BuildStage, message?: string) => void;
  skip: (stage: BuildStage, why: string) => void;
} {
  const stagesMs: Partial<Record<BuildStage, number>> = {};
  let stageStart = 0;
  return {
    stagesMs,
    start: (stage, message) => {
      stageStart = performance.now();
      progress(message === undefined ? { stage, state: 'start' } : { stage, state: 'start', message });
    },
    done: (stage, message) => {
      const ms = Math.round((performance.now() - stageStart) * 10) / 10;
      stagesMs[stage] = ms;
      progress(message === undefined ? { stage, state: 'done', elapsedMs: ms } : { stage, state: 'done', message, elapsedMs: ms });
    },
    skip: (stage, why) => progress({ stage, state: 'skipped', message: why }),
  };
}

/** What the load and validate stages give every target's build. */
export interface LoadedSource {
  readonly sourceBytes: Uint8Array;
  readonly fileName: string;
  readonly g: Graph;
  /** The graph's inputs as loaded (before passes change them). */
  readonly sourceInputs: ValueInfo[];
  readonly source: PlanManifest['source'];
  readonly profiles: ShapeProfile[];
}

/**
 * The `load` stage (read the model, refuse a plan, parse, record the source) and the start of `validate`
 * (graph checks, shape inference, profile checks), shared by the ONNX Runtime and CUDA targets. `validate` is
 * left open: each target adds its own checks, then marks it done.
 */
export async function loadAndValidateSource(
  options: Pick<BuildOptions, 'model' | 'modelName' | 'profiles'>,
  warnings: string[],
  start: (stage: BuildStage) => void,
  done: (stage: BuildStage, detail: string) => void,
): Promise<LoadedSource> {
  start('load');
  const sourceBytes =
    typeof options.model === 'string'
      ? new Uint8Array(
          await readFile(options.model).catch(() => {
            throw rtError('BAD_CONFIG', `model file '${options.model as string}' cannot be read`);
          }),
        )
      : options.model;
  const fileName = options.modelName ?? (typeof options.model === 'string' ? basename(options.model) : 'model.onnx');
  if (isPlanBytes(sourceBytes)) throw rtError('BAD_CONFIG', `${fileName} is already a plan; \`rtserve build\` takes an .onnx model`);
  const g = loadModel(sourceBytes, typeof options.model === 'string' ? { baseDir: dirname(options.model), fileName } : { fileName });
  const sourceInputs = g.inputs.map((i) => ({ ...i }));
  const source: PlanManifest['source'] = {
    fileName,
    sha256: sha256Hex(sourceBytes),
    bytes: sourceBytes.byteLength,
    irVersion: g.meta.irVersion,
    opsets: Object.fromEntries(g.opsets),
    producer: `${g.meta.producerName} ${g.meta.producerVersion}`.trim(),
  };
  done('load', `${g.nodes.length} nodes, ${g.initializers.size} initializers, opset ${g.opset}`);

  start('validate');
  warnings.push(...validateGraph(g, fileName));
  inferShapes(g);
  const profiles = [...(options.profiles ?? [])];
  warnings.push(...checkProfiles(profiles, g.inputs));
  return { sourceBytes, fileName, g, sourceInputs, source, profiles };
}
