/**
 * The seam between the paged scheduler and a device decoder lives in src/engine/token-engine.ts (the engine layer
 * implements it and may not import src/generate); re-exported here so the scheduler's imports stay as they were.
 */
export type { RowSampling, StepRow, TokenEngine, TokenEngineGeometry } from '../engine/token-engine.ts';
