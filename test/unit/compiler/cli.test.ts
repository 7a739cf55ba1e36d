import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Command } from 'commander';
import {
  EXIT_ACCURACY_GATE,
  EXIT_ERROR,
  EXIT_OK,
  EXIT_USAGE,
  registerCompilerCommands,
  runBuildCommand,
  runInspectCommand,
} from '../../../src/compiler/cli.ts';
import { createOfflineRunner } from '../../../src/engine/ort/offline-runner.ts';
import { tempDir, tinyConvNet, writeCalibration, writeModelFile } from './models.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, deps: { createRuntime: createOfflineRunner, stdout: (l: string) => out.push(l), stderr: (l: string) => err.push(l) } };
}

describe('rtserve build (runBuildCommand)', () => {
  test('builds, shows each stage, writes the plan and the report', async () => {
    const dir = await tempDir();
    const model = await writeModelFile(dir, 'tiny.onnx', tinyConvNet());
    const calibration = await writeCalibration(dir, 20);
    const c = capture();
    const code = await runBuildCommand(
      model,
      {
        output: join(dir, 'tiny.plan'),
        precision: 'int8',
        calibration,
        calibrationMethod: 'entropy',
        report: join(dir, 'report.json'),
        profile: ['x:1x3x8x8,4x3x8x8,8x3x8x8'],
        accuracyGate: ['cosine=0.98'],
      },
      c.deps,
    );
    assert.equal(code, EXIT_OK, c.err.join('\n'));
    for (const stage of ['load', 'validate', 'passes', 'calibrate', 'precision', 'ort-optimize', 'profiles', 'accuracy', 'write']) {
      assert.ok(
        c.err.some((l) => l.includes(stage)),
        `progress line for ${stage}`,
      );
    }
    assert.match(c.out[0] ?? '', /built .*tiny\.plan: ort-cpu int8/);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as { calibration: { method: string }; accuracy: { passed: boolean } };
    assert.equal(report.calibration.method, 'entropy');
    assert.equal(report.accuracy.passed, true);
    await stat(join(dir, 'tiny.plan'));
  });

  test('a failed gate exits 3, writes the report and no plan', async () => {
    const dir = await tempDir();
    const model = await writeModelFile(dir, 'tiny.onnx', tinyConvNet());
    const calibration = await writeCalibration(dir, 10);
    const c = capture();
    const code = await runBuildCommand(
      model,
      { output: join(dir, 'x.plan'), precision: 'int8', calibration, report: join(dir, 'r.json'), accuracyGate: ['logits:max-abs=0'] },
      c.deps,
    );
    assert.equal(code, EXIT_ACCURACY_GATE);
    assert.ok(c.err.some((l) => /error \[ACCURACY_GATE\]: accuracy gate failed: max-abs of 'logits'/.test(l)));
    await stat(join(dir, 'r.json'));
    await assert.rejects(stat(join(dir, 'x.plan')));
  });

  test('usage errors exit 2, build errors exit 1, with the reason', async () => {
    const dir = await tempDir();
    const model = await writeModelFile(dir, 'tiny.onnx', tinyConvNet());
    let c = capture();
    assert.equal(await runBuildCommand(model, { output: join(dir, 'a.plan'), precision: 'int4' }, c.deps), EXIT_USAGE);
    assert.match(c.err.join('\n'), /--precision must be one of fp32, fp16, int8, mixed \(got 'int4'\)/);
    c = capture();
    assert.equal(await runBuildCommand(model, { output: join(dir, 'a.plan'), accuracyGate: ['cosin=0.9'] }, c.deps), EXIT_USAGE);
    assert.match(c.err.join('\n'), /--accuracy-gate 'cosin=0\.9'/);
    c = capture();
    assert.equal(await runBuildCommand(model, { output: join(dir, 'a.plan'), profile: ['x:1x3x8x8'] }, c.deps), EXIT_USAGE);
    c = capture();
    assert.equal(await runBuildCommand(model, { output: join(dir, 'a.plan'), target: 'cuda' }, c.deps), EXIT_ERROR);
    assert.match(c.err.join('\n'), /error \[ENGINE_UNAVAILABLE\]: target 'cuda' is unavailable/);
  });
});

describe('rtserve inspect and command registration', () => {
  test('commander wiring: build then inspect a plan and an onnx file', async () => {
    const dir = await tempDir();
    const model = await writeModelFile(dir, 'tiny.onnx', tinyConvNet());
    const c = capture();
    const program = new Command('rtserve').exitOverride();
    registerCompilerCommands(program, c.deps);
    await program.parseAsync(['node', 'rtserve', 'build', model, '-o', join(dir, 't.plan'), '--precision', 'fp16', '--accuracy-gate', 'none', '-q']);
    assert.equal(process.exitCode, EXIT_OK);
    await program.parseAsync(['node', 'rtserve', 'inspect', join(dir, 't.plan')]);
    const text = c.out.join('\n');
    assert.match(text, /rtserve plan/);
    assert.match(text, /precision\s+fp16 \(FP32 inputs\/outputs\)/);
    assert.match(text, /input\s+x: float32 \[N, 3, 8, 8\]/);
    c.out.length = 0;
    await program.parseAsync(['node', 'rtserve', 'inspect', model, '--json']);
    const json = JSON.parse(c.out.join('\n')) as { kind: string; model: { operators: Record<string, number> } };
    assert.equal(json.kind, 'onnx');
    assert.equal(json.model.operators.BatchNormalization, 2);
    process.exitCode = 0;
  });

  test('inspect on a damaged plan explains the damage', async () => {
    const dir = await tempDir();
    const c = capture();
    const model = await writeModelFile(dir, 'tiny.onnx', tinyConvNet());
    assert.equal(await runBuildCommand(model, { output: join(dir, 'ok.plan'), accuracyGate: ['none'], quiet: true }, c.deps), EXIT_OK);
    const bytes = new Uint8Array(await readFile(join(dir, 'ok.plan')));
    bytes[200] = (bytes[200] ?? 0) ^ 0xff;
    await writeFile(join(dir, 'bad.plan'), bytes);
    assert.equal(await runInspectCommand(join(dir, 'bad.plan'), {}, c.deps), EXIT_ERROR);
    assert.match(c.err.join('\n'), /error \[BAD_CONFIG\]: .*bad\.plan is not a valid rtserve plan: its sha256 checksum does not match/);
  });
});
