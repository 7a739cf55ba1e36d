export {
  PLAN_FORMAT_MAJOR,
  PLAN_FORMAT_MINOR,
  PLAN_MAGIC,
  isPlanBytes,
  readPlan,
  sha256Hex,
  writePlan,
} from './format.ts';
export type { PlanFile, ReadPlanOptions } from './format.ts';
export { checkPlanCompatibility } from './compatibility.ts';
export type { CompatibilityResult, PlanRuntime } from './compatibility.ts';
export { checkShapeInProfiles, profileProblem, warmupShapes } from './profiles.ts';
export { loadPlan } from './load.ts';
export type { LoadedPlan } from './load.ts';
export {
  CALIBRATION_METHODS,
  NODE_PRECISIONS,
  PLAN_PRECISIONS,
  PLAN_TARGETS,
  calibrationTableSchema,
  planManifestSchema,
} from './manifest.ts';
export type {
  AccuracySummary,
  CalibrationMethod,
  CalibrationTable,
  NodePrecision,
  PassRecord,
  PlanManifest,
  PlanPrecision,
  PlanTarget,
  PlanTensorSpec,
  ShapeProfile,
  TensorRange,
} from './manifest.ts';
