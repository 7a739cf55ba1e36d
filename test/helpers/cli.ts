/**
 * The real `rtserve serve` in its own process, for the tests that need a process (signals, drain, config reload):
 * spawned from `bin/rtserve.js` (what `npx rtserve` runs) or from the sources through tsx, resolved on the one
 * "rtserve ready ..." line it prints.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/package-root.ts';

export const CLI_FROM_BIN: readonly string[] = [join(packageRoot(), 'bin', 'rtserve.js')];
export const CLI_FROM_SOURCES: readonly string[] = ['--import', 'tsx', join(packageRoot(), 'src', 'cli', 'main.ts')];

/** `serve` flags for a repository with every port free (0), followed by `extra`. */
export function repositoryArgs(repositoryDir: string, ...extra: string[]): string[] {
  return ['--model-repository', repositoryDir, '--http-port', '0', '--grpc-port', '0', '--metrics-port', '0', ...extra];
}

export interface CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** `http`, `grpc`, `metrics` addresses from the ready line. */
  readonly urls: Record<string, string>;
  readonly exited: Promise<number | null>;
  /** The last 8,000 characters the process wrote to stderr. */
  readonly stderr: () => string;
}

/** Whether any process of the group led by `pid` is still running (a `detached` CLI and what it started). */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startCli(
  entry: readonly string[],
  args: readonly string[],
  options: {
    readonly env?: NodeJS.ProcessEnv;
    readonly timeoutMs?: number;
    readonly command?: string;
    readonly cwd?: string;
    readonly detached?: boolean;
  } = {},
): Promise<CliProcess> {
  // `command` (default: this node) runs `entry`; e.g. command 'npx', entry ['rtserve'] in an installed project.
  // `detached`: in a process group of its own, so a signal can reach the whole group as Ctrl-C does.
  const child = spawn(options.command ?? process.execPath, [...entry, 'serve', ...args], {
    cwd: options.cwd ?? packageRoot(),
    env: options.env ?? process.env,
    ...(options.detached === true ? { detached: true } : {}),
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-8000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr: ${err}`)), options.timeoutMs ?? 90_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${String(code)}: ${err}`));
    });
  });
  assert.match(line, /^rtserve ready /);
  const urls = Object.fromEntries(
    line
      .replace(/^rtserve ready /, '')
      .split(' ')
      .map((kv) => kv.split('=') as [string, string]),
  );
  return { child, urls, exited, stderr: () => err };
}

/**
 * A `serve` that is expected to exit by itself (a refused flag, a failed start): its exit code and stderr. One that
 * is still running after `timeoutMs` (it started when it should not have) is killed: status null, never a hang.
 */
export function serveToExit(
  entry: readonly string[],
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 60_000,
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, 'serve', ...args], { cwd: packageRoot(), env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

/**
 * `rtserve bench ARGS` from the sources, to its end. Asynchronous: a server under test in this process must keep
 * answering while the CLI runs.
 */
export function runBenchCli(args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_FROM_SOURCES, 'bench', ...args], { cwd: packageRoot(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
