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

/** Each live thread of a process: its id and its name (/proc/<pid>/task/<tid>/comm); nothing where /proc is missing. */
function threadsOf(pid: number): { tid: number; name: string }[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: { tid: number; name: string }[] = [];
  for (const tid of tids) {
    try {
      out.push({ tid: Number(tid), name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() });
    } catch {
      // The thread ended in between.
    }
  }
  return out;
}

/** `name (main)` for the process's main thread, `name [tid]` for the others. */
function threadLabel(pid: number, tid: number, name: string): string {
  return tid === pid ? `${name} (main)` : `${name} [${tid}]`;
}

/**
 * CPU µs of every thread of a process, summed by thread name, or one entry per thread (`name [tid]`) with
 * `byThread`: Node's engine worker, onnxruntime's pool threads and libuv's all read "node".
 */
export function threadCpuUs(pid: number, options: { readonly byThread?: boolean } = {}): Map<string, number> {
  const out = new Map<string, number>();
  for (const { tid, name } of threadsOf(pid)) {
    const us = processCpuUs(pid, tid);
    if (us === undefined) continue;
    const label = options.byThread === true || tid === pid ? threadLabel(pid, tid, name) : name;
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
  for (const { tid, name } of threadsOf(pid)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
    } catch {
      continue;
    }
    const field = (key: string): number => Number(new RegExp(`^${key}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
    out.set(threadLabel(pid, tid, name), { voluntary: field('voluntary_ctxt_switches'), nonvoluntary: field('nonvoluntary_ctxt_switches') });
  }
  return out;
}
