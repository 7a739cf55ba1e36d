/**
 * Runs `rtserve serve` in a child process for benchmarks, so the load generator does not share an event loop (or a
 * thread) with the server it measures. Runs the TypeScript sources through tsx, or the compiled CLI when asked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.ts';
import { BenchError } from './errors.ts';

export interface ServerProcessOptions {
  /** Extra `rtserve serve` flags (e.g. --model-repository DIR). Ports default to 0 (free ports). */
  readonly args?: readonly string[];
  /** Write a V8 CPU profile of the server into this folder when it exits (node --cpu-prof). */
  readonly cpuProfDir?: string;
  /** More Node flags for the server process only (e.g. from a BENCH_SERVER_NODE_ARGS variable). */
  readonly nodeArgs?: readonly string[];
  /**
   * Run the compiled dist/src/cli/main.js (after `npm run build`) instead of the sources through tsx. Off by
   * default: a stale dist/ would measure old code. Both run the same JavaScript once loaded.
   */
  readonly useDist?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** How long to wait for "rtserve ready" (ms). */
  readonly startTimeoutMs?: number;
  /**
   * Linux: run the server on these CPUs only (a taskset list such as "0,1" or "0-3"); its threads, the engine
   * workers' and onnxruntime's included, inherit the mask. For measuring the server on dedicated cores with the load
   * generator on others.
   */
  readonly cpus?: string;
}

export interface ServerProcess {
  readonly httpUrl: string;
  readonly grpcAddress?: string;
  readonly metricsUrl?: string;
  readonly pid: number;
  /** How the server was started, for the results file. */
  readonly commandLine: string;
  /** SIGTERM (graceful drain), then waits for the exit; SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
}

export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const root = packageRoot();
  const dist = join(root, 'dist', 'src', 'cli', 'main.js');
  if (options.useDist === true && !existsSync(dist)) throw new BenchError(`${dist} does not exist: run npm run build first`);
  const useDist = options.useDist === true;
  // A Node that runs TypeScript itself (22.18+, or with --experimental-transform-types, as on the GPU machine
  // where tsx is not carried) takes the sources as they are.
  const nativeTs = (process.features as { typescript?: string | false }).typescript;
  const source = join(root, 'src', 'cli', 'main.ts');
  const entry = useDist ? [dist] : nativeTs === 'transform' ? [source] : ['--import', 'tsx', source];
  const prof = options.cpuProfDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir];
  const args = [
    ...(options.nodeArgs ?? []),
    ...prof,
    ...entry,
    'serve',
    '--http-port',
    '0',
    '--grpc-port',
    '0',
    '--metrics-port',
    '0',
    '--log-level',
    'warn',
    // One process, so results stay comparable across machines; `args` may ask for front-end workers (docs/workers.md).
    '--workers',
    '1',
    ...(options.args ?? []),
  ];
  const [file, argv] = options.cpus === undefined ? [process.execPath, args] : ['taskset', ['-c', options.cpus, process.execPath, ...args]];
  const child: ChildProcess = spawn(file, argv, {
    cwd: root,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const commandLine = `${options.cpus === undefined ? '' : `taskset -c ${options.cpus} `}node ${args.map((a) => (a.startsWith(root) ? a.slice(root.length + 1) : a)).join(' ')}`;
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const ready = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new BenchError(`rtserve serve did not report ready within ${options.startTimeoutMs ?? 60_000} ms; stderr: ${stderr}`));
    }, options.startTimeoutMs ?? 60_000);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('rtserve ready'));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new BenchError(`rtserve serve exited (code ${code}) before it was ready; stderr: ${stderr}`));
    });
  });
  // Keep draining stdout so the child never blocks on a full pipe.
  child.stdout?.resume();

  const field = (name: string): string | undefined =>
    ready
      .split(/\s+/)
      .find((p) => p.startsWith(`${name}=`))
      ?.slice(name.length + 1);
  const httpUrl = field('http');
  if (httpUrl === undefined) throw new BenchError(`cannot read the HTTP address from: ${ready}`);
  const grpcAddress = field('grpc');
  const metricsUrl = field('metrics');
  return {
    httpUrl,
    ...(grpcAddress === undefined ? {} : { grpcAddress }),
    ...(metricsUrl === undefined ? {} : { metricsUrl }),
    pid: child.pid ?? -1,
    commandLine,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
