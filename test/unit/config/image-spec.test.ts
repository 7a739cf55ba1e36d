import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { modelConfigSchema, type ModelConfigInput } from '../../../src/config/model-config.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { imageSpecOf, requireImageSpec } from '../../../src/config/image-spec.ts';

const base = (over: Partial<ModelConfigInput> = {}): ModelConfigInput => ({
  name: 'm',
  max_batch_size: 8,
  input: [{ name: 'image', data_type: 'TYPE_FP32', dims: [3, 120, 160] }],
  output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [10] }],
  preprocess: {},
  ...over,
});
const spec = (over: Partial<ModelConfigInput> = {}) => imageSpecOf(modelConfigSchema.parse(base(over)));
const badConfig = (over: Partial<ModelConfigInput>, pattern: RegExp): void => {
  assert.throws(
    () => spec(over),
    (err: unknown) => err instanceof RtError && err.code === 'BAD_CONFIG' && pattern.test(err.message),
  );
};

describe('image spec from the model config', () => {
  test('defaults follow the input: size from dims, NCHW, dtype, pixels scaled to 0..1', () => {
    const s = spec();
    assert.ok(s !== undefined);
    assert.equal(s.inputName, 'image');
    assert.equal(s.width, 160);
    assert.equal(s.height, 120);
    assert.equal(s.layout, 'NCHW');
    assert.equal(s.dtype, 'FP32');
    assert.equal(s.channels, 3);
    assert.equal(s.mode, 'fill');
    assert.deepEqual(s.mean, [0, 0, 0]);
    assert.deepEqual(s.std, [1, 1, 1]);
    assert.equal(s.scale, 1 / 255);
    assert.deepEqual([...s.formats].sort(), ['jpeg', 'png', 'webp']);
    assert.deepEqual(s.outputs, ['logits']);
    assert.equal(s.batched, true);
  });

  test('NHWC from the input format, gray with one channel, UINT8 inputs, non-batching [1, H, W, C] dims', () => {
    const s = spec({
      max_batch_size: 0,
      input: [{ name: 'x', data_type: 'TYPE_UINT8', dims: [1, 28, 28, 1], format: 'FORMAT_NHWC' }],
      preprocess: { color: 'gray' },
    });
    assert.equal(s?.layout, 'NHWC');
    assert.equal(s?.channels, 1);
    assert.equal(s?.dtype, 'UINT8');
    assert.equal(s?.width, 28);
    assert.equal(s?.batched, false);
  });

  test('a model without preprocess has no spec, and image requests to it are refused naming the model', () => {
    assert.equal(spec({ preprocess: undefined }), undefined);
    assert.throws(() => requireImageSpec(modelConfigSchema.parse(base({ preprocess: undefined }))), /model 'm' takes no images/);
  });

  test('mismatches are configuration errors that name the field', () => {
    badConfig({ preprocess: { color: 'gray' } }, /color 'gray' gives 1 channel\(s\) but input 'image' has 3/);
    badConfig({ preprocess: { resize: { width: 100 } } }, /resize.width 100 does not match input 'image' \(160\)/);
    badConfig({ input: [{ name: 'image', data_type: 'TYPE_INT32', dims: [3, 120, 160] }] }, /TYPE_INT32; preprocess can feed/);
    badConfig({ preprocess: { dtype: 'UINT8' } }, /dtype UINT8 does not match/);
    badConfig({ preprocess: { mean: [0.1, 0.2] } }, /preprocess.mean has 2 values/);
    badConfig({ preprocess: { input: 'nope' } }, /preprocess.input 'nope' is not an input/);
    badConfig({ input: [{ name: 'image', data_type: 'TYPE_FP32', dims: [3, -1, -1] }] }, /dynamic width: set preprocess.resize.width/);
    badConfig({ preprocess: { resize: { mode: 'fit' } } }, /'fit' gives images of varying size/);
    badConfig(
      {
        input: [
          { name: 'a', data_type: 'TYPE_FP32', dims: [3, 8, 8] },
          { name: 'b', data_type: 'TYPE_FP32', dims: [3, 8, 8] },
        ],
      },
      /must name the image input/,
    );
    badConfig({ max_batch_size: 0 }, /without batching must have dims \[1, C, H, W\]/);
    badConfig({ postprocess: { type: 'detection' } }, /boxes_output 'boxes' is not an output/);
    badConfig({ preprocess: undefined, postprocess: { type: 'classification' } }, /postprocess needs a preprocess section/);
  });

  test('dynamic sizes take the configured size; fit keeps it as a bound', () => {
    const s = spec({
      input: [{ name: 'image', data_type: 'TYPE_FP32', dims: [3, -1, -1] }],
      preprocess: { resize: { mode: 'fit', width: 320, height: 240 } },
    });
    assert.equal(s?.width, 320);
    assert.equal(s?.mode, 'fit');
  });

  test('postprocess picks the outputs it reads', () => {
    const det = spec({
      output: [
        { name: 'b', data_type: 'TYPE_FP32', dims: [10, 4] },
        { name: 's', data_type: 'TYPE_FP32', dims: [10] },
        { name: 'c', data_type: 'TYPE_INT32', dims: [10] },
        { name: 'extra', data_type: 'TYPE_FP32', dims: [1] },
      ],
      postprocess: { type: 'detection', boxes_output: 'b', scores_output: 's', classes_output: 'c' },
    });
    assert.deepEqual(det?.outputs, ['b', 's', 'c']);
    const cls = spec({ postprocess: { type: 'classification' } });
    assert.deepEqual(cls?.outputs, ['logits']);
  });

  test('the spec is compiled once per config object', () => {
    const config = modelConfigSchema.parse(base());
    assert.equal(imageSpecOf(config), imageSpecOf(config));
  });
});
