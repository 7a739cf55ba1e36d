import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadModelConfig, parseConfigText } from '../../../src/repository/load-config.ts';
import type { LoadModelConfigOptions } from '../../../src/repository/load-config.ts';
import { scanModel } from '../../../src/repository/scan.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { GraphBuilder } from '../../../src/onnx/builder.ts';
import { ElemType, saveModel } from '../../../src/onnx/proto.ts';
import { readGraphIO } from '../../../src/onnx/graph-io.ts';
import { addModel, makeTempDir, removeDir, writeTree } from './helpers.ts';

const MODELS = fileURLToPath(new URL('../../../models', import.meta.url));

let repo = '';
let counter = 0;

/** Writes one model (config files + version 1 model.onnx by default) and loads its config. */
async function load(
  files: Readonly<Record<string, string | Uint8Array | null>>,
  options: LoadModelConfigOptions = {},
): ReturnType<typeof loadModelConfig> {
  const name = `m${++counter}`;
  const tree: Record<string, string | Uint8Array | null> = {};
  for (const [k, v] of Object.entries(files)) tree[`${name}/${k}`] = typeof v === 'string' ? v.replaceAll('$NAME', name) : v;
  await writeTree(repo, tree);
  return loadModelConfig(await scanModel(repo, name), options);
}

async function loadError(files: Readonly<Record<string, string | Uint8Array | null>>, options: LoadModelConfigOptions = {}): Promise<string> {
  try {
    await load(files, options);
  } catch (err) {
    assert.ok(err instanceof RtError, String(err));
    assert.equal(err.code, 'BAD_CONFIG', err.message);
    return err.message;
  }
  return assert.fail('expected loadModelConfig to fail');
}

before(async () => {
  repo = await makeTempDir();
});
after(async () => removeDir(repo));

describe('loadModelConfig: file formats', () => {
  const model = addModel();

  test('JSON, YAML and pbtxt configs give the same validated config', async () => {
    const json = await load({
      'config.json': '{"max_batch_size": 2, "dynamic_batching": {"max_queue_delay_microseconds": 50}}',
      '1/model.onnx': model,
    });
    const yaml = await load({
      'config.yaml': 'max_batch_size: 2\ndynamic_batching:\n  max_queue_delay_microseconds: 50\n',
      '1/model.onnx': model,
    });
    const pbtxt = await load({ 'config.pbtxt': 'max_batch_size: 2 dynamic_batching { max_queue_delay_microseconds: 50 }', '1/model.onnx': model });
    for (const r of [json, yaml, pbtxt]) {
      assert.equal(r.config.max_batch_size, 2);
      assert.equal(r.config.dynamic_batching?.max_queue_delay_microseconds, 50);
      assert.deepEqual(
        r.config.input.map((t) => [t.name, t.data_type, t.dims]),
        [
          ['a', 'TYPE_FP32', [4]],
          ['b', 'TYPE_FP32', [4]],
        ],
      );
      assert.equal(r.config.platform, 'onnxruntime_onnx');
    }
    assert.equal(json.source, 'config.json');
    assert.equal(yaml.source, 'config.yaml');
    assert.equal(pbtxt.source, 'config.pbtxt');
  });

  test('the config is deeply frozen', async () => {
    const { config } = await load({ 'config.json': '{}', '1/model.onnx': model });
    assert.ok(Object.isFrozen(config));
    assert.ok(Object.isFrozen(config.input));
    assert.ok(Object.isFrozen(config.input[0]?.dims));
    assert.throws(() => {
      (config as { max_batch_size: number }).max_batch_size = 1;
    }, TypeError);
  });

  test('unknown keys in JSON and YAML are errors naming the key path, with a hint', async () => {
    assert.equal(
      await loadError({ 'config.json': '{"max_batch_sise": 4}', '1/model.onnx': model }),
      `model 'm${counter}': config.json: unknown key 'max_batch_sise' (did you mean 'max_batch_size'?)`,
    );
    assert.match(
      await loadError({ 'config.yaml': 'input:\n  - name: a\n    data_type: TYPE_FP32\n    dims: [4]\n    dimz: [1]\n', '1/model.onnx': model }),
      /config\.yaml: unknown key 'input\[0\]\.dimz' \(did you mean 'dims'\?\)$/,
    );
  });

  test('syntax errors name the file, line and column', async () => {
    assert.match(await loadError({ 'config.json': '{\n  "max_batch_size": 4,\n}', '1/model.onnx': model }), /config\.json:3:1: invalid JSON/);
    assert.match(
      await loadError({ 'config.yaml': 'a: 1\na: 2\n', '1/model.onnx': model }),
      /config\.yaml:2:1: invalid YAML: Map keys must be unique/,
    );
    assert.match(
      await loadError({ 'config.pbtxt': 'max_batch_size: 4\ninput [\n', '1/model.onnx': model }),
      /config\.pbtxt:2:7: list for 'input' is never closed with '\]'/,
    );
    assert.match(await loadError({ 'config.json': '[1, 2]', '1/model.onnx': model }), /config\.json: the model config must be an object/);
  });

  test('an empty YAML file is an empty config', async () => {
    const r = await load({ 'config.yaml': '# nothing yet\n', '1/model.onnx': model });
    assert.equal(r.config.max_batch_size, 4);
  });

  test('Triton fields rtserve does not support are dropped with warnings in every format', async () => {
    const json = await load({
      'config.json': JSON.stringify({ max_batch_size: 2, sequence_batching: {}, instance_group: [{ count: 1, kind: 'KIND_CPU', rate_limiter: {} }] }),
      '1/model.onnx': model,
    });
    assert.deepEqual(json.warnings, [
      "config.json: field 'sequence_batching' is not supported by rtserve and was ignored",
      "config.json: field 'instance_group.rate_limiter' is not supported by rtserve and was ignored",
    ]);
    assert.deepEqual(json.config.instance_group, [{ count: 1, kind: 'KIND_CPU' }]);
    // sequence_batching was asked for: dynamic batching is not switched on in its place
    assert.equal(json.config.dynamic_batching, undefined);
  });

  test('config files that lose on precedence are named in a warning', async () => {
    const r = await load({ 'config.json': '{}', 'config.pbtxt': 'max_batch_size: 1', '1/model.onnx': model });
    assert.deepEqual(r.warnings, ['config.pbtxt: ignored because config.json takes precedence']);
    assert.equal(r.config.max_batch_size, 4);
  });

  test('name: filled from the directory; if set, it must equal the directory name', async () => {
    const ok = await load({ 'config.pbtxt': 'name: "$NAME"', '1/model.onnx': model });
    assert.equal(ok.config.name, `m${counter}`);
    assert.match(
      await loadError({ 'config.pbtxt': 'name: "other"', '1/model.onnx': model }),
      /config\.pbtxt has name "other", but a config name must equal its directory name 'm\d+'/,
    );
  });

  test('a config given with the load request replaces the file', async () => {
    const r = await load({ 'config.json': '{"max_batch_size": 1}', '1/model.onnx': model }, { configOverride: '{"max_batch_size": 3}' });
    assert.equal(r.config.max_batch_size, 3);
    assert.equal(r.source, 'the load request');
    const o = await load({ '1/model.onnx': model }, { configOverride: { max_batch_size: 0 } });
    assert.equal(o.config.max_batch_size, 0);
    assert.match(await loadError({ '1/model.onnx': model }, { configOverride: '{"max_batch_size": ' }), /the load request: invalid JSON/);
  });
});

describe('loadModelConfig: auto-complete (Triton ORT backend rules)', () => {
  test('no config file: inputs, outputs, max_batch_size = default and dynamic batching from the graph', async () => {
    const r = await load({ '1/model.onnx': addModel() });
    assert.equal(r.source, 'auto-complete');
    assert.equal(r.config.max_batch_size, 4);
    assert.deepEqual(r.config.input, [
      { name: 'a', data_type: 'TYPE_FP32', dims: [4] },
      { name: 'b', data_type: 'TYPE_FP32', dims: [4] },
    ]);
    assert.deepEqual(r.config.output, [{ name: 'sum', data_type: 'TYPE_FP32', dims: [4] }]);
    assert.equal(r.config.dynamic_batching?.max_queue_delay_microseconds, 0);
    assert.equal(r.filled.length, 4);
  });

  test('defaultMaxBatchSize is configurable; 1 gives no dynamic batching, 0 no batching', async () => {
    const eight = await load({ '1/model.onnx': addModel() }, { defaultMaxBatchSize: 8 });
    assert.equal(eight.config.max_batch_size, 8);
    const one = await load({ '1/model.onnx': addModel() }, { defaultMaxBatchSize: 1 });
    assert.equal(one.config.max_batch_size, 1);
    assert.equal(one.config.dynamic_batching, undefined);
    const zero = await load({ '1/model.onnx': addModel() }, { defaultMaxBatchSize: 0 });
    assert.equal(zero.config.max_batch_size, 0);
    assert.deepEqual(zero.config.input[0]?.dims, [-1, 4]);
  });

  test('a fixed first dimension means no batching: max_batch_size 0 and full dims', async () => {
    const r = await load({ '1/model.onnx': addModel([2, 4]) });
    assert.equal(r.config.max_batch_size, 0);
    assert.deepEqual(r.config.input[0]?.dims, [2, 4]);
    assert.equal(r.config.dynamic_batching, undefined);
  });

  test('an explicit max_batch_size: 0 is kept even when the model could batch', async () => {
    const r = await load({ 'config.pbtxt': 'max_batch_size: 0', '1/model.onnx': addModel() });
    assert.equal(r.config.max_batch_size, 0);
    assert.deepEqual(r.config.input[0]?.dims, [-1, 4]);
  });

  test('an explicit dynamic_batching is kept as written', async () => {
    const r = await load({ 'config.pbtxt': 'dynamic_batching { max_queue_delay_microseconds: 7 }', '1/model.onnx': addModel() });
    assert.equal(r.config.dynamic_batching?.max_queue_delay_microseconds, 7);
  });

  test('listed tensors without max_batch_size: dims one shorter than the graph mean batching, full dims mean none', async () => {
    const tensors = (dims: string): string =>
      `input [ { name: "a" data_type: TYPE_FP32 dims: ${dims} }, { name: "b" data_type: TYPE_FP32 dims: ${dims} } ]`;
    const batched = await load({ 'config.pbtxt': tensors('[4]'), '1/model.onnx': addModel() });
    assert.equal(batched.config.max_batch_size, 4);
    const full = await load({ 'config.pbtxt': tensors('[-1, 4]'), '1/model.onnx': addModel() });
    assert.equal(full.config.max_batch_size, 0);
    assert.deepEqual(full.config.output, [{ name: 'sum', data_type: 'TYPE_FP32', dims: [-1, 4] }]);
  });

  test('the config may list a subset of outputs; a config that is stricter than the model is fine', async () => {
    const g = new GraphBuilder('two');
    g.input('x', ElemType.FLOAT, ['batch', 'n']);
    g.node('Relu', ['x'], ['y']);
    g.node('Neg', ['x'], ['z']);
    g.output('y', ElemType.FLOAT, ['batch', 'n']);
    g.output('z', ElemType.FLOAT, ['batch', 'n']);
    const r = await load({
      'config.json': JSON.stringify({
        max_batch_size: 2,
        input: [{ name: 'x', data_type: 'TYPE_FP32', dims: [8] }],
        output: [{ name: 'z', data_type: 'TYPE_FP32', dims: [-1] }],
      }),
      '1/model.onnx': saveModel(g.toModel({ opsetVersion: 13 })),
    });
    assert.deepEqual(
      r.config.output.map((o) => o.name),
      ['z'],
    );
    assert.deepEqual(r.config.input[0]?.dims, [8]);
  });

  test('reshape: the model dims are compared with reshape.shape, not dims', async () => {
    const r = await load({
      'config.pbtxt':
        'max_batch_size: 2 input [ { name: "a" data_type: TYPE_FP32 dims: [2, 2] reshape { shape: [4] } }, ' +
        '{ name: "b" data_type: TYPE_FP32 dims: [4] } ]',
      '1/model.onnx': addModel(),
    });
    assert.deepEqual(r.config.input[0]?.reshape, { shape: [4] });
  });

  test('the highest version with a model file is used; default_model_filename is honoured', async () => {
    const r = await load({
      'config.pbtxt': 'default_model_filename: "net.onnx"',
      '1/net.onnx': addModel([3]),
      '2/net.onnx': addModel(['batch', 6]),
      '3/model.plan': 'not onnx',
    });
    assert.deepEqual(r.config.input[0]?.dims, [6]);
    assert.match(r.filled.join('\n'), /input from 2\/net\.onnx/);
  });

  test('default_model_filename is a name inside the version folder, in a config file as in a load request', async () => {
    for (const name of ['../other/1/model.onnx', '/etc/model.onnx', 'a/model.onnx', 'a\\model.onnx', '..', '.']) {
      const message = await loadError({ 'config.pbtxt': `default_model_filename: ${JSON.stringify(name)}`, '1/model.onnx': addModel([3]) });
      assert.match(message, /default_model_filename.*must be the name of a file in the version folder/, name);
      const override = await loadError({ '1/model.onnx': addModel([3]) }, { configOverride: JSON.stringify({ default_model_filename: name }) });
      assert.match(override, /the load request: .*default_model_filename/, name);
    }
    // A directory holding model.onnx (Triton's layout for large ONNX models) is still a name.
    const dir = await load({ 'config.pbtxt': 'default_model_filename: "net.onnx"', '1/net.onnx/model.onnx': addModel([4]) });
    assert.deepEqual(dir.config.input[0]?.dims, [4]);
  });

  test('onnxBytes or graph given by the caller are used instead of reading a file', async () => {
    const fromBytes = await load({ '1/model.plan': 'plan' }, { onnxBytes: addModel(['batch', 5]) });
    assert.deepEqual(fromBytes.config.input[0]?.dims, [5]);
    const fromGraph = await load({ '1/model.plan': 'plan' }, { graph: readGraphIO(addModel([7])) });
    assert.deepEqual(fromGraph.config.input[0]?.dims, [7]);
    assert.match(
      await loadError(
        { 'config.pbtxt': 'max_batch_size: 2', '1/model.plan': 'plan' },
        { graph: readGraphIO(addModel([7])), graphSource: 'the plan' },
      ),
      /max_batch_size 2 needs every input and output of the plan to have a dynamic first/,
    );
  });

  test('without an ONNX model, a complete config is taken as is and an incomplete one is an error', async () => {
    const complete = await load({
      'config.pbtxt': 'max_batch_size: 2 input { name: "a" data_type: TYPE_FP32 dims: [4] } output { name: "y" data_type: TYPE_FP32 dims: [4] }',
      '1/model.plan': 'plan',
    });
    assert.equal(complete.config.max_batch_size, 2);
    assert.match(await loadError({ '1/model.plan': 'plan' }), /there is no config file and no version has a model\.onnx to auto-complete/);
    assert.match(await loadError({ 'config.pbtxt': 'max_batch_size: 1' }), /config\.pbtxt lists no inputs and no version has a model\.onnx/);
  });

  test('autoComplete: false fills nothing but still checks the config against the model', async () => {
    assert.match(await loadError({ '1/model.onnx': addModel() }, { autoComplete: false }), /lists no inputs and auto-complete is disabled/);
    const r = await load(
      {
        'config.pbtxt':
          'input [ { name: "a" data_type: TYPE_FP32 dims: [-1, 4] }, { name: "b" data_type: TYPE_FP32 dims: [-1, 4] } ] ' +
          'output { name: "sum" data_type: TYPE_FP32 dims: [-1, 4] }',
        '1/model.onnx': addModel(),
      },
      { autoComplete: false },
    );
    assert.equal(r.config.max_batch_size, 0);
    assert.equal(r.config.dynamic_batching, undefined);
    assert.deepEqual(r.filled, []);
  });
});

describe('loadModelConfig: config / model mismatches', () => {
  const io = (inputs: string, extra = ''): string => `max_batch_size: 4 input [ ${inputs} ] ${extra}`;
  const a = (dtype = 'TYPE_FP32', dims = '[4]', name = 'a'): string => `{ name: "${name}" data_type: ${dtype} dims: ${dims} }`;

  test('an input the model does not have, with a hint', async () => {
    assert.match(
      await loadError({ 'config.pbtxt': io(`${a()}, ${a('TYPE_FP32', '[4]', 'bb')}`), '1/model.onnx': addModel() }),
      /input 'bb' in config\.pbtxt is not an input of 1\/model\.onnx \(did you mean 'b'\?\); the model's inputs are 'a', 'b'/,
    );
  });

  test('a data type that differs from the model', async () => {
    assert.match(
      await loadError({ 'config.pbtxt': io(`${a('TYPE_INT32')}, ${a('TYPE_FP32', '[4]', 'b')}`), '1/model.onnx': addModel() }),
      /input 'a' has data_type TYPE_INT32 in config\.pbtxt but 1\/model\.onnx has TYPE_FP32/,
    );
  });

  test('dims that differ in rank or in a fixed size', async () => {
    const b = a('TYPE_FP32', '[4]', 'b');
    assert.match(
      await loadError({ 'config.pbtxt': io(`${a('TYPE_FP32', '[5]')}, ${b}`), '1/model.onnx': addModel() }),
      /input 'a' has dims \[5\] in config\.pbtxt but 1\/model\.onnx has \[4\] \(without the batch dimension, since max_batch_size is 4\)/,
    );
    assert.match(
      await loadError({ 'config.pbtxt': io(`${a('TYPE_FP32', '[1, 4]')}, ${b}`), '1/model.onnx': addModel() }),
      /input 'a' has dims \[1, 4\] in config\.pbtxt but 1\/model\.onnx has \[4\]/,
    );
    // -1 in the config where the model has a fixed size would let clients send shapes the model rejects
    assert.match(await loadError({ 'config.pbtxt': io(`${a('TYPE_FP32', '[-1]')}, ${b}`), '1/model.onnx': addModel() }), /input 'a' has dims \[-1\]/);
  });

  test('a model input the config does not list', async () => {
    assert.match(
      await loadError({ 'config.pbtxt': io(a()), '1/model.onnx': addModel() }),
      /1\/model\.onnx has input 'b' that config\.pbtxt does not list/,
    );
  });

  test('an input listed twice', async () => {
    assert.match(await loadError({ 'config.pbtxt': io(`${a()}, ${a()}`), '1/model.onnx': addModel() }), /lists input 'a' twice/);
  });

  test('an output that differs from the model', async () => {
    assert.match(
      await loadError({
        'config.pbtxt': io(`${a()}, ${a('TYPE_FP32', '[4]', 'b')}`, 'output { name: "sum" data_type: TYPE_FP16 dims: [4] }'),
        '1/model.onnx': addModel(),
      }),
      /output 'sum' has data_type TYPE_FP16 in config\.pbtxt but 1\/model\.onnx has TYPE_FP32/,
    );
  });

  test('max_batch_size > 0 for a model without a dynamic first dimension', async () => {
    assert.match(
      await loadError({ 'config.pbtxt': 'max_batch_size: 8', '1/model.onnx': addModel([2, 4]) }),
      /max_batch_size 8 needs every input and output of 1\/model\.onnx to have a dynamic first \(batch\) dimension, but input 'a' has shape \[2, 4\]; set max_batch_size: 0/,
    );
  });

  test('a model input that rtserve cannot carry (complex) is named', async () => {
    assert.match(
      await loadError({ 'config.pbtxt': 'max_batch_size: 0', '1/model.onnx': addModel([2], ElemType.COMPLEX64) }),
      /input 'a' of 1\/model\.onnx has element type COMPLEX64, which rtserve cannot serve/,
    );
  });

  test('a model file that is not ONNX', async () => {
    await assert.rejects(
      load({ '1/model.onnx': new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]) }),
      (err: unknown) => err instanceof RtError && err.code === 'MODEL_LOAD_FAILED',
    );
  });
});

describe('loadModelConfig: the bundled models', () => {
  test('simple: config.pbtxt matches its graph', async () => {
    const r = await loadModelConfig(await scanModel(MODELS, 'simple'));
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(r.filled, []);
    assert.equal(r.config.max_batch_size, 8);
    assert.deepEqual(
      r.config.input.map((t) => [t.name, t.data_type, t.dims]),
      [
        ['INPUT0', 'TYPE_INT32', [16]],
        ['INPUT1', 'TYPE_INT32', [16]],
      ],
    );
    assert.deepEqual(
      r.config.output.map((t) => t.name),
      ['OUTPUT0', 'OUTPUT1'],
    );
    assert.ok(r.config.dynamic_batching);
  });

  test('mlp: config.json with a 200 µs queue delay', async () => {
    const r = await loadModelConfig(await scanModel(MODELS, 'mlp'));
    assert.equal(r.config.max_batch_size, 64);
    assert.equal(r.config.dynamic_batching?.max_queue_delay_microseconds, 200);
    assert.deepEqual(r.config.output, [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }]);
  });

  test('resnet_tiny: no config file, completed from the graph', async () => {
    const entry = await scanModel(MODELS, 'resnet_tiny');
    assert.equal(entry.configFile, undefined);
    assert.deepEqual(
      entry.versions.map((v) => v.version),
      [1],
    );
    const r = await loadModelConfig(entry);
    assert.equal(r.config.max_batch_size, 4);
    assert.deepEqual(r.config.input, [{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 32, 32] }]);
    assert.deepEqual(r.config.output, [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }]);
    assert.ok(r.config.dynamic_batching);
  });

  test('identity_all: max_batch_size 0 keeps both dims free; one input per datatype', async () => {
    const r = await loadModelConfig(await scanModel(MODELS, 'identity_all'));
    assert.equal(r.config.max_batch_size, 0);
    assert.equal(r.config.dynamic_batching, undefined);
    assert.ok(r.config.input.length >= 12);
    for (const t of r.config.input) {
      assert.deepEqual(t.dims, [-1, -1]);
      const suffix = t.data_type === 'TYPE_STRING' ? 'BYTES' : t.data_type.slice(5);
      assert.equal(t.name, `IN_${suffix}`);
    }
  });
});

describe('parseConfigText', () => {
  test('JSON config objects keep unknown keys for the schema to reject', () => {
    const r = parseConfigText('{"max_batch_sise": 1, "model_metrics": {}}', 'json', 'x.json');
    assert.deepEqual(r.value, { max_batch_sise: 1 });
    assert.deepEqual(r.dropped, ['model_metrics']);
  });
});
