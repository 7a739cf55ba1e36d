import { cpus, hostname, loadavg, release, totalmem, type as osType } from 'node:os';
import { RTSERVE_VERSION } from '../util/version.ts';
import type { MachineInfo, ReportHeader } from './types.ts';

/** What the numbers were measured on: every results file states it. */
export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    hostname: hostname(),
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    loadAvg1: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

/** A short file-name-safe machine label: `<cores>c-<cpu words>`, e.g. `2c-amd-epyc-7b13`. */
export function machineLabel(info: MachineInfo = machineInfo()): string {
  const cpu = info.cpu
    .toLowerCase()
    .replace(/\(r\)|\(tm\)|cpu|processor|@.*$|\d+-core/g, ' ')
    .trim()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .slice(0, 4)
    .join('-');
  return `${info.cores}c-${cpu || 'cpu'}`;
}

/** A report's header, dated now; `machine` was taken when the run started (its load average then). */
export function reportHeader(
  machine: MachineInfo,
  run: { readonly command?: string | undefined; readonly model: string; readonly version?: string | undefined; readonly url?: string | undefined },
): ReportHeader {
  return {
    tool: 'rtserve bench',
    version: RTSERVE_VERSION,
    date: new Date().toISOString(),
    command: run.command ?? '',
    machine,
    model: run.model,
    ...(run.version === undefined ? {} : { modelVersion: run.version }),
    ...(run.url === undefined ? {} : { url: run.url }),
  };
}
