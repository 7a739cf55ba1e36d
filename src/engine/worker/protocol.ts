/**
 * Messages between a WorkerSession (event-loop thread) and its engine worker. One message each way per run;
 * tensors inside are WireTensors whose buffers ride in the transfer list.
 */
import type { ErrorCode } from '../../errors/registry.ts';
import type { EngineLoadOptions, SessionDescription } from '../engine.ts';
import type { WireFeed, WireTensor } from './wire-tensor.ts';

/** What the worker gets as `workerData`: it loads this model at start-up and answers `loaded`/`load-failed`. */
export interface WorkerLoadRequest {
  readonly modelPath: string;
  /** Short, path-free name for messages ("resnet50 v1", "add.onnx"). */
  readonly modelLabel: string;
  readonly options: EngineLoadOptions;
}

/** An error as it crosses threads: the registry code survives, the stack does not. */
export interface WireError {
  readonly code: ErrorCode;
  readonly message: string;
}

/** One provider tried at load time, in order. */
export interface ProviderAttempt {
  readonly provider: string;
  readonly ok: boolean;
  /** Why it failed (absent when it loaded). */
  readonly error?: string;
}

export type HostToWorker =
  | { readonly type: 'run'; readonly id: number; readonly feeds: readonly WireFeed[]; readonly outputNames: readonly string[] }
  | { readonly type: 'close' };

export type WorkerToHost =
  | { readonly type: 'loaded'; readonly description: SessionDescription; readonly attempts: readonly ProviderAttempt[] }
  | { readonly type: 'load-failed'; readonly error: WireError; readonly attempts: readonly ProviderAttempt[] }
  | { readonly type: 'result'; readonly id: number; readonly outputs: readonly WireTensor[] }
  | { readonly type: 'run-failed'; readonly id: number; readonly error: WireError }
  | { readonly type: 'closed' };
