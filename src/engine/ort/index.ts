export { createOrtEngine, ORT_WORKER_URL } from './ort-engine.ts';
export type { OrtEngine, OrtEngineOptions, OrtEngineSession } from './ort-engine.ts';
export { openInProcessOrtSession } from './in-process.ts';
export type { InProcessOrtSession } from './in-process.ts';
export { listOrtBackends } from './ort-backend.ts';
export { dataTypeOfOrt, ORT_TYPE_OF } from './ort-types.ts';
export type { OrtTensorType } from './ort-types.ts';
