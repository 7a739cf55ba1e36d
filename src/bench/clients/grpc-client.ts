/**
 * gRPC load clients for inference.GRPCInferenceService (docs/protocol.md §2.5):
 *  - `grpc`: one unary ModelInfer per request, all over one HTTP/2 channel (grpc-js multiplexes the calls);
 *  - `grpc-stream`: one bidirectional ModelStreamInfer stream carrying every request; responses are matched to
 *    requests by the request id the server echoes (perf_analyzer's --streaming mode).
 * Requests put every input in raw_input_contents and are encoded once before measuring with the client codec
 * (src/codec/grpc/infer-client-codec.ts); grpc-js gets the bytes as they are (identity serializer).
 */
import { Client, credentials, status, type ClientDuplexStream, type ServiceError } from '@grpc/grpc-js';
import {
  decodeModelInferResponse,
  decodeModelStreamInferResponse,
  encodeModelInferRequest,
  type StreamInferResult,
} from '../../codec/grpc/infer-client-codec.ts';
import { RequestFailure } from '../errors.ts';
import type { LoadClient, LoadClientFactory, LoadTarget } from './load-client.ts';
import { openSharedMemoryClient, type SharedMemoryRequest } from '../shared-memory.ts';

const SERVICE = '/inference.GRPCInferenceService';
const identity = (b: Buffer): Buffer => b;

function openChannel(target: LoadTarget): Promise<Client> {
  const address = target.url.replace(/^grpc:\/\//, '');
  // No message size limits on the client: the server's limits are what a benchmark should run into. A 16 MiB
  // receive window (as the server's grpcFlowControlWindowBytes) so large responses do not wait for WINDOW_UPDATEs.
  const client = new Client(address, credentials.createInsecure(), {
    'grpc.max_receive_message_length': -1,
    'grpc.max_send_message_length': -1,
    'grpc-node.flow_control_window': 16 * 1024 * 1024,
  });
  return new Promise((resolve, reject) => {
    client.waitForReady(Date.now() + 10_000, (err) => {
      if (err === undefined || err === null) resolve(client);
      else {
        client.close();
        reject(new RequestFailure(`transport: cannot connect to ${address}: ${err.message}`));
      }
    });
  });
}

function grpcFailure(err: ServiceError): RequestFailure {
  return new RequestFailure(`gRPC ${status[err.code] ?? err.code}: ${err.details}`, { cause: err });
}

/** Protobuf field 3 (ModelInferRequest.id, a string): appended to a pre-encoded request it sets the id. */
function idField(id: string): Buffer {
  const bytes = Buffer.from(id, 'utf8');
  if (bytes.byteLength > 127) throw new RangeError('request id too long');
  return Buffer.concat([Buffer.from([(3 << 3) | 2, bytes.byteLength]), bytes]);
}

class UnaryClient implements LoadClient {
  readonly protocol = 'grpc';
  constructor(
    private readonly client: Client,
    private readonly bodies: readonly Buffer[],
    private readonly timeoutMs: number | undefined,
  ) {}

  send(seq: number): Promise<void> {
    const body = this.bodies[seq % this.bodies.length] as Buffer;
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        `${SERVICE}/ModelInfer`,
        identity,
        // Decoding checks the response is well-formed, as the REST clients do.
        (b: Buffer) => decodeModelInferResponse(b),
        body,
        this.timeoutMs === undefined ? {} : { deadline: Date.now() + this.timeoutMs },
        (err: ServiceError | null) => (err === null ? resolve() : reject(grpcFailure(err))),
      );
    });
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

class StreamClient implements LoadClient {
  readonly protocol = 'grpc-stream';
  private readonly call: ClientDuplexStream<Buffer, StreamInferResult>;
  private readonly pending = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  private failed: RequestFailure | undefined;

  constructor(
    private readonly client: Client,
    private readonly bodies: readonly Buffer[],
  ) {
    this.call = client.makeBidiStreamRequest(`${SERVICE}/ModelStreamInfer`, identity, (b: Buffer) => decodeModelStreamInferResponse(b));
    this.call.on('data', (r: StreamInferResult) => {
      const id = r.response.id ?? '';
      const p = this.pending.get(id);
      if (p === undefined) return;
      this.pending.delete(id);
      if (r.error === '') p.resolve();
      else p.reject(new RequestFailure(`gRPC stream: ${r.error}`));
    });
    const fail = (err: Error): void => {
      this.failed =
        err instanceof RequestFailure
          ? err
          : new RequestFailure(`gRPC stream ended: ${(err as ServiceError).details ?? err.message}`, { cause: err });
      for (const p of this.pending.values()) p.reject(this.failed);
      this.pending.clear();
    };
    this.call.on('error', fail);
    this.call.on('end', () => fail(new RequestFailure('gRPC stream: the server ended the stream')));
  }

  send(seq: number): Promise<void> {
    if (this.failed !== undefined) return Promise.reject(this.failed);
    const id = String(seq);
    const body = this.bodies[seq % this.bodies.length] as Buffer;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.call.write(Buffer.concat([body, idField(id)]));
    });
  }

  async close(): Promise<void> {
    this.call.end();
    this.client.close();
  }
}

function encodeBodies(target: LoadTarget, shm?: readonly SharedMemoryRequest[]): Buffer[] {
  const version = target.version === undefined ? {} : { version: target.version };
  // Tensors in shared memory: the inputs carry the region parameters and no raw contents.
  if (shm !== undefined)
    return shm.map((r) =>
      encodeModelInferRequest({ model: target.model, ...version, inputs: [], sharedMemoryInputs: r.sharedMemoryInputs, outputs: r.outputs }),
    );
  return target.inputSets.map((inputs) => encodeModelInferRequest({ model: target.model, ...version, inputs }));
}

/** Opens a client of `target`, through shared memory when the target asks for it. */
async function openGrpc(target: LoadTarget, open: (client: Client, bodies: Buffer[]) => LoadClient): Promise<LoadClient> {
  const shm = target.sharedMemory;
  if (shm === undefined) return open(await openChannel(target), encodeBodies(target));
  return openSharedMemoryClient(target, shm.controlUrl, async (requests) => open(await openChannel(target), encodeBodies(target, requests)));
}

export const grpcClientFactories: readonly LoadClientFactory[] = [
  {
    protocol: 'grpc',
    endpoint: 'grpc',
    sharedMemory: true,
    create: (target) => openGrpc(target, (client, bodies) => new UnaryClient(client, bodies, target.timeoutMs)),
  },
  {
    protocol: 'grpc-stream',
    endpoint: 'grpc',
    sharedMemory: true,
    create: (target) => openGrpc(target, (client, bodies) => new StreamClient(client, bodies)),
  },
];
