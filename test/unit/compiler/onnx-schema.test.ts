/**
 * The ONNX bindings follow the current onnx.proto (src/onnx/onnx.proto, ONNX 1.20): fields that ONNX added after
 * 1.10 survive `rtserve build`, which decodes the model into the compiler's IR and encodes the plan's payload again.
 * With bindings from an older onnx.proto the decoder skips them as unknown fields and the plan loses them.
 * `--ort-optimization none`: onnxruntime's own optimizer inlines model-local functions, so its payload has none.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT_OK, runBuildCommand } from '../../../src/compiler/cli.ts';
import { createOfflineRunner } from '../../../src/engine/ort/offline-runner.ts';
import { ElemType, loadModel, onnx, saveModel } from '../../../src/onnx/proto.ts';
import { readPlan } from '../../../src/plan/format.ts';
import { tempDir, tinyConvNet, writeModelFile } from './models.ts';

/** tinyConvNet at IR 10 with a model-local function that uses FunctionProto fields of ONNX 1.15 and 1.16. */
function modelWithNewFields(): Uint8Array {
  const model = onnx.ModelProto.decode(tinyConvNet());
  model.irVersion = 10;
  model.functions = [
    onnx.FunctionProto.create({
      name: 'Passthrough',
      domain: 'rtserve.test',
      overload: 'v2', // field 13, IR 10 (ONNX 1.16)
      input: ['a'],
      output: ['b'],
      node: [{ opType: 'Identity', input: ['a'], output: ['b'] }],
      opsetImport: [{ domain: '', version: 13 }],
      // field 12 (ONNX 1.15), with ValueInfoProto.metadata_props (field 4, ONNX 1.16)
      valueInfo: [{ name: 'b', type: { tensorType: { elemType: ElemType.FLOAT } }, metadataProps: [{ key: 'unit', value: 'logit' }] }],
      metadataProps: [{ key: 'origin', value: 'onnx-schema test' }], // field 14 (ONNX 1.16)
    }),
  ];
  return saveModel(model);
}

test('a model-local function with ONNX 1.15/1.16 fields keeps them through rtserve build', async () => {
  const dir = await tempDir();
  const modelPath = await writeModelFile(dir, 'new-fields.onnx', modelWithNewFields());
  const err: string[] = [];
  const code = await runBuildCommand(
    modelPath,
    { output: join(dir, 'new-fields.plan'), ortOptimization: 'none' },
    { createRuntime: createOfflineRunner, stdout: () => undefined, stderr: (l) => err.push(l) },
  );
  assert.equal(code, EXIT_OK, err.join('\n'));
  const plan = readPlan(new Uint8Array(await readFile(join(dir, 'new-fields.plan'))));
  const fn = loadModel(plan.payload).functions.find((f) => f.name === 'Passthrough');
  assert.ok(fn !== undefined, 'the plan keeps the model-local function');
  assert.equal(fn.overload, 'v2');
  assert.deepEqual(
    (fn.metadataProps ?? []).map((p) => [p.key, p.value]),
    [['origin', 'onnx-schema test']],
  );
  assert.deepEqual(
    (fn.valueInfo ?? []).map((v) => [v.name, (v.metadataProps ?? []).map((p) => `${p.key}=${p.value}`)]),
    [['b', ['unit=logit']]],
  );
});

test('the bindings know the element types ONNX added up to 1.20 (FLOAT8*, INT4, FLOAT4E2M1, FLOAT8E8M0, INT2)', () => {
  assert.equal(ElemType.FLOAT8E4M3FN, 17);
  assert.equal(ElemType.INT4, 22);
  assert.equal(ElemType.FLOAT4E2M1, 23);
  assert.equal(ElemType.FLOAT8E8M0, 24);
  assert.equal(ElemType.INT2, 26);
  assert.equal(onnx.Version.IR_VERSION, 13);
});
