import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One sample of the Prometheus text format: name, labels, value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Samples of an exposition (comments skipped). promtool is the strict parser; this one serves assertions. */
export function parseSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (m === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1] ?? ''] = l[2] ?? '';
    out.push({ name: m[1] ?? '', labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample with this name whose labels include `labels`; undefined when none. */
export function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length > 1) throw new Error(`${hits.length} samples match ${name} ${JSON.stringify(labels)}`);
  return hits[0]?.value;
}

/** Family names declared by `# TYPE` lines. */
export function familiesOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) out.set(m[1] ?? '', m[2] ?? '');
  return out;
}

export async function scrape(url: string): Promise<string> {
  const r = await fetch(url);
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  return r.text();
}

export { needTool } from '../../helpers/tools.ts';

/** A free loopback port (bound and released; the caller binds it right away). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value other than undefined, up to `timeoutMs`; throws with `what` after. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
