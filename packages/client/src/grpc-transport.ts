/**
 * The SDK's gRPC transport (Node only: it imports @grpc/grpc-js): inference.GRPCInferenceService ModelInfer and
 * ModelStreamInfer (docs/protocol.md §2.5; src/transport/grpc/proto/grpc_service.proto), with every input in
 * raw_input_contents through the byte-level codec of src/codec/grpc/infer-client-codec.ts. Errors carry the
 * registry code from the server's trailing metadata (`rtserve-error-code`, `retry-after-ms`).
 * createNodeClient plugs it in when given `grpcAddress`; browsers cannot speak gRPC and never load this file.
 */
import { Client, credentials as grpcCredentials, Metadata, type ChannelCredentials, type ServiceError } from '@grpc/grpc-js';
import { CATEGORY_MAPPING, ERROR_CODES, type ErrorCategory, type ErrorCode } from '../../../src/errors/registry.ts';
import type { Parameters, RequestedOutput } from '../../../src/api/types.ts';
import type { Tensor } from '../../../src/tensor/tensor.ts';
import {
  decodeModelInferResponse,
  decodeModelStreamInferResponse,
  encodeModelInferRequest,
  type GrpcClientRequest,
  type StreamInferResult,
} from '../../../src/codec/grpc/infer-client-codec.ts';
import { RtserveError } from './errors.ts';
import { InferResult } from './tensors.ts';

const SERVICE = '/inference.GRPCInferenceService';

export interface GrpcTransportOptions {
  /** host:port of the gRPC front end. */
  readonly address: string;
  /** Default: insecure (plain HTTP/2). */
  readonly credentials?: ChannelCredentials;
  /** Sent as `authorization: Bearer <token>` metadata. */
  readonly token?: string;
  /** grpc-js channel options (e.g. max message sizes). */
  readonly channelOptions?: Readonly<Record<string, string | number>>;
}

export interface GrpcRequestOptions {
  readonly version?: string;
  readonly id?: string;
  readonly outputs?: readonly RequestedOutput[];
  readonly parameters?: Parameters;
  readonly signal?: AbortSignal;
}

/** gRPC status number → registry category (the inverse of CATEGORY_MAPPING's grpc column, first match). */
function categoryOfGrpc(code: number): ErrorCategory | undefined {
  for (const [name, m] of Object.entries(CATEGORY_MAPPING)) if (m.grpc === code) return name as ErrorCategory;
  return undefined;
}

export function errorFromGrpc(err: ServiceError): RtserveError {
  const code = err.metadata?.get('rtserve-error-code')[0];
  const known = typeof code === 'string' && code in ERROR_CODES ? (code as ErrorCode) : undefined;
  const category = known === undefined ? categoryOfGrpc(err.code) : ERROR_CODES[known].category;
  const retryAfter = Number(err.metadata?.get('retry-after-ms')[0]);
  if (err.code === 1) return new RtserveError('CANCELLED', err.details || 'the call was cancelled', { category: 'CANCELLED', cause: err });
  return new RtserveError(known ?? category ?? 'INTERNAL', err.details || err.message, {
    ...(category === undefined ? {} : { category }),
    retryable: category === undefined ? false : CATEGORY_MAPPING[category].retryable,
    ...(Number.isFinite(retryAfter) ? { retryAfterMs: retryAfter } : {}),
    cause: err,
  });
}

export class GrpcTransport {
  private readonly client: Client;
  private readonly metadata: Metadata;

  constructor(options: GrpcTransportOptions) {
    this.client = new Client(options.address, options.credentials ?? grpcCredentials.createInsecure(), { ...options.channelOptions });
    this.metadata = new Metadata();
    if (options.token !== undefined) this.metadata.set('authorization', `Bearer ${options.token}`);
  }

  private request(model: string, inputs: readonly Tensor[], opts: GrpcRequestOptions): GrpcClientRequest {
    return {
      model,
      inputs,
      ...(opts.version === undefined ? {} : { version: opts.version }),
      ...(opts.id === undefined ? {} : { id: opts.id }),
      ...(opts.outputs === undefined ? {} : { outputs: opts.outputs }),
      ...(opts.parameters === undefined ? {} : { parameters: opts.parameters }),
    };
  }

  /** ModelInfer. Aborting `signal` cancels the call (the server drops a queued request). */
  infer(model: string, inputs: readonly Tensor[], opts: GrpcRequestOptions = {}): Promise<InferResult> {
    return new Promise((resolve, reject) => {
      if (opts.signal?.aborted === true) {
        reject(new RtserveError('CANCELLED', 'the request was cancelled', { category: 'CANCELLED' }));
        return;
      }
      const call = this.client.makeUnaryRequest(
        `${SERVICE}/ModelInfer`,
        (req: GrpcClientRequest) => encodeModelInferRequest(req),
        (bytes: Buffer) => decodeModelInferResponse(bytes),
        this.request(model, inputs, opts),
        this.metadata.clone(),
        {},
        (err, response) => {
          opts.signal?.removeEventListener('abort', onAbort);
          if (err !== null) reject(errorFromGrpc(err));
          else if (response === undefined) reject(new RtserveError('INTERNAL', 'empty gRPC response'));
          else resolve(new InferResult(response));
        },
      );
      const onAbort = (): void => call.cancel();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * ModelStreamInfer with one request: every response until the server ends the stream (a decoupled model marks
   * its last with `triton_final_response`). Responses that carry an error_message end the stream with an
   * RtserveError (Triton's stream responses carry only a message, so the code is INTERNAL).
   */
  async *stream(model: string, inputs: readonly Tensor[], opts: GrpcRequestOptions = {}): AsyncGenerator<InferResult> {
    const call = this.client.makeBidiStreamRequest(
      `${SERVICE}/ModelStreamInfer`,
      (req: GrpcClientRequest) => encodeModelInferRequest(req),
      (bytes: Buffer) => decodeModelStreamInferResponse(bytes),
      this.metadata.clone(),
      {},
    );
    const onAbort = (): void => call.cancel();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    try {
      call.write(this.request(model, inputs, opts));
      for await (const raw of call as AsyncIterable<StreamInferResult>) {
        if (raw.error !== '') throw new RtserveError('INTERNAL', raw.error, { category: 'INTERNAL' });
        yield new InferResult(raw.response);
        const final = raw.response.parameters?.['triton_final_response'];
        // An ordinary model answers once; a decoupled one says which response is its last.
        if (final === true || final === undefined) break;
      }
      finished = true;
    } catch (err) {
      if (err instanceof RtserveError) throw err;
      throw errorFromGrpc(err as ServiceError);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      call.end();
      if (!finished) call.cancel();
    }
  }

  close(): void {
    this.client.close();
  }
}
