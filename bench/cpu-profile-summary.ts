/**
 * Where a V8 CPU profile (node --cpu-prof, e.g. `bench/foundation.ts --cpu-prof DIR` or `bench/profile-served.ts`)
 * spends its time: self time by function and by area (rtserve source folder, npm package, node internals, GC).
 *
 *   node --import tsx bench/cpu-profile-summary.ts FILE.cpuprofile [--top 30]
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The area a frame belongs to: `src/<folder>`, `npm:<package>`, `node:<module>`, or V8's own pseudo-frames. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg !== null) return `npm:${pkg[1]}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const src = /\/(src|bench|test)\/([^/]+)/.exec(url);
  if (src !== null) return `${src[1]}/${src[2]}`;
  return url;
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly byArea: readonly { name: string; ms: number }[];
  readonly byFunction: readonly { name: string; ms: number }[];
}

/**
 * Self time per function and area. `fromUs` / `toUs` keep only the samples taken in that span (V8 timestamps are
 * CLOCK_MONOTONIC microseconds on Linux, the clock of process.hrtime, so another process can mark the span).
 */
export function summarizeProfile(profile: CpuProfile, fromUs = Number.NEGATIVE_INFINITY, toUs = Number.POSITIVE_INFINITY): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t >= fromUs && t <= toUs) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (n === undefined) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    total += us;
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const short = url === '' ? '' : ` ${url.replace(/^.*\/(node_modules|src|bench|test)\//, '$1/')}:${lineNumber + 1}`;
    const key = `${functionName || '(anonymous)'}${short}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
  return { totalMs: total / 1000, byArea: sorted(areas), byFunction: sorted(fns) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
  const top = Number(values.top);
  for (const file of positionals) {
    const s = summarizeProfile(JSON.parse(await readFile(file, 'utf8')) as CpuProfile);
    const busy = s.byArea.filter((a) => a.name !== '(idle)').reduce((t, a) => t + a.ms, 0);
    console.log(`${file}: ${s.totalMs.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms not idle`);
    console.log('\nself time by area (share of non-idle time):');
    for (const a of s.byArea.slice(0, top))
      if (a.name !== '(idle)') console.log(`  ${((a.ms / busy) * 100).toFixed(1).padStart(5)}%  ${a.ms.toFixed(0).padStart(7)} ms  ${a.name}`);
    console.log('\nself time by function:');
    for (const f of s.byFunction.filter((x) => !x.name.startsWith('(idle)')).slice(0, top))
      console.log(`  ${((f.ms / busy) * 100).toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(7)} ms  ${f.name}`);
  }
}
