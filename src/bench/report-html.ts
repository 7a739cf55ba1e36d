/**
 * The HTML report of a benchmark run: one self-contained file (inline SVG charts, inline CSS, no script), so it
 * opens from disk or as a CI artifact without a server.
 *  - Latency vs throughput per batch size: one curve per protocol (p50 solid, p99 dashed), one point per load level.
 *  - Where the time goes: per served level, the client-observed average latency split into the server's queue,
 *    compute (input, infer, output), core overhead, and what lies outside the core (HTTP stacks, codec, network).
 *  - The results table, warnings and errors, the machine and the command.
 */
import { COLUMNS, describeLoad, formatRate, formatUs } from './format.ts';
import type { BenchReport, LevelResult } from './types.ts';

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Round tick values covering [0, max]: steps of 1, 2 or 5 × 10^k. */
export function niceTicks(max: number, target = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if ((ticks[ticks.length - 1] as number) < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

interface Series {
  readonly name: string;
  readonly color: string;
  readonly dashed: boolean;
  readonly points: readonly { x: number; y: number; label: string }[];
}

function tickLabel(v: number): string {
  if (v >= 10_000) return `${Math.round(v / 1000)}k`;
  if (v >= 1000) return `${(v / 1000).toFixed(1)}k`;
  return String(v);
}

/** An XY line chart as an SVG string. */
export function lineChartSvg(title: string, xLabel: string, yLabel: string, series: readonly Series[]): string {
  const W = 720;
  const H = 380;
  const m = { left: 64, right: 190, top: 34, bottom: 48 };
  const pw = W - m.left - m.right;
  const ph = H - m.top - m.bottom;
  const all = series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  const xt = niceTicks(Math.max(0, ...all.map((p) => p.x)));
  const yt = niceTicks(Math.max(0, ...all.map((p) => p.y)));
  const xMax = xt[xt.length - 1] as number;
  const yMax = yt[yt.length - 1] as number;
  const sx = (x: number): number => m.left + (x / xMax) * pw;
  const sy = (y: number): number => m.top + ph - (y / yMax) * ph;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(title)}">`,
  );
  out.push(`<text x="${m.left}" y="20" class="title">${escapeHtml(title)}</text>`);
  for (const v of xt) {
    out.push(`<line x1="${sx(v)}" y1="${m.top}" x2="${sx(v)}" y2="${m.top + ph}" class="grid"/>`);
    out.push(`<text x="${sx(v)}" y="${m.top + ph + 16}" text-anchor="middle" class="tick">${tickLabel(v)}</text>`);
  }
  for (const v of yt) {
    out.push(`<line x1="${m.left}" y1="${sy(v)}" x2="${m.left + pw}" y2="${sy(v)}" class="grid"/>`);
    out.push(`<text x="${m.left - 6}" y="${sy(v) + 4}" text-anchor="end" class="tick">${tickLabel(v)}</text>`);
  }
  out.push(`<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" class="frame"/>`);
  out.push(`<text x="${m.left + pw / 2}" y="${H - 10}" text-anchor="middle" class="axis">${escapeHtml(xLabel)}</text>`);
  out.push(`<text transform="translate(16 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle" class="axis">${escapeHtml(yLabel)}</text>`);
  series.forEach((s, i) => {
    const pts = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    if (pts.length > 1) {
      const d = pts.map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    }
    for (const p of pts) {
      out.push(
        `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3.5" fill="${s.dashed ? 'white' : s.color}" stroke="${s.color}" stroke-width="1.5"><title>${escapeHtml(`${s.name} ${p.label}: ${formatRate(p.x)} infer/s, ${p.y.toFixed(3)} ms`)}</title></circle>`,
      );
    }
    const ly = m.top + 8 + i * 18;
    const lx = m.left + pw + 14;
    out.push(
      `<line x1="${lx}" y1="${ly}" x2="${lx + 24}" y2="${ly}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
    );
    out.push(`<text x="${lx + 30}" y="${ly + 4}" class="legend">${escapeHtml(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

const SEGMENTS = [
  { name: 'queue', color: '#ff7f0e' },
  { name: 'compute input', color: '#9edae5' },
  { name: 'compute infer', color: '#1f77b4' },
  { name: 'compute output', color: '#aec7e8' },
  { name: 'core overhead', color: '#d62728' },
  { name: 'outside core', color: '#7f7f7f' },
] as const;

/** Horizontal stacked bars: where the average request's time goes, per served level. */
export function breakdownSvg(levels: readonly LevelResult[]): string {
  const rows = levels.filter((l) => l.merged.server !== undefined && l.merged.server.requests > 0 && l.outsideCoreUs !== undefined);
  if (rows.length === 0) return '';
  const W = 720;
  const rowH = 22;
  const m = { left: 170, right: 20, top: 40, bottom: 40 };
  const H = m.top + rows.length * rowH + m.bottom;
  const pw = W - m.left - m.right;
  const totals = rows.map((l) => l.merged.latency.avgUs);
  const ticks = niceTicks(Math.max(...totals) / 1000);
  const max = (ticks[ticks.length - 1] as number) * 1000;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="latency breakdown">`,
  ];
  out.push(`<text x="${m.left}" y="18" class="title">Where the average request's time goes (ms)</text>`);
  SEGMENTS.forEach((s, i) => {
    const x = m.left + i * 90;
    out.push(`<rect x="${x}" y="26" width="10" height="10" fill="${s.color}"/><text x="${x + 14}" y="35" class="legend">${s.name}</text>`);
  });
  for (const v of ticks) {
    const x = m.left + ((v * 1000) / max) * pw;
    out.push(
      `<line x1="${x}" y1="${m.top + 8}" x2="${x}" y2="${H - m.bottom + 4}" class="grid"/><text x="${x}" y="${H - m.bottom + 18}" text-anchor="middle" class="tick">${v}</text>`,
    );
  }
  rows.forEach((l, i) => {
    const s = l.merged.server;
    if (s === undefined) return;
    const y = m.top + 10 + i * rowH;
    out.push(
      `<text x="${m.left - 6}" y="${y + 13}" text-anchor="end" class="tick">${escapeHtml(`${l.protocol} b=${l.batch} ${describeLoad(l.mode)}`)}</text>`,
    );
    const parts = [s.queueUs, s.computeInputUs, s.computeInferUs, s.computeOutputUs, Math.max(0, s.overheadUs), Math.max(0, l.outsideCoreUs ?? 0)];
    let x = m.left;
    parts.forEach((us, k) => {
      const w = (Math.max(0, us) / max) * pw;
      const seg = SEGMENTS[k] as (typeof SEGMENTS)[number];
      out.push(
        `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 6}" fill="${seg.color}"><title>${seg.name}: ${formatUs(us)}</title></rect>`,
      );
      x += w;
    });
  });
  out.push('</svg>');
  return out.join('\n');
}

function chartsFor(report: BenchReport): string[] {
  const batches = [...new Set(report.levels.map((l) => l.batch))].sort((a, b) => a - b);
  const protocols = [...new Set(report.levels.map((l) => l.protocol))];
  return batches.map((batch) => {
    const series: Series[] = [];
    protocols.forEach((protocol, i) => {
      const levels = report.levels.filter((l) => l.batch === batch && l.protocol === protocol);
      if (levels.length === 0) return;
      const color = PALETTE[i % PALETTE.length] as string;
      const pts = (pick: (l: LevelResult) => number) =>
        levels.map((l) => ({ x: l.merged.inferencesPerSec, y: pick(l) / 1000, label: describeLoad(l.mode) }));
      series.push({ name: `${protocol} p50`, color, dashed: false, points: pts((l) => l.merged.latency.p50Us) });
      series.push({ name: `${protocol} p99`, color, dashed: true, points: pts((l) => l.merged.latency.p99Us) });
    });
    return lineChartSvg(`${report.model}, batch ${batch}: latency vs throughput`, 'throughput (inferences/s)', 'latency (ms)', series);
  });
}

export function renderHtmlReport(report: BenchReport): string {
  const m = report.machine;
  const rows = report.levels
    .map((l) => `<tr>${COLUMNS.map((c) => `<td class="${c.left === true ? 'l' : 'r'}">${escapeHtml(c.value(l))}</td>`).join('')}</tr>`)
    .join('\n');
  const notes = report.levels.flatMap((l) => [
    ...l.warnings.map((w) => `<li class="warn">${escapeHtml(`${l.protocol} b=${l.batch} ${describeLoad(l.mode)}: ${w}`)}</li>`),
    ...l.errors.map((e) => `<li class="err">${escapeHtml(`${l.protocol} b=${l.batch} ${describeLoad(l.mode)}: ${e.count} × ${e.message}`)}</li>`),
  ]);
  const totals = Object.entries(report.totals)
    .map(([p, t]) => `${escapeHtml(p)}: ${t.sent} sent, ${t.succeeded} ok, ${t.failed} failed`)
    .join('; ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rtserve bench: ${escapeHtml(report.model)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1200px; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
table { border-collapse: collapse; font-size: 12px; } td, th { padding: 3px 8px; border-bottom: 1px solid #ddd; white-space: nowrap; }
th { background: #f4f4f4; } td.r { text-align: right; font-variant-numeric: tabular-nums; }
code { background: #f4f4f4; padding: 1px 4px; } .warn { color: #a60; } .err { color: #b00; }
svg { display: block; margin: 8px 0 16px; max-width: 100%; height: auto; }
svg .title { font: bold 14px system-ui, sans-serif; } svg .tick { font: 11px system-ui, sans-serif; fill: #555; }
svg .axis, svg .legend { font: 12px system-ui, sans-serif; fill: #333; } svg .grid { stroke: #eee; } svg .frame { fill: none; stroke: #999; }
</style></head><body>
<h1>rtserve bench: ${escapeHtml(report.model)}${report.modelVersion === undefined ? '' : ` v${escapeHtml(report.modelVersion)}`}</h1>
<p>${escapeHtml(report.date)} · ${escapeHtml(`${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, load ${m.loadAvg1}`)}<br>
<code>${escapeHtml(report.command)}</code><br>
Windows: ${report.measure.window.kind === 'time' ? `${report.measure.window.durationMs} ms` : `${report.measure.window.requests} requests`}, warm-up ${report.measure.warmupMs} ms,
stable when the last ${report.measure.stabilityWindows} windows are within ${report.measure.stabilityPercent}% (throughput and ${report.measure.stabilityPercentile === undefined ? 'average' : `p${report.measure.stabilityPercentile}`} latency), at most ${report.measure.maxTrials} windows.</p>
<h2>Latency vs throughput</h2>
${chartsFor(report).join('\n')}
${report.levels.some((l) => l.merged.server !== undefined) ? `<h2>Latency breakdown</h2>\n${breakdownSvg(report.levels)}` : ''}
<h2>Results</h2>
<table><thead><tr>${COLUMNS.map((c) => `<th>${escapeHtml(c.title)}</th>`).join('')}</tr></thead><tbody>
${rows}
</tbody></table>
<p>Requests: ${totals}${report.serverTotals === undefined ? '' : `. The server counted ${report.serverTotals.requests} successful and ${report.serverTotals.failures} failed requests over the run.`}</p>
${notes.length > 0 ? `<h2>Warnings and errors</h2><ul>${notes.join('\n')}</ul>` : ''}
<p>Latencies are client-observed (send to fully decoded response) over the merged stable windows. <i>srv</i> columns come from the
server's statistics extension (deltas over the same windows): batch = inference_count / execution_count, compute = input + infer + output,
overhead = request − queue − compute. <i>outside core</i> = client average − server request time (HTTP stacks, codec, network).</p>
</body></html>
`;
}
