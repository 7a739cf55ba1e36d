import { activationFusion } from './activation-fusion.ts';
import { batchNormFolding } from './batchnorm-folding.ts';
import { biasFusion } from './bias-fusion.ts';
import { constantFolding } from './constant-folding.ts';
import { deadNodeElimination } from './dead-node-elimination.ts';
import { identityElimination } from './identity-elimination.ts';
import type { Pass } from './pass.ts';
import { shapeSimplification } from './shape-simplification.ts';

export { activationFusion, batchNormFolding, biasFusion, constantFolding, deadNodeElimination, identityElimination, shapeSimplification };
export { runPasses } from './pass-manager.ts';
export type { PassManagerOptions, PassReport } from './pass-manager.ts';
export type { Pass, PassContext, PassResult } from './pass.ts';

/** The default pipeline, in order (docs/plan-format.md lists it for the manifest's `passes`). */
export const DEFAULT_PASSES: readonly Pass[] = [
  identityElimination,
  constantFolding,
  shapeSimplification,
  deadNodeElimination,
  batchNormFolding,
  biasFusion,
  activationFusion,
];

export const PASSES_BY_NAME: ReadonlyMap<string, Pass> = new Map(DEFAULT_PASSES.map((p) => [p.name, p]));
