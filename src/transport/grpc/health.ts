/**
 * grpc.health.v1.Health (https://github.com/grpc/grpc/blob/master/doc/health-checking.md; docs/protocol.md §2.5 HP) over
 * the InferenceApi, computed live rather than from a status table that could go stale:
 *
 *   ""  and "inference.GRPCInferenceService"  SERVING when the server is ready (api.isReady), else NOT_SERVING
 *   "<model name>"                            SERVING when a version of the model is READY, NOT_SERVING when the
 *                                             repository knows the model but no version is ready
 *   anything else                             Check: NOT_FOUND; Watch: SERVICE_UNKNOWN (as the spec says)
 *
 * Watch sends the current status at once and again whenever it changes. Changes are found by one shared, unref'd
 * poll that runs only while someone watches, plus an immediate re-check after the front end loads or unloads a
 * model. On shutdown every watcher gets NOT_SERVING and its stream ends, so draining does not wait on watchers.
 */
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { ServerUnaryCall, ServerWritableStream, UntypedServiceImplementation, sendUnaryData } from '@grpc/grpc-js';
import type { InferenceApi } from '../../api/inference-api.ts';

export type ServingStatus = 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

/** The gRPC service name of the inference service; health checks on it report the whole server. */
export const INFERENCE_SERVICE_NAME = 'inference.GRPCInferenceService';

interface HealthCheckRequest {
  service: string;
}

interface HealthCheckResponse {
  status: ServingStatus;
}

interface Watcher {
  readonly service: string;
  readonly call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>;
  last: ServingStatus;
}

export interface HealthServiceOptions {
  readonly api: InferenceApi;
  /** How often watched statuses are re-evaluated. */
  readonly pollIntervalMs?: number;
}

export class HealthService {
  private readonly watchers = new Set<Watcher>();
  private timer: NodeJS.Timeout | undefined;
  private shutDown = false;
  private readonly pollIntervalMs: number;

  constructor(private readonly options: HealthServiceOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
  }

  statusOf(service: string): ServingStatus {
    if (this.shutDown) return 'NOT_SERVING';
    const api = this.options.api;
    if (service === '' || service === INFERENCE_SERVICE_NAME) return api.isReady() ? 'SERVING' : 'NOT_SERVING';
    let known = false;
    for (const entry of api.repositoryIndex(false)) {
      if (entry.name !== service) continue;
      known = true;
      if (entry.state === 'READY') return 'SERVING';
    }
    return known ? 'NOT_SERVING' : 'SERVICE_UNKNOWN';
  }

  /** Handlers for grpc.health.v1.Health (Check, Watch, List). */
  implementation(): UntypedServiceImplementation {
    return {
      Check: (call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, callback: sendUnaryData<HealthCheckResponse>) => {
        const service = call.request.service;
        let status: ServingStatus;
        try {
          status = this.statusOf(service);
        } catch {
          status = 'NOT_SERVING';
        }
        if (status === 'SERVICE_UNKNOWN') {
          callback({
            code: GrpcStatus.NOT_FOUND,
            details: `unknown service '${service}': health is reported for '', '${INFERENCE_SERVICE_NAME}' and each model name`,
          });
        } else {
          callback(null, { status });
        }
      },
      Watch: (call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
        const watcher: Watcher = { service: call.request.service, call, last: this.safeStatus(call.request.service) };
        call.write({ status: watcher.last });
        if (this.shutDown) {
          call.end();
          return;
        }
        this.watchers.add(watcher);
        const remove = (): void => {
          this.watchers.delete(watcher);
          if (this.watchers.size === 0) this.stopTimer();
        };
        call.once('cancelled', remove);
        call.once('close', remove);
        this.startTimer();
      },
      List: (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<{ statuses: Record<string, HealthCheckResponse> }>) => {
        const statuses: Record<string, HealthCheckResponse> = {};
        statuses[''] = { status: this.safeStatus('') };
        statuses[INFERENCE_SERVICE_NAME] = statuses[''];
        try {
          for (const entry of this.options.api.repositoryIndex(false)) statuses[entry.name] = { status: this.safeStatus(entry.name) };
        } catch {
          // The overall status is still worth answering.
        }
        callback(null, { statuses });
      },
    };
  }

  /** Re-evaluates every watched service now and notifies watchers whose status changed. */
  refresh(): void {
    for (const w of this.watchers) {
      const s = this.safeStatus(w.service);
      if (s !== w.last) {
        w.last = s;
        w.call.write({ status: s });
      }
    }
  }

  /** Every watcher gets NOT_SERVING and its stream ends; later checks answer NOT_SERVING. */
  shutdown(): void {
    this.shutDown = true;
    this.stopTimer();
    for (const w of this.watchers) {
      if (w.last !== 'NOT_SERVING') w.call.write({ status: 'NOT_SERVING' });
      w.call.end();
    }
    this.watchers.clear();
  }

  private safeStatus(service: string): ServingStatus {
    try {
      return this.statusOf(service);
    } catch {
      return 'NOT_SERVING';
    }
  }

  private startTimer(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.refresh(), this.pollIntervalMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
