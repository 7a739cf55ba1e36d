/**
 * CPU time of another process (user + system, every thread), from /proc/<pid>/stat on Linux. On a shared machine
 * wall-clock latencies swing with everything else running; the CPU time a server spends per request does not, so
 * the benchmarks report both.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times (USER_HZ); 100 on every mainstream Linux build. */
const USER_HZ = 100;

/** Microseconds of CPU the process (or one of its threads) has used so far; undefined where /proc is missing. */
export function processCpuUs(pid: number, tid?: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime and
  // stime are fields 14 and 15 of the whole line (proc(5)), i.e. 12th and 13th after the name.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return ((utime + stime) * 1e6) / USER_HZ;
}

/** This process's CPU time in µs (user + system, all threads). */
export function ownCpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * CPU µs of every thread of a process, summed by thread name (/proc/<pid>/task/<tid>/comm), or one entry per thread
 * (`name [tid]`) with `byThread`: Node's engine worker, onnxruntime's pool threads and libuv's all read "node".
 */
export function threadCpuUs(pid: number, options: { readonly byThread?: boolean } = {}): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    const us = processCpuUs(pid, Number(tid));
    if (us === undefined) continue;
    const label = Number(tid) === pid ? `${name} (main)` : options.byThread === true ? `${name} [${tid}]` : name;
    out.set(label, (out.get(label) ?? 0) + us);
  }
  return out;
}

/**
 * Context switches of every thread of a process (/proc/<pid>/task/<tid>/status: voluntary = the thread went to sleep,
 * nonvoluntary = it was preempted), keyed like `threadCpuUs(pid, { byThread: true })`. Each voluntary switch is a
 * sleep and a later wake-up, which costs far more CPU than most per-request code on a virtual machine.
 */
export function threadSwitches(pid: number): Map<string, { voluntary: number; nonvoluntary: number }> {
  const out = new Map<string, { voluntary: number; nonvoluntary: number }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
    } catch {
      continue;
    }
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
    const name = /^Name:\s*(.*)$/m.exec(status)?.[1]?.trim() ?? '?';
    const label = Number(tid) === pid ? `${name} (main)` : `${name} [${tid}]`;
    out.set(label, { voluntary: field('voluntary_ctxt_switches'), nonvoluntary: field('nonvoluntary_ctxt_switches') });
  }
  return out;
}
