import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { threadCpuUs, threadSwitches } from '../../../src/bench/process-cpu.ts';

// /proc is Linux's; the benchmarks that use these read another process, here this one.
const linux = process.platform === 'linux';

describe('per-thread CPU and context switches (/proc)', { skip: !linux }, () => {
  test('byThread lists each thread once, the main thread by its pid, the others by their thread id', () => {
    const threads = threadCpuUs(process.pid, { byThread: true });
    const main = [...threads.keys()].filter((k) => k.endsWith(' (main)'));
    assert.equal(main.length, 1, [...threads.keys()].join(', '));
    for (const [name, us] of threads) {
      assert.ok(name.endsWith(' (main)') || /\[\d+\]$/.test(name), name);
      assert.ok(Number.isFinite(us) && us >= 0, `${name}: ${us}`);
    }
    // Summed by name (the default), every thread's time is still counted once.
    const byName = threadCpuUs(process.pid);
    const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum(byName) - sum(threads)) <= 0.1 * sum(threads) + 20_000, `${sum(byName)} vs ${sum(threads)}`);
  });

  test('switches are keyed like byThread CPU times and count this thread going to sleep', async () => {
    const before = threadSwitches(process.pid);
    const mainKey = [...before.keys()].find((k) => k.endsWith(' (main)'));
    assert.ok(mainKey !== undefined);
    // Sleeping on a timer is a voluntary switch of the main thread.
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 5));
    const after = threadSwitches(process.pid);
    const b = before.get(mainKey);
    const a = after.get(mainKey);
    assert.ok(a !== undefined && b !== undefined);
    assert.ok(a.voluntary > b.voluntary, `voluntary ${b.voluntary} -> ${a.voluntary}`);
    assert.ok(a.nonvoluntary >= b.nonvoluntary);
    const cpuKeys = new Set(threadCpuUs(process.pid, { byThread: true }).keys());
    for (const k of after.keys()) if (!cpuKeys.has(k)) assert.fail(`${k} has switches but no CPU entry (a thread may have ended in between)`);
  });

  test('a process that does not exist gives empty maps', () => {
    assert.equal(threadCpuUs(2 ** 22 + 12345).size, 0);
    assert.equal(threadSwitches(2 ** 22 + 12345).size, 0);
  });
});
