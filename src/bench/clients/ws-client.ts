/**
 * WebSocket load client for rtserve's `rtserve.v1` protocol (docs/ws-protocol.md): many requests per socket keyed
 * by id, `infer` events with binary tensor frames both ways (inputs announce `binary_data_size` and follow as one
 * binary frame each; `binary_data_output: true` brings outputs back as one binary frame per output after the
 * `result` event). A request completes when its `result` and all its output frames have arrived, or fails on its
 * `error` event. Sockets are opened so that none carries more than the session's `max_in_flight`.
 */
import WebSocket from 'ws';
import { tensorDataToBinary } from '../../codec/binary-data.ts';
import { RequestFailure } from '../errors.ts';
import type { LoadClient, LoadClientFactory, LoadTarget } from './load-client.ts';

interface PreparedInfer {
  /** The infer event's JSON after `"id":"<id>"`. */
  readonly tail: string;
  readonly frames: readonly Buffer[];
}

interface Pending {
  resolve(): void;
  reject(err: Error): void;
}

function prepare(target: LoadTarget): PreparedInfer[] {
  return target.inputSets.map((inputs) => {
    const frames: Buffer[] = [];
    const tensors = inputs.map((t) => {
      const bytes = tensorDataToBinary('input', t.name, t.datatype, t.data);
      frames.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return { name: t.name, datatype: t.datatype, shape: t.shape, parameters: { binary_data_size: bytes.byteLength } };
    });
    const head = {
      model: target.model,
      ...(target.version === undefined ? {} : { version: target.version }),
      inputs: tensors,
      parameters: { binary_data_output: true },
    };
    return { tail: `,${JSON.stringify(head).slice(1)}`, frames };
  });
}

/**
 * Opens a socket and waits for the server's first message, which is always `session.created` with the session's
 * limits (docs/ws-protocol.md "Handshake").
 */
export function connectRtserveWs(url: string): Promise<{ ws: WebSocket; maxInFlight: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['rtserve.v1'], { perMessageDeflate: false });
    const onError = (err: Error): void => reject(new RequestFailure(`ws: cannot connect to ${url}: ${err.message}`, { cause: err }));
    ws.once('error', onError);
    ws.once('message', (data: Buffer) => {
      ws.off('error', onError);
      let maxInFlight = 128;
      try {
        const ev = JSON.parse(data.toString()) as { type?: string; limits?: { max_in_flight?: number } };
        if (ev.type !== 'session.created') throw new Error(`expected session.created, got ${String(ev.type)}`);
        maxInFlight = ev.limits?.max_in_flight ?? maxInFlight;
      } catch (err) {
        ws.close();
        reject(new RequestFailure(`ws: bad handshake: ${err instanceof Error ? err.message : String(err)}`));
        return;
      }
      resolve({ ws, maxInFlight });
    });
  });
}

/** One socket: sends requests, matches `result` / `error` events and output frames to them. */
class Socket {
  readonly pending = new Map<string, Pending>();
  /** The request whose output frames are arriving, and how many are still due. */
  private receiving: { id: string; due: number } | undefined;
  private failure: RequestFailure | undefined;

  private constructor(
    private readonly ws: WebSocket,
    readonly maxInFlight: number,
  ) {
    ws.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    ws.on('close', (code, reason) => this.fail(new RequestFailure(`ws: socket closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`)));
    ws.on('error', (err) => this.fail(new RequestFailure(`ws: ${err.message}`, { cause: err })));
  }

  static async open(url: string): Promise<Socket> {
    const { ws, maxInFlight } = await connectRtserveWs(url);
    return new Socket(ws, maxInFlight);
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (isBinary) {
      const r = this.receiving;
      if (r === undefined) return;
      r.due -= 1;
      if (r.due === 0) {
        this.receiving = undefined;
        this.settle(r.id);
      }
      return;
    }
    let ev: { type?: string; id?: string; outputs?: { parameters?: { binary_data_size?: number } }[]; error?: { code?: string; message?: string } };
    try {
      ev = JSON.parse(data.toString()) as typeof ev;
    } catch {
      return;
    }
    if (ev.id === undefined) return;
    if (ev.type === 'result') {
      const due = (ev.outputs ?? []).filter((o) => o.parameters?.binary_data_size !== undefined).length;
      if (due === 0) this.settle(ev.id);
      else this.receiving = { id: ev.id, due };
    } else if (ev.type === 'error') {
      const p = this.pending.get(ev.id);
      this.pending.delete(ev.id);
      p?.reject(new RequestFailure(`ws ${ev.error?.code ?? 'error'}: ${ev.error?.message ?? ''}`));
    }
  }

  private settle(id: string): void {
    const p = this.pending.get(id);
    this.pending.delete(id);
    p?.resolve();
  }

  private fail(err: RequestFailure): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  send(id: string, infer: PreparedInfer): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(`{"type":"infer","id":"${id}"${infer.tail}`);
      for (const f of infer.frames) this.ws.send(f, { binary: true });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) {
        resolve();
        return;
      }
      this.ws.once('close', () => resolve());
      this.ws.close(1000);
    });
  }
}

class WsClient implements LoadClient {
  readonly protocol = 'ws';
  constructor(
    private readonly sockets: readonly Socket[],
    private readonly prepared: readonly PreparedInfer[],
  ) {}

  send(seq: number): Promise<void> {
    // The least busy socket: sockets were opened so that the concurrency fits under their max_in_flight.
    let socket = this.sockets[0] as Socket;
    for (const s of this.sockets) if (s.pending.size < socket.pending.size) socket = s;
    return socket.send(`r${seq}`, this.prepared[seq % this.prepared.length] as PreparedInfer);
  }

  async close(): Promise<void> {
    await Promise.all(this.sockets.map((s) => s.close()));
  }
}

/** ws://host:port/v2/ws from a REST base URL (the WebSocket shares the HTTP port). */
export function wsUrlOf(httpUrl: string): string {
  const u = new URL(httpUrl);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = '/v2/ws';
  return u.toString();
}

export const wsClientFactory: LoadClientFactory = {
  protocol: 'ws',
  endpoint: 'ws',
  async create(target) {
    const first = await Socket.open(target.url);
    const sockets = [first];
    const needed = Math.ceil(target.concurrency / Math.max(1, first.maxInFlight));
    while (sockets.length < needed) sockets.push(await Socket.open(target.url));
    return new WsClient(sockets, prepare(target));
  },
};
