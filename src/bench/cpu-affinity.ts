/**
 * CPU pinning for benchmarks (Linux, util-linux `taskset`): the server on some cores, the load generator on others,
 * so a measurement of "the server on N cores" does not share those cores with the client that loads it.
 */
import { execFileSync } from 'node:child_process';
import { BenchError } from './errors.ts';

/** The CPUs a taskset list names ("0,1", "2-5", "0,4-6"), in order; throws on anything else. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (m === null) throw new BenchError(`CPU list '${list}': '${part}' is not a CPU number or a range like 2-5`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw new BenchError(`CPU list '${list}': range '${part}' runs backwards`);
    for (let c = from; c <= to; c++) if (!cpus.includes(c)) cpus.push(c);
  }
  return cpus;
}

/** Moves every thread of process `pid` (default: this one) onto `list`; threads it starts later inherit the mask. */
export function pinProcess(list: string, pid: number = process.pid): void {
  parseCpuList(list);
  try {
    execFileSync('taskset', ['--all-tasks', '--pid', '--cpu-list', list, String(pid)], { stdio: 'pipe' });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new BenchError(`taskset could not pin process ${pid} to CPUs ${list}: ${e.stderr?.toString().trim() || e.message}`);
  }
}

/** The CPUs process `pid` may run on now, as taskset reports them ("0,1"). */
export function cpusOf(pid: number = process.pid): string {
  const out = execFileSync('taskset', ['--pid', '--cpu-list', String(pid)], { encoding: 'utf8' });
  return out.slice(out.lastIndexOf(':') + 1).trim();
}
