/**
 * `rtserve serve` started with tritonserver's command line (docs/triton-compat.md), as a Triton runtime starts it:
 * the real CLI (bin/rtserve.js) in its own process, answered over REST (fetch) and gRPC (grpc-js with the KServe
 * v2 proto, what tritonclient's gRPC client speaks).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_FROM_BIN, startCli, type CliProcess } from '../../helpers/cli.ts';
import { makeRepository } from '../../helpers/server.ts';
import { inferenceClient, unary } from '../grpc/grpc-test-client.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = CLI_FROM_BIN[0] as string;
const start = (args: string[]): Promise<CliProcess> =>
  startCli(CLI_FROM_BIN, args, { env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' }, timeoutMs: 60_000 });

const A = Array.from({ length: 16 }, (_, i) => i);
const B = Array.from({ length: 16 }, (_, i) => 2 * i + 1);
const simpleRest = JSON.stringify({
  inputs: [
    { name: 'INPUT0', shape: [1, 16], datatype: 'INT32', data: A },
    { name: 'INPUT1', shape: [1, 16], datatype: 'INT32', data: B },
  ],
});

async function stop(p: CliProcess): Promise<void> {
  if (p.child.exitCode === null) p.child.kill('SIGINT');
  assert.equal(await p.exited, 0, p.stderr());
}

/** Runs the CLI to its exit: status and stderr (for starts that must fail). */
async function runToExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, 'serve', ...args], { cwd: root, env: { ...process.env, RTSERVE_LOG_LEVEL: 'warn' } });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

/** A port nobody listens on now (the test then checks that rtserve did not open it either). */
async function unusedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('rtserve serve with tritonserver flags', {
  skip: existsSync(`${root}dist/src/cli/main.js`) ? false : 'dist/ not built (npm ci builds it)',
}, () => {
  test("KServe's Triton runtime argument list: serves the model store over REST and gRPC", async () => {
    const repo = await makeRepository({ simple: { from: 'simple' } });
    await writeFile(join(repo.dir, 'simple', 'config.pbtxt'), await readFile(join(root, 'models', 'simple', 'config.pbtxt')));
    const p = await start([
      `--model-store=${repo.dir}`,
      '--grpc-port=0',
      '--http-port=0',
      '--allow-grpc=true',
      '--allow-http=true',
      '--metrics-port=0',
    ]);
    try {
      const http = p.urls['http'] ?? '';
      const res = await fetch(`${http}/v2/models/simple/infer`, {
        method: 'POST',
        body: simpleRest,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { outputs: { name: string; data: number[] }[] };
      assert.deepEqual(
        body.outputs.find((o) => o.name === 'OUTPUT0')?.data,
        A.map((a, i) => a + (B[i] ?? 0)),
      );

      const client = inferenceClient(p.urls['grpc'] ?? '');
      try {
        const raw = (xs: number[]): Buffer => Buffer.from(new Int32Array(xs).buffer);
        const out = await unary<{ outputs: { name: string }[]; raw_output_contents: Buffer[] }>(client, 'ModelInfer', {
          model_name: 'simple',
          inputs: [
            { name: 'INPUT0', datatype: 'INT32', shape: [1, 16] },
            { name: 'INPUT1', datatype: 'INT32', shape: [1, 16] },
          ],
          raw_input_contents: [raw(A), raw(B)],
        });
        const i1 = out.outputs.findIndex((o) => o.name === 'OUTPUT1');
        const bytes = out.raw_output_contents[i1] ?? Buffer.alloc(0);
        assert.deepEqual(
          [...new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)],
          A.map((a, i) => a - (B[i] ?? 0)),
        );
      } finally {
        client.close();
      }
      await stop(p);
    } finally {
      if (p.child.exitCode === null) p.child.kill('SIGKILL');
      await repo.cleanup();
    }
  });

  test('--allow-http=false and --allow-metrics=false leave their ports closed; --id, --backend-config, EXPLICIT mode, --log-file', async () => {
    const repo = await makeRepository({ mlp: { from: 'mlp' }, simple: { from: 'simple' } });
    await writeFile(join(repo.dir, 'simple', 'config.pbtxt'), await readFile(join(root, 'models', 'simple', 'config.pbtxt')));
    const logDir = join(repo.dir, 'logs');
    await mkdir(logDir);
    const httpPort = await unusedPort();
    const metricsPort = await unusedPort();
    const p = await start([
      '--model-repository',
      repo.dir,
      '--allow-http=false',
      `--http-port=${httpPort}`,
      '--allow-metrics',
      'off',
      `--metrics-port=${metricsPort}`,
      '--grpc-port=0',
      '--id=triton',
      '--backend-config=onnxruntime,default-max-batch-size=8',
      '--model-control-mode=EXPLICIT',
      '--load-model=mlp',
      `--log-file=${join(logDir, 'server.log')}`,
      '--log-format=ISO8601',
      '--log-verbose=0',
      '--log-info=true',
    ]);
    try {
      assert.deepEqual(Object.keys(p.urls), ['grpc', 'models'], 'the ready line names only the gRPC port, and the models ready');
      assert.equal(p.urls['models'], '1/1', 'EXPLICIT mode: the one model --load-model loaded (simple, not asked for, is not counted)');
      for (const port of [httpPort, metricsPort]) {
        await assert.rejects(
          fetch(`http://127.0.0.1:${port}/v2/health/live`),
          (err: Error & { cause?: { code?: string } }) => err.cause?.code === 'ECONNREFUSED',
        );
      }
      const client = inferenceClient(p.urls['grpc'] ?? '');
      try {
        const meta = await unary<{ name: string }>(client, 'ServerMetadata', {});
        assert.equal(meta.name, 'triton');
        // mlp has no config file: auto-complete gave it the --backend-config default-max-batch-size.
        const cfg = await unary<{ config: { max_batch_size: number } }>(client, 'ModelConfig', { name: 'mlp' });
        assert.equal(cfg.config.max_batch_size, 8);
        // EXPLICIT (any case) loaded only --load-model's model.
        const index = await unary<{ models: { name: string; state: string }[] }>(client, 'RepositoryIndex', {});
        assert.deepEqual(
          index.models.map((m) => [m.name, m.state]),
          [
            ['mlp', 'READY'],
            ['simple', 'UNAVAILABLE'],
          ],
        );
      } finally {
        client.close();
      }
      await stop(p);
      const log = await readFile(join(logDir, 'server.log'), 'utf8');
      const ready = log.split('\n').filter((l) => l.includes('"model ready"'));
      assert.equal(ready.length, 1, log);
      assert.match(ready[0] ?? '', /"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z"/, 'ISO 8601 time');
    } finally {
      if (p.child.exitCode === null) p.child.kill('SIGKILL');
      await repo.cleanup();
    }
  });

  test('--exit-on-error=true: a model that fails to load stops the start, naming it', async () => {
    const repo = await makeRepository({ mlp: { from: 'mlp' } });
    await mkdir(join(repo.dir, 'broken', '1'), { recursive: true });
    await writeFile(join(repo.dir, 'broken', '1', 'model.onnx'), 'not an onnx model');
    try {
      const r = await runToExit(['--model-store', repo.dir, '--http-port=0', '--grpc-port=0', '--metrics-port=0', '--exit-on-error=true']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /MODEL_LOAD_FAILED: --exit-on-error: 'broken' failed to load/);
      assert.doesNotMatch(r.stderr, /'mlp'/);
    } finally {
      await repo.cleanup();
    }
  });

  test('--disable-auto-complete-config: a model without a config file does not load', async () => {
    const repo = await makeRepository({ mlp: { from: 'mlp' } });
    try {
      const r = await runToExit([
        '--model-store',
        repo.dir,
        '--http-port=0',
        '--grpc-port=0',
        '--metrics-port=0',
        '--disable-auto-complete-config',
        '--exit-on-error=on',
      ]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /'mlp' failed to load/);
    } finally {
      await repo.cleanup();
    }
  });

  test('--model-load-thread-count=1 loads the models one at a time, and all of them', async () => {
    const repo = await makeRepository({ mlp: { from: 'mlp' }, simple: { from: 'simple' }, identity_all: { from: 'identity_all' } });
    await writeFile(join(repo.dir, 'simple', 'config.pbtxt'), await readFile(join(root, 'models', 'simple', 'config.pbtxt')));
    await writeFile(join(repo.dir, 'identity_all', 'config.json'), await readFile(join(root, 'models', 'identity_all', 'config.json')));
    const p = await start([
      `--model-store=${repo.dir}`,
      '--http-port=0',
      '--grpc-port=0',
      '--metrics-port=0',
      '--model-load-thread-count=1',
      '--exit-on-error=true',
    ]);
    try {
      const index = (await (await fetch(`${p.urls['http'] ?? ''}/v2/repository/index`, { method: 'POST' })).json()) as {
        name: string;
        state: string;
      }[];
      assert.deepEqual(
        index.map((m) => [m.name, m.state]),
        [
          ['identity_all', 'READY'],
          ['mlp', 'READY'],
          ['simple', 'READY'],
        ],
      );
      await stop(p);
    } finally {
      if (p.child.exitCode === null) p.child.kill('SIGKILL');
      await repo.cleanup();
    }
  });

  test('flags rtserve does not implement stop the start with a message naming each', async () => {
    const r = await runToExit([
      '--http-port=0',
      '--grpc-port=0',
      '--metrics-port=0',
      '--rate-limit=execution_count',
      '--grpc-use-ssl=true',
      '--allow-sagemaker=false',
    ]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /rtserve: UNSUPPORTED: rtserve does not implement these tritonserver flags: --grpc-use-ssl=true .*; --rate-limit=execution_count /,
    );
    assert.doesNotMatch(r.stderr, /allow-sagemaker/);
  });
});
