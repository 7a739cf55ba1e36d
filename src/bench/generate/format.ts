/** The tables of `rtserve bench --generate`: terminal and markdown (format.ts's), and a CSV with one row per level. */
import { formatNumber, formatRate, formatUs, type Column } from '../format.ts';
import type { GenerateLevelResult } from './types.ts';

const perStream = (total: number | undefined, l: GenerateLevelResult): string =>
  total === undefined || l.streams === 0 ? '-' : formatNumber(total / l.streams, 1);

export const GENERATE_COLUMNS: readonly Column<GenerateLevelResult>[] = [
  { title: 'protocol', value: (l) => l.protocol, left: true },
  { title: 'streams', value: (l) => `c=${l.concurrency}`, left: true },
  { title: 'done', value: (l) => String(l.streams) },
  { title: 'errors', value: (l) => String(l.failed) },
  { title: 'prompt tok', value: (l) => perStream(l.promptTokens, l) },
  { title: 'output tok', value: (l) => perStream(l.completionTokens, l) },
  { title: 'tok/s total', value: (l) => formatRate(l.tokensPerSec) },
  { title: 'tok/s stream p50', value: (l) => formatRate(l.streamTokensPerSec.p50) },
  { title: 'TTFT p50', value: (l) => formatUs(l.ttft.p50Us) },
  { title: 'TTFT p90', value: (l) => formatUs(l.ttft.p90Us) },
  { title: 'TTFT p99', value: (l) => formatUs(l.ttft.p99Us) },
  { title: 'ITL p50', value: (l) => formatUs(l.interToken.p50Us) },
  { title: 'ITL p90', value: (l) => formatUs(l.interToken.p90Us) },
  { title: 'ITL p99', value: (l) => formatUs(l.interToken.p99Us) },
];

/** Header of the CSV; latencies in whole microseconds (as perf_analyzer's CSV), rates with one decimal. */
export const GENERATE_CSV_HEADER = [
  'Protocol',
  'Concurrency',
  'Streams',
  'Failed',
  'Prompt Tokens',
  'Output Tokens',
  'Output Tokens/Second',
  'Stream Tokens/Second avg',
  'Stream Tokens/Second p50',
  'Stream Tokens/Second p90',
  'Stream Tokens/Second p99',
  'TTFT avg',
  'TTFT p50',
  'TTFT p90',
  'TTFT p99',
  'ITL avg',
  'ITL p50',
  'ITL p90',
  'ITL p99',
];

export function generateCsv(levels: readonly GenerateLevelResult[]): string {
  const us = (v: number): string => (Number.isFinite(v) ? String(Math.round(v)) : '');
  const rate = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '');
  const rows = levels.map((l) =>
    [
      l.protocol,
      l.concurrency,
      l.streams,
      l.failed,
      l.promptTokens ?? '',
      l.completionTokens,
      rate(l.tokensPerSec),
      ...[l.streamTokensPerSec.avg, l.streamTokensPerSec.p50, l.streamTokensPerSec.p90, l.streamTokensPerSec.p99].map(rate),
      ...[l.ttft, l.interToken].flatMap((s) => [s.avgUs, s.p50Us, s.p90Us, s.p99Us].map(us)),
    ].join(','),
  );
  return `${[GENERATE_CSV_HEADER.join(','), ...rows].join('\n')}\n`;
}
