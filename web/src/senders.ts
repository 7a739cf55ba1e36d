/**
 * How frames reach the `shapes` model. Preferred: a WebSocket frame stream through the project's client SDK
 * (docs/ws-protocol.md "Frame streams": the server runs the newest frame and reports superseded ones as dropped),
 * each frame a JPEG in a BYTES input (docs/image.md "Tensor form"). Fallback: REST POST /v2/models/shapes/image with
 * one request in flight, the newest waiting frame replacing an older one (counted as dropped).
 */
import { RtserveClient, type FrameStream } from '../../src/client/index.ts';
import type { Detection } from './detections.ts';

export type Outcome =
  | { readonly kind: 'result'; readonly id: number; readonly detections: Detection[]; readonly serverUs?: Readonly<Record<string, number>> }
  | { readonly kind: 'dropped'; readonly id: number }
  | { readonly kind: 'error'; readonly id: number; readonly code: string; readonly message: string };

export interface FrameSender {
  readonly kind: 'ws' | 'rest';
  send(id: number, jpeg: Uint8Array): void;
  close(): void;
}

const MODEL = 'shapes';

/** Whether the server speaks the WebSocket protocol: a socket opens and says session.created in time. */
export function probeWebSocket(httpUrl: string, timeoutMs = 2000): Promise<string | undefined> {
  return new Promise((resolve) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(`${httpUrl.replace(/^http/, 'ws')}/v2/ws`, ['rtserve.v1']);
    } catch (err) {
      resolve(`cannot open a WebSocket: ${String(err)}`);
      return;
    }
    const done = (reason: string | undefined): void => {
      clearTimeout(timer);
      ws.onmessage = null;
      ws.onerror = null;
      ws.onclose = null;
      ws.close();
      resolve(reason);
    };
    const timer = setTimeout(() => done('no session.created within the timeout'), timeoutMs);
    ws.onmessage = (e) => {
      try {
        done((JSON.parse(String(e.data)) as { type?: string }).type === 'session.created' ? undefined : 'unexpected first event');
      } catch {
        done('the first message is not JSON');
      }
    };
    ws.onerror = () => done('the server refused the WebSocket (is /v2/ws served?)');
    ws.onclose = () => done('the socket closed before the handshake');
  });
}

export class WsFrameSender implements FrameSender {
  readonly kind = 'ws';
  private readonly client: RtserveClient;
  private readonly stream: FrameStream;
  private readonly ids = new Map<string, number>();

  constructor(
    httpUrl: string,
    scoreThreshold: number,
    private readonly onOutcome: (o: Outcome) => void,
  ) {
    this.client = new RtserveClient({ url: httpUrl, transport: 'ws' });
    this.stream = this.client.frameStream(MODEL, 'demo', { parameters: { score_threshold: scoreThreshold } });
    void this.pump();
  }

  send(id: number, jpeg: Uint8Array): void {
    const sdkId = this.stream.send({ image: { datatype: 'BYTES', shape: [1], data: [jpeg] } });
    this.ids.set(sdkId, id);
  }

  close(): void {
    this.stream.close();
    this.client.close();
  }

  private async pump(): Promise<void> {
    for await (const o of this.stream) {
      const id = this.ids.get(o.id);
      this.ids.delete(o.id);
      if (id === undefined) continue;
      if (o.kind === 'dropped') this.onOutcome({ kind: 'dropped', id });
      else if (o.kind === 'error') this.onOutcome({ kind: 'error', id, code: o.error.code, message: o.error.message });
      else {
        const r = o.result;
        const boxes = r.data('boxes') as Float32Array;
        const scores = r.data('scores') as Float32Array;
        const classes = r.data('classes') as Int32Array;
        const labels = r.strings('labels');
        const detections: Detection[] = Array.from(scores, (score, i) => ({
          box: [boxes[i * 4] ?? 0, boxes[i * 4 + 1] ?? 0, boxes[i * 4 + 2] ?? 0, boxes[i * 4 + 3] ?? 0] as const,
          classId: classes[i] ?? 0,
          label: labels[i] ?? '',
          score,
        }));
        this.onOutcome({ kind: 'result', id, detections });
      }
    }
  }
}

interface ImageAnswer {
  detections: { box: [number, number, number, number]; class_id: number; label?: string; score: number }[];
  timing?: Record<string, number>;
}

export class RestFrameSender implements FrameSender {
  readonly kind = 'rest';
  private inFlight = false;
  private waiting: { id: number; jpeg: Uint8Array } | undefined;
  private closed = false;

  constructor(
    private readonly httpUrl: string,
    private readonly scoreThreshold: number,
    private readonly onOutcome: (o: Outcome) => void,
  ) {}

  send(id: number, jpeg: Uint8Array): void {
    if (this.closed) return;
    if (!this.inFlight) {
      void this.post(id, jpeg);
      return;
    }
    // Latest frame wins, as on the WebSocket frame stream.
    if (this.waiting !== undefined) this.onOutcome({ kind: 'dropped', id: this.waiting.id });
    this.waiting = { id, jpeg };
  }

  close(): void {
    this.closed = true;
    if (this.waiting !== undefined) this.onOutcome({ kind: 'dropped', id: this.waiting.id });
    this.waiting = undefined;
  }

  private async post(id: number, jpeg: Uint8Array): Promise<void> {
    this.inFlight = true;
    try {
      const res = await fetch(`${this.httpUrl}/v2/models/${MODEL}/image?score_threshold=${this.scoreThreshold}`, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body: new Blob([jpeg as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }),
      });
      const body = (await res.json()) as ImageAnswer & { error?: string; code?: string };
      if (!res.ok) {
        this.onOutcome({ kind: 'error', id, code: body.code ?? String(res.status), message: body.error ?? res.statusText });
      } else {
        const detections = body.detections.map((d) => ({ box: d.box, classId: d.class_id, label: d.label ?? String(d.class_id), score: d.score }));
        this.onOutcome({ kind: 'result', id, detections, ...(body.timing === undefined ? {} : { serverUs: body.timing }) });
      }
    } catch (err) {
      this.onOutcome({ kind: 'error', id, code: 'NETWORK', message: err instanceof Error ? err.message : String(err) });
    } finally {
      this.inFlight = false;
      const next = this.waiting;
      this.waiting = undefined;
      if (next !== undefined && !this.closed) void this.post(next.id, next.jpeg);
    }
  }
}
