export { modelLabelOf, WorkerSession } from './worker-session.ts';
export type { WorkerSessionOptions } from './worker-session.ts';
export { LoadFailure, serveSession, toWireError } from './serve.ts';
export type { LoadedModel, ModelLoader } from './serve.ts';
export { fromWire, packBytes, toWire, transferable, unpackBytes } from './wire-tensor.ts';
export type { WireBytesTensor, WireNumericTensor, WireTensor } from './wire-tensor.ts';
export type { HostToWorker, ProviderAttempt, WireError, WorkerLoadRequest, WorkerToHost } from './protocol.ts';
export { spawnWorker } from '../../util/worker-spawn.ts';
