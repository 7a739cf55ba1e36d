/**
 * What an operator reads, through the real CLI: log lines carry level names ("warn", not pino's 40), a CPU host's
 * missing GPU metrics are a debug line (not an info line at every start), and prom-client's process metrics are
 * rtserve_process_* / rtserve_nodejs_* (they were rtserve_process_process_* and rtserve_process_nodejs_*).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../../src/util/package-root.ts';
import { CLI_FROM_SOURCES, repositoryArgs, serveToExit, startCli, type CliProcess } from '../../helpers/cli.ts';
import { makeRepository } from '../../helpers/server.ts';
import { needTool } from './helpers.ts';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/** The JSON log lines a process wrote to stderr. */
function logLines(stderr: string): { level: unknown; msg?: unknown }[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: unknown; msg?: unknown });
}

async function stop(p: CliProcess): Promise<void> {
  p.child.kill('SIGTERM');
  await p.exited;
}

describe('log levels and metric names', () => {
  let repo: { dir: string; cleanup: () => Promise<void> };
  before(async () => {
    repo = await makeRepository({ simple: { from: 'simple' } });
  });
  after(async () => repo?.cleanup());

  test('at info: level names on every line, no "no GPU metrics" line; process metrics named rtserve_process_*', async () => {
    const p = await startCli(CLI_FROM_SOURCES, repositoryArgs(repo.dir));
    try {
      const metrics = await (await fetch(`${p.urls['metrics']}`)).text();
      assert.match(metrics, /^rtserve_process_cpu_seconds_total \d/m);
      assert.match(metrics, /^rtserve_process_resident_memory_bytes \d/m);
      assert.match(metrics, /^rtserve_nodejs_eventloop_lag_seconds \d/m);
      assert.doesNotMatch(metrics, /rtserve_process_process_|rtserve_process_nodejs_/);
    } finally {
      await stop(p);
    }
    const lines = logLines(p.stderr());
    assert.ok(lines.length > 0, 'the start logs at info');
    for (const l of lines) assert.ok(LEVELS.has(l.level as string), `level ${JSON.stringify(l.level)} is a name`);
    assert.ok(
      lines.some((l) => l.level === 'info' && l.msg === 'model ready'),
      'model ready at info',
    );
    assert.ok(!lines.some((l) => l.msg === 'no GPU metrics'), 'no GPU metrics is not an info line');
  });

  test('at debug, the missing GPU metrics (where NVML is absent) are a debug line', async () => {
    // The whole log, in a file: at debug it is longer than the stderr tail the helper keeps.
    const file = join(repo.dir, 'debug.log');
    const p = await startCli(CLI_FROM_SOURCES, repositoryArgs(repo.dir, '--log-level', 'debug', `--log-file=${file}`));
    const metrics = await (await fetch(`${p.urls['metrics']}`)).text();
    await stop(p);
    const gpu = logLines(await readFile(file, 'utf8')).filter((l) => l.msg === 'no GPU metrics');
    // A host where NVML loads has GPU metrics instead of the line.
    if (!/^nv_gpu_/m.test(metrics)) assert.equal(gpu.length, 1, 'NVML is absent: one line says so');
    for (const l of gpu) assert.equal(l.level, 'debug');
  });
});

describe('log lines: JSON for pipes and files, one readable line per record on a terminal, --log-format json|pretty', () => {
  // A repository whose one model cannot load: the start logs an error line and exits 2 (--exit-on-error) by itself.
  let dir: string;
  let args: string[];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rtserve-log-style-'));
    await mkdir(join(dir, 'bad', '1'), { recursive: true });
    await writeFile(join(dir, 'bad', '1', 'model.onnx'), 'not an onnx file');
    args = repositoryArgs(dir);
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  const READABLE = /^\[\d\d:\d\d:\d\d\.\d{3}\] ERROR \(rtserve\): model failed to load \{"model":"bad",/m;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour escapes are what is checked
  const COLOUR = /\x1b\[\d+m/;

  test('on a pipe: JSON lines by default; --log-format=pretty: readable lines without colours', async () => {
    const json = await serveToExit(CLI_FROM_SOURCES, args);
    assert.equal(json.status, 2, json.stderr);
    assert.ok(
      logLines(json.stderr).some((l) => l.level === 'error' && l.msg === 'model failed to load'),
      json.stderr,
    );
    const pretty = await serveToExit(CLI_FROM_SOURCES, [...args, '--log-format=pretty']);
    assert.equal(pretty.status, 2, pretty.stderr);
    assert.match(pretty.stderr, READABLE);
    assert.deepEqual(logLines(pretty.stderr), [], 'no JSON line');
    assert.doesNotMatch(pretty.stderr, COLOUR);
    const refused = await serveToExit(CLI_FROM_SOURCES, [...args, '--log-format=yaml']);
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /--log-format=yaml: expected json or pretty/);
  });

  test('on a terminal (a pseudo-terminal from script(1)): readable, coloured lines by default; --log-format=json keeps JSON', {
    skip: needTool('script', 'util-linux'),
  }, () => {
    const onTerminal = (extra: string[]): { status: number | null; out: string } => {
      const quote = (a: string): string => `'${a.replaceAll("'", "'\\''")}'`;
      const cmd = [process.execPath, ...CLI_FROM_SOURCES, 'serve', ...args, ...extra].map(quote).join(' ');
      const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: packageRoot(), encoding: 'utf8', timeout: 60_000 });
      return { status: r.status, out: r.stdout.replaceAll('\r', '') };
    };
    const auto = onTerminal([]);
    assert.equal(auto.status, 2, auto.out);
    assert.match(auto.out, COLOUR);
    assert.match(auto.out.replaceAll(new RegExp(COLOUR.source, 'g'), ''), READABLE);
    assert.deepEqual(logLines(auto.out), [], 'no JSON line');
    const json = onTerminal(['--log-format=json']);
    assert.ok(
      logLines(json.out).some((l) => l.level === 'error' && l.msg === 'model failed to load'),
      json.out,
    );
  });
});
