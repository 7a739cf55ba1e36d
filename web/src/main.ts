/**
 * rtserve's live demo page (served at / by `rtserve serve`): frames stream to the `shapes` detector and come back
 * with boxes, drawn over the frame the model saw; a drawing pad feeds the `digits` classifier.
 *
 * Query parameters: transport=ws|rest (default: WebSocket when the server speaks it), fps=N, source=scene|camera,
 * seed=N (the test scene), threshold=0..1. The page's state is on `window.rtDemo` for tests and the curious.
 */
import { RtserveClient } from '../../src/client/index.ts';
import { drawFrame, matchTruth, type Detection } from './detections.ts';
import { DigitsPad, type DigitAnswer } from './digits-pad.ts';
import { CameraSource, encodeJpeg, SceneSource, type Frame, type FrameSource } from './frame-source.ts';
import { probeWebSocket, RestFrameSender, WsFrameSender, type FrameSender, type Outcome } from './senders.ts';

export interface DemoState {
  ready: boolean;
  transport: 'ws' | 'rest' | undefined;
  /** Why the page is not on WebSocket, when it is not. */
  fallbackReason: string | undefined;
  source: 'scene' | 'camera';
  sent: number;
  results: number;
  dropped: number;
  errors: number;
  lastError: string | undefined;
  lastRttMs: number | undefined;
  meanRttMs: number | undefined;
  resultsPerSec: number;
  /** Test scene only: true shapes in answered frames, those found (same class, IoU >= 0.5), extra boxes. */
  truthObjects: number;
  matchedObjects: number;
  falsePositives: number;
  lastResult: { id: number; detections: Detection[]; truth: { label: string; box: readonly number[] }[] | undefined } | undefined;
  digit: DigitAnswer | undefined;
}

declare global {
  interface Window {
    rtDemo: DemoState;
  }
}

const params = new URLSearchParams(location.search);
const origin = location.origin;
const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`missing #${id}`);
  return el as T;
};

const state: DemoState = {
  ready: false,
  transport: undefined,
  fallbackReason: undefined,
  source: params.get('source') === 'camera' ? 'camera' : 'scene',
  sent: 0,
  results: 0,
  dropped: 0,
  errors: 0,
  lastError: undefined,
  lastRttMs: undefined,
  meanRttMs: undefined,
  resultsPerSec: 0,
  truthObjects: 0,
  matchedObjects: 0,
  falsePositives: 0,
  lastResult: undefined,
  digit: undefined,
};
window.rtDemo = state;

const view = $<HTMLCanvasElement>('view');
const scratch = document.createElement('canvas');
const inFlight = new Map<number, { frame: Frame; sentAt: number }>();
const resultTimes: number[] = [];
const rtts: number[] = [];
let sender: FrameSender | undefined;
let source: FrameSource = new SceneSource(Number(params.get('seed') ?? 2));
let nextId = 1;
let paused = false;

function showError(message: string | undefined): void {
  $('error').textContent = message ?? '';
}

function render(): void {
  const now = performance.now();
  while (resultTimes.length > 0 && (resultTimes[0] ?? 0) < now - 1000) resultTimes.shift();
  state.resultsPerSec = resultTimes.length;
  $('s-transport').textContent = state.transport === undefined ? '…' : state.transport === 'ws' ? 'WebSocket frame stream' : 'REST /image';
  $('s-transport').title = state.fallbackReason ?? '';
  $('s-fps').textContent = String(state.resultsPerSec);
  $('s-rtt').textContent = state.lastRttMs === undefined ? '–' : `${state.lastRttMs.toFixed(0)} ms (mean ${state.meanRttMs?.toFixed(0)})`;
  $('s-sent').textContent = String(state.sent);
  $('s-dropped').textContent = String(state.dropped);
  $('s-errors').textContent = String(state.errors);
  $('s-match').textContent =
    state.source === 'scene' && state.truthObjects > 0
      ? `${((100 * state.matchedObjects) / state.truthObjects).toFixed(1)} % (${state.falsePositives} extra)`
      : '–';
}

function onOutcome(o: Outcome): void {
  const entry = inFlight.get(o.id);
  inFlight.delete(o.id);
  if (o.kind === 'dropped') {
    state.dropped++;
    entry?.frame.bitmap.close();
  } else if (o.kind === 'error') {
    state.errors++;
    state.lastError = `${o.code}: ${o.message}`;
    entry?.frame.bitmap.close();
    // The server's WebSocket front end may not take encoded images: go on over REST, saying why.
    if (state.transport === 'ws' && state.results === 0) void switchTo('rest', `WebSocket frames failed (${state.lastError})`);
    else showError(state.lastError);
  } else if (entry !== undefined) {
    const now = performance.now();
    state.results++;
    resultTimes.push(now);
    const rtt = now - entry.sentAt;
    rtts.push(rtt);
    if (rtts.length > 30) rtts.shift();
    state.lastRttMs = rtt;
    state.meanRttMs = rtts.reduce((s, v) => s + v, 0) / rtts.length;
    const truth = entry.frame.truth;
    if (truth !== undefined) {
      const m = matchTruth(truth, o.detections);
      state.truthObjects += truth.length;
      state.matchedObjects += m.matched;
      state.falsePositives += m.falsePositives;
    }
    state.lastResult = { id: o.id, detections: o.detections, truth: truth?.map((t) => ({ label: t.label, box: t.box })) };
    drawFrame(view, entry.frame.bitmap, o.detections, truth);
    entry.frame.bitmap.close();
    showError(undefined);
  }
  render();
}

async function switchTo(kind: 'ws' | 'rest', reason?: string): Promise<void> {
  sender?.close();
  for (const { frame } of inFlight.values()) frame.bitmap.close();
  inFlight.clear();
  const threshold = Number($<HTMLInputElement>('threshold').value) || 0.3;
  sender = kind === 'ws' ? new WsFrameSender(origin, threshold, onOutcome) : new RestFrameSender(origin, threshold, onOutcome);
  state.transport = kind;
  if (reason !== undefined) state.fallbackReason = reason;
  render();
}

async function tick(): Promise<void> {
  if (paused || sender === undefined) return;
  const frame = await source.capture(scratch);
  const jpeg = await encodeJpeg(scratch);
  const id = nextId++;
  inFlight.set(id, { frame, sentAt: performance.now() });
  state.sent++;
  sender.send(id, jpeg);
}

async function loop(): Promise<void> {
  for (;;) {
    const started = performance.now();
    try {
      await tick();
    } catch (err) {
      showError(err instanceof Error ? err.message : String(err));
    }
    const fps = Math.min(60, Math.max(1, Number($<HTMLInputElement>('fps').value) || 15));
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 / fps - (performance.now() - started))));
  }
}

async function chooseSource(kind: 'scene' | 'camera'): Promise<void> {
  source.stop();
  $('source-note').textContent = '';
  if (kind === 'camera') {
    const cam = await CameraSource.open();
    if (typeof cam === 'string') {
      $('source-note').textContent = `${cam} — showing the test scene instead.`;
      $<HTMLSelectElement>('source').value = 'scene';
      kind = 'scene';
    } else {
      source = cam;
    }
  }
  if (kind === 'scene') source = new SceneSource(Number(params.get('seed') ?? 2));
  state.source = kind;
  state.truthObjects = 0;
  state.matchedObjects = 0;
  state.falsePositives = 0;
}

async function main(): Promise<void> {
  const fps = params.get('fps');
  if (fps !== null) $<HTMLInputElement>('fps').value = fps;
  const threshold = params.get('threshold');
  if (threshold !== null) $<HTMLInputElement>('threshold').value = threshold;
  $<HTMLSelectElement>('source').value = state.source;
  await chooseSource(state.source);

  const wanted = params.get('transport');
  if (wanted === 'rest') {
    await switchTo('rest', 'transport=rest in the address');
  } else {
    const problem = await probeWebSocket(origin);
    if (problem === undefined) await switchTo('ws');
    else await switchTo('rest', `WebSocket unavailable: ${problem}`);
  }

  $<HTMLSelectElement>('source').addEventListener(
    'change',
    (e) => void chooseSource((e.target as HTMLSelectElement).value === 'camera' ? 'camera' : 'scene'),
  );
  $<HTMLInputElement>('threshold').addEventListener('change', () => void switchTo(state.transport ?? 'rest'));
  $<HTMLButtonElement>('toggle').addEventListener('click', (e) => {
    paused = !paused;
    (e.target as HTMLButtonElement).textContent = paused ? 'Resume' : 'Pause';
  });

  const client = new RtserveClient({ url: origin });
  const result = $<HTMLOListElement>('digit-result');
  const pad = new DigitsPad($<HTMLCanvasElement>('pad'), client, (answer, error) => {
    state.digit = answer;
    result.replaceChildren(
      ...(answer?.classes ?? []).map((c) => {
        const li = document.createElement('li');
        const b = document.createElement('b');
        b.textContent = c.label;
        const bar = document.createElement('span');
        bar.className = 'bar';
        const fill = document.createElement('i');
        fill.style.width = `${(c.score * 100).toFixed(1)}%`;
        bar.append(fill);
        const pct = document.createElement('span');
        pct.textContent = `${(c.score * 100).toFixed(1)} %`;
        li.append(b, bar, pct);
        return li;
      }),
    );
    if (error !== undefined) showError(`digits: ${error}`);
  });
  $<HTMLButtonElement>('clear').addEventListener('click', () => pad.clear());

  state.ready = true;
  render();
  void loop();
}

void main().catch((err: unknown) => showError(err instanceof Error ? err.message : String(err)));
