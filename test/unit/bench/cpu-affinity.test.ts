import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { cpusOf, parseCpuList, pinProcess } from '../../../src/bench/cpu-affinity.ts';

describe('CPU lists', () => {
  test('single CPUs, ranges and both, in order, each once', () => {
    assert.deepEqual(parseCpuList('0'), [0]);
    assert.deepEqual(parseCpuList('0,1'), [0, 1]);
    assert.deepEqual(parseCpuList('2-5'), [2, 3, 4, 5]);
    assert.deepEqual(parseCpuList('0,4-6, 5'), [0, 4, 5, 6]);
  });

  test('anything else is refused with the part that is wrong', () => {
    assert.throws(() => parseCpuList('a'), /'a' is not a CPU number/);
    assert.throws(() => parseCpuList('1,,2'), /'' is not a CPU number/);
    assert.throws(() => parseCpuList('5-2'), /range '5-2' runs backwards/);
  });
});

const taskset = process.platform === 'linux' && ['/usr/bin/taskset', '/bin/taskset'].some((p) => existsSync(p));

describe('pinning a process with taskset', { skip: !taskset }, () => {
  test('a child pinned to CPU 0 reports CPU 0, threads included; an impossible CPU is an error naming it', async () => {
    const child = spawn(process.execPath, ['-e', 'console.log("up"); setTimeout(() => {}, 20000)'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      // Running JavaScript: Node has started its own threads by then.
      await new Promise((r) => child.stdout.once('data', r));
      const pid = child.pid as number;
      pinProcess('0', pid);
      assert.equal(cpusOf(pid), '0');
      // Every thread Node had already started (V8 platform, libuv pool) moved too.
      const tasks = readdirSync(`/proc/${pid}/task`);
      assert.ok(tasks.length > 1, `threads: ${tasks.join(', ')}`);
      for (const tid of tasks) assert.match(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'), /^Cpus_allowed_list:\s+0$/m, `thread ${tid}`);
      assert.throws(() => pinProcess('4095', pid), /taskset could not pin process \d+ to CPUs 4095/);
      assert.equal(cpusOf(pid), '0');
    } finally {
      child.kill();
    }
  });
});
