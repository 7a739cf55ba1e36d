/**
 * A generation over rtserve's WebSocket protocol (docs/ws-protocol.md "Streaming responses"): one socket per
 * closed-loop client, an `infer` event with `stream: true` and the text interface's `text_input`, then `delta`
 * events (the last one carries the counts as parameters) and one `done`, or an `error`.
 */
import type WebSocket from 'ws';
import { connectRtserveWs, wsUrlOf } from '../clients/ws-client.ts';
import { RequestFailure } from '../errors.ts';
import { kserveGenerateBody, kservePiece, SampleBuilder } from './http-streams.ts';
import type { GenerateClient, GenerateTarget, StreamRequest, StreamSample } from './types.ts';

interface WsEvent {
  type?: string;
  id?: string;
  outputs?: { name?: string; data?: unknown[] }[];
  parameters?: Record<string, unknown>;
  error?: { code?: string; message?: string };
}

interface Current {
  readonly id: string;
  readonly sample: SampleBuilder;
  resolve(s: StreamSample): void;
  reject(err: Error): void;
}

class WsStreamClient implements GenerateClient {
  private current: Current | undefined;
  private closed: RequestFailure | undefined;
  private next = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly target: GenerateTarget,
  ) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) this.onEvent(JSON.parse(data.toString()) as WsEvent);
    });
    ws.on('close', (code) => this.fail(new RequestFailure(`ws: socket closed (${code})`)));
    ws.on('error', (err) => this.fail(new RequestFailure(`ws: ${err.message}`, { cause: err })));
  }

  private onEvent(ev: WsEvent): void {
    const c = this.current;
    if (c === undefined || ev.id !== c.id) return;
    try {
      if (ev.type === 'error') throw new RequestFailure(`ws ${ev.error?.code ?? 'error'}: ${ev.error?.message ?? ''}`);
      if (ev.type === 'delta') c.sample.add(kservePiece(ev));
      else if (ev.type === 'done' || ev.type === 'result') {
        if (ev.type === 'result') c.sample.add(kservePiece(ev));
        this.current = undefined;
        c.resolve(c.sample.finish());
      }
    } catch (err) {
      this.current = undefined;
      c.reject(err as Error);
    }
  }

  private fail(err: RequestFailure): void {
    this.closed ??= err;
    const c = this.current;
    this.current = undefined;
    c?.reject(err);
  }

  stream(request: StreamRequest): Promise<StreamSample> {
    if (this.closed !== undefined) return Promise.reject(this.closed);
    const id = `g${++this.next}`;
    const t = this.target;
    return new Promise((resolve, reject) => {
      const sent = performance.now();
      const timer =
        t.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.ws.send(JSON.stringify({ type: 'cancel', id }));
              this.fail(new RequestFailure(`timed out after ${t.timeoutMs} ms`));
            }, t.timeoutMs);
      const settle =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          if (timer !== undefined) clearTimeout(timer);
          f(v);
        };
      this.current = { id, sample: new SampleBuilder(() => (performance.now() - sent) * 1000), resolve: settle(resolve), reject: settle(reject) };
      this.ws.send(
        JSON.stringify({
          type: 'infer',
          id,
          model: t.model,
          ...(t.version === undefined ? {} : { version: t.version }),
          ...kserveGenerateBody(request),
          stream: true,
        }),
      );
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === this.ws.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close(1000);
    });
  }
}

export async function openWsStreamClient(target: GenerateTarget): Promise<GenerateClient> {
  const { ws } = await connectRtserveWs(target.wsUrl ?? wsUrlOf(target.url));
  return new WsStreamClient(ws, target);
}
