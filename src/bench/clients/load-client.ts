/**
 * The contract between the load generator and a protocol. One file per protocol under src/bench/clients/ implements
 * a LoadClientFactory; the measurement loop only ever calls `send` and `close`, so its timing is the same for every
 * protocol: a latency is the time from `send` being called to its promise settling.
 */
import type { Tensor } from '../../tensor/tensor.ts';

export interface LoadTarget {
  /** Where to send: a REST base URL (http://host:port), a gRPC address (host:port) or a WebSocket URL. */
  readonly url: string;
  readonly model: string;
  readonly version?: string;
  /**
   * The request inputs, prepared before measuring: request number `seq` sends set `seq % inputSets.length`.
   * Factories encode every set once in `create` so the measured path sends ready-made bytes (as perf_analyzer does).
   */
  readonly inputSets: readonly (readonly Tensor[])[];
  /** The most requests the load generator keeps outstanding at once (sizes connection pools). */
  readonly concurrency: number;
  /** A request still unanswered after this long fails (undefined: no client-side limit). */
  readonly timeoutMs?: number;
  /**
   * `--shared-memory system`: tensors go through system shared memory regions the client registers over the REST
   * control plane at `controlUrl` (src/bench/shared-memory.ts); only factories with `sharedMemory` take it.
   */
  readonly sharedMemory?: { readonly controlUrl: string };
}

export interface LoadClient {
  readonly protocol: string;
  /**
   * Sends request `seq` and resolves once its whole response has arrived and been decoded. Rejects with a
   * RequestFailure (src/bench/errors.ts) when the server answers with an error or the transport fails.
   */
  send(seq: number): Promise<void>;
  close(): Promise<void>;
  /** Requests the client sent while it was set up (shared-memory references and checks), for the run's totals. */
  readonly setupRequests?: number;
}

export interface LoadClientFactory {
  /** The --protocol name: http-json, http-binary, grpc, grpc-stream, ws. */
  readonly protocol: string;
  /** Which address `LoadTarget.url` must be: the REST URL, the gRPC address or the WebSocket URL. */
  readonly endpoint: 'http' | 'grpc' | 'ws';
  /** The protocol can send tensors through system shared memory (LoadTarget.sharedMemory). */
  readonly sharedMemory?: boolean;
  create(target: LoadTarget): Promise<LoadClient>;
}
