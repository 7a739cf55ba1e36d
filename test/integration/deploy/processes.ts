import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Starts a service the test needs (redis-server, nats-server, nginx, an rtserve replica) and resolves once a line of
 * its stdout or stderr matches `readyLine` (at once when undefined); rejects when it exits first.
 */
export function startProcess(cmd: string, args: string[], readyLine: RegExp | undefined, what: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    let ready = false;
    proc.once('error', reject);
    proc.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`${what} exited (${code ?? signal}) before it was ready: ${tail}`));
    });
    for (const stream of [proc.stdout, proc.stderr]) {
      createInterface({ input: stream as NodeJS.ReadableStream }).on('line', (line) => {
        tail = `${tail}${line}\n`.slice(-4000);
        if (process.env.RTSERVE_TEST_PROC_LOG === '1') process.stderr.write(`[${what}] ${line}\n`);
        if (!ready && readyLine?.test(line) === true) {
          ready = true;
          resolve(proc);
        }
      });
    }
    if (readyLine === undefined) {
      ready = true;
      resolve(proc);
    }
  });
}

/** Stops a process the test started and waits for it to exit. */
export function stopProcess(proc: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill(signal);
  });
}
