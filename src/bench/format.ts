/** Number formatting shared by the terminal table, the markdown tables and the HTML report. */
import { computeUs } from './server-stats.ts';
import type { LevelResult, LoadMode } from './types.ts';

/** `c=8` for a concurrency, `r=500/s` for a request rate. */
export function describeLoad(mode: LoadMode): string {
  return mode.kind === 'concurrency' ? `c=${mode.concurrency}` : `r=${mode.requestsPerSec}/s${mode.distribution === 'poisson' ? ' poisson' : ''}`;
}

/** A latency in µs as `850 µs` or `12.3 ms`; '-' when unknown. */
export function formatUs(us: number | undefined): string {
  if (us === undefined || !Number.isFinite(us)) return '-';
  if (Math.abs(us) < 1000) return `${Math.round(us)} µs`;
  if (Math.abs(us) < 100_000) return `${(us / 1000).toFixed(2)} ms`;
  return `${(us / 1000).toFixed(0)} ms`;
}

/** A rate with sensible precision. */
export function formatRate(perSec: number): string {
  if (!Number.isFinite(perSec)) return '-';
  if (perSec >= 100) return Math.round(perSec).toLocaleString('en-US');
  return perSec.toFixed(1);
}

export function formatNumber(n: number | undefined, digits = 1): string {
  return n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits);
}

/** A JSON.stringify replacer for results files: one decimal (µs, infer/s); the noise is far larger, and the files stay small. */
export function roundNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 10) / 10 : value;
}

/** A column of a results table: rows are load levels (LevelResult by default; `rtserve bench --generate` has its own). */
export interface Column<T = LevelResult> {
  readonly title: string;
  readonly value: (l: T) => string;
  readonly left?: boolean;
}

/** The columns of the results table (terminal and markdown alike). */
export const COLUMNS: readonly Column[] = [
  { title: 'protocol', value: (l) => l.protocol, left: true },
  { title: 'batch', value: (l) => String(l.batch) },
  { title: 'load', value: (l) => describeLoad(l.mode), left: true },
  { title: 'infer/s', value: (l) => formatRate(l.merged.inferencesPerSec) },
  { title: 'p50', value: (l) => formatUs(l.merged.latency.p50Us) },
  { title: 'p90', value: (l) => formatUs(l.merged.latency.p90Us) },
  { title: 'p95', value: (l) => formatUs(l.merged.latency.p95Us) },
  { title: 'p99', value: (l) => formatUs(l.merged.latency.p99Us) },
  { title: 'avg', value: (l) => formatUs(l.merged.latency.avgUs) },
  { title: 'errors', value: (l) => String(l.errors.reduce((s, e) => s + e.count, 0)) },
  { title: 'stable', value: (l) => (l.stable ? 'yes' : 'NO') },
  { title: 'srv batch', value: (l) => formatNumber(l.merged.server?.avgBatchSize, 2) },
  { title: 'srv queue', value: (l) => formatUs(l.merged.server?.queueUs) },
  { title: 'srv compute', value: (l) => (l.merged.server === undefined ? '-' : formatUs(computeUs(l.merged.server))) },
  { title: 'srv overhead', value: (l) => formatUs(l.merged.server?.overheadUs) },
  { title: 'outside core', value: (l) => formatUs(l.outsideCoreUs) },
];

/** A plain-text table, columns padded, numbers right-aligned. */
export function textTable(levels: readonly LevelResult[]): string;
export function textTable<T>(levels: readonly T[], columns: readonly Column<T>[]): string;
export function textTable(levels: readonly unknown[], columns: readonly Column<never>[] = COLUMNS): string {
  const rows = levels.map((l) => columns.map((c) => c.value(l as never)));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (columns[i]?.left === true ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A GitHub-flavoured markdown table. */
export function markdownTable(levels: readonly LevelResult[]): string;
export function markdownTable<T>(levels: readonly T[], columns: readonly Column<T>[]): string;
export function markdownTable(levels: readonly unknown[], columns: readonly Column<never>[] = COLUMNS): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const head = `| ${columns.map((c) => esc(c.title)).join(' | ')} |`;
  const sep = `|${columns.map((c) => (c.left === true ? ' --- ' : ' ---: ')).join('|')}|`;
  const rows = levels.map((l) => `| ${columns.map((c) => esc(c.value(l as never))).join(' | ')} |`);
  return [head, sep, ...rows].join('\n');
}
