/**
 * Startup as Triton does it, through the real CLI: a repository holding a TensorRT engine (a model.plan that is no
 * rtserve plan) or a PyTorch model names them as formats this server does not run; by default a model that fails to
 * load stops the start with a non-zero exit (Triton's --exit-on-error=true); with --exit-on-error=false the server
 * starts and its ready line says how many models are ready.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI_FROM_SOURCES, repositoryArgs, serveToExit, startCli } from '../../helpers/cli.ts';
import { makeRepository } from '../../helpers/server.ts';

const FORMATS = /rtserve runs ONNX models \(model\.onnx\), its own plans \(rtserve build MODEL\.onnx -o model\.plan\) and Hugging Face checkpoints/;

let repo: { dir: string; cleanup: () => Promise<void> };
before(async () => {
  repo = await makeRepository({ simple: { from: 'simple' } });
  // A TensorRT engine as Triton's repositories hold it, and a TorchScript model with its config.
  await mkdir(join(repo.dir, 'trt', '1'), { recursive: true });
  await writeFile(join(repo.dir, 'trt', '1', 'model.plan'), randomBytes(4096));
  await writeFile(join(repo.dir, 'trt', 'config.pbtxt'), 'name: "trt"\nplatform: "tensorrt_plan"\nmax_batch_size: 8\n');
  await mkdir(join(repo.dir, 'torch', '1'), { recursive: true });
  await writeFile(join(repo.dir, 'torch', '1', 'model.pt'), randomBytes(256));
  await writeFile(
    join(repo.dir, 'torch', 'config.pbtxt'),
    'name: "torch"\nbackend: "pytorch"\nmax_batch_size: 8\ninput [{ name: "x" data_type: TYPE_FP32 dims: [3] }]\noutput [{ name: "y" data_type: TYPE_FP32 dims: [3] }]\n',
  );
});
after(async () => repo?.cleanup());

describe('startup as Triton does it', () => {
  test('by default a model that fails to load stops the start, and foreign formats are named as such', async () => {
    const r = await serveToExit(CLI_FROM_SOURCES, repositoryArgs(repo.dir, '--log-level', 'warn'));
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--exit-on-error: /);
    assert.match(r.stderr, /model 'trt' is a TensorRT engine \(1\/model\.plan is not an rtserve plan\), a format this server does not run/);
    assert.match(r.stderr, /model 'torch' is a PyTorch model \(1\/model\.pt; export it to ONNX \(torch\.onnx\.export\)\)/);
    assert.match(r.stderr, FORMATS);
    assert.doesNotMatch(r.stderr, /rtserve ready/);
  });

  test('--exit-on-error=false starts anyway; the ready line counts the ready models; the index gives the reasons', async () => {
    const p = await startCli(CLI_FROM_SOURCES, repositoryArgs(repo.dir, '--log-level', 'warn', '--exit-on-error=false', '--no-strict-readiness'));
    try {
      assert.equal(p.urls['models'], '1/3', 'one of three models ready');
      const index = (await (await fetch(`${p.urls['http']}/v2/repository/index`, { method: 'POST' })).json()) as {
        name: string;
        state: string;
        reason: string;
      }[];
      const byName = Object.fromEntries(index.map((e) => [e.name, e]));
      assert.equal(byName['simple']?.state, 'READY');
      assert.match(byName['trt']?.reason ?? '', /is a TensorRT engine/);
      assert.match(byName['torch']?.reason ?? '', /is a PyTorch model/);
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  });

  test('a repository whose models all load: models=N/N on the ready line', async () => {
    const good = await makeRepository({ simple: { from: 'simple' }, mlp: { from: 'mlp' } });
    const p = await startCli(CLI_FROM_SOURCES, repositoryArgs(good.dir, '--log-level', 'warn'));
    try {
      assert.equal(p.urls['models'], '2/2');
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
      await good.cleanup();
    }
  });
});
