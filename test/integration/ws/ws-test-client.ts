/**
 * A small raw client for the WebSocket protocol tests: a real `ws` socket, every server event recorded in
 * order with the binary frames that follow it attached, and promise helpers to wait for events and the close.
 * It deliberately does not use the SDK, so the protocol is tested on the wire.
 */
import WebSocket from 'ws';
import { binaryOutputCount, type WsServerEvent, type WsWireOutput } from '../../../src/codec/ws-protocol.ts';

export type RecordedEvent = WsServerEvent & { binary: Uint8Array[] } & Record<string, unknown>;

export interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

export class TestWs {
  readonly events: RecordedEvent[] = [];
  private awaitingBinary: { event: RecordedEvent; left: number } | undefined;
  private waiters: { pred: (e: RecordedEvent) => boolean; resolve: (e: RecordedEvent) => void }[] = [];
  readonly closed: Promise<CloseInfo>;
  /** Binary frames that arrived with no event waiting for them (a protocol violation by the server). */
  strayBinary = 0;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data: Buffer, isBinary) => this.onMessage(data, isBinary));
    ws.on('error', () => {});
  }

  /** Connects and waits for session.created. */
  static async open(httpUrl: string, options: { protocols?: string[]; headers?: Record<string, string> } = {}): Promise<TestWs> {
    const url = `${httpUrl.replace(/^http/, 'ws')}/v2/ws`;
    const ws = new WebSocket(url, options.protocols ?? ['rtserve.v1'], { headers: options.headers ?? {} });
    const client = new TestWs(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
    await client.waitFor((e) => e.type === 'session.created', 'session.created');
    return client;
  }

  get session(): { id: string; limits: Record<string, number> } {
    const created = this.events.find((e) => e.type === 'session.created') as unknown as { session: { id: string }; limits: Record<string, number> };
    return { id: created.session.id, limits: created.limits };
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (isBinary) {
      const a = this.awaitingBinary;
      if (a === undefined) {
        this.strayBinary++;
        return;
      }
      a.event.binary.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      if (--a.left === 0) {
        this.awaitingBinary = undefined;
        this.publish(a.event);
      }
      return;
    }
    const event = { ...(JSON.parse(data.toString('utf8')) as object), binary: [] } as unknown as RecordedEvent;
    const outputs = (event as { outputs?: WsWireOutput[] }).outputs;
    const n = outputs === undefined ? 0 : binaryOutputCount(outputs);
    if (n > 0) {
      this.awaitingBinary = { event, left: n };
      return;
    }
    this.publish(event);
  }

  private publish(event: RecordedEvent): void {
    this.events.push(event);
    const keep: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.pred(event)) w.resolve(event);
      else keep.push(w);
    }
    this.waiters = keep;
  }

  send(event: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(event));
  }

  sendBinary(bytes: Uint8Array): void {
    this.ws.send(bytes, { binary: true });
  }

  /** The first recorded event (already received or future) matching `pred`. */
  waitFor(pred: (e: RecordedEvent) => boolean, what = 'an event', timeoutMs = 20000): Promise<RecordedEvent> {
    const seen = this.events.find(pred);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.events.map((e) => [e.type, e.id]))}`)),
        timeoutMs,
      );
      this.waiters.push({
        pred,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  /** The terminal event of request `id`. */
  terminal(id: string): Promise<RecordedEvent> {
    return this.waitFor(
      (e) => e.id === id && (e.type === 'result' || e.type === 'done' || e.type === 'frame.dropped' || (e.type === 'error' && e.seq !== undefined)),
      `the terminal event of '${id}'`,
    );
  }

  eventsOf(id: string): RecordedEvent[] {
    return this.events.filter((e) => e.id === id);
  }

  close(): void {
    this.ws.close();
  }

  terminate(): void {
    this.ws.terminate();
  }
}

/** An `infer` event for the `simple` model (INPUT0 = 0..15 + base, INPUT1 = ones) with JSON data. */
export function simpleInfer(id: string, base = 0, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'infer',
    id,
    model: 'simple',
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: Array.from({ length: 16 }, (_, i) => i + base) },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: Array.from({ length: 16 }, () => 1) },
    ],
    ...extra,
  };
}

/** The JSON `data` of output `name` in a result/delta event. */
export function outputData(event: RecordedEvent, name: string): unknown[] {
  const outputs = (event as unknown as { outputs: { name: string; data: unknown[] }[] }).outputs;
  const o = outputs.find((x) => x.name === name);
  if (o === undefined) throw new Error(`no output '${name}' in ${JSON.stringify(event)}`);
  return o.data;
}
