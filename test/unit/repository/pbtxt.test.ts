import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePbtxt } from '../../../src/repository/pbtxt.ts';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import { RtError } from '../../../src/errors/registry.ts';

/** A config in the style of Triton's docs and examples, including fields rtserve does not support. */
const TRITON_CONFIG = `
# densenet, as in Triton's quickstart, plus everything a real deployment tends to add
name: "densenet_onnx"
platform: "onnxruntime_onnx"
max_batch_size : 8
version_policy: { specific: { versions: [1, 3] } }
input [
  {
    name: "data_0"
    data_type: TYPE_FP32
    format: FORMAT_NCHW
    dims: [ 3, 224, 224 ]
    reshape { shape: [ 1, 3, 224, 224 ] }
    allow_ragged_batch: false   # unsupported: dropped with a warning
  }
]
output {
  name: "fc6_1"
  data_type: TYPE_FP32
  dims: [ 1000 ]
  label_filename: 'densenet_labels.txt'
}
instance_group [
  { count: 2, kind: KIND_CPU, rate_limiter { resources [ { name: "R1" count: 4 } ] priority: 2 } },
  { kind: KIND_GPU gpus: [ 0, 1 ] rate_limiter { priority: 1 } }
]
dynamic_batching {
  preferred_batch_size: [ 4, 8 ]
  preferred_batch_size: 16
  max_queue_delay_microseconds: 100
  preserve_ordering: true
  priority_levels: 2
  default_priority_level: 2
  default_queue_policy < timeout_action: DELAY; default_timeout_microseconds: 0x10; allow_timeout_override: True >
  priority_queue_policy { key: 1 value: { max_queue_size: 4 } }
  priority_queue_policy { key: 2, value { timeout_action: REJECT } }
}
parameters { key: "note" value: { string_value: "tab\\there " 'and "quotes"' } }
parameters [ { key: "other" value { string_value: "\\u00e9\\101\\x42" } } ]
optimization {
  graph { level: 1 }
  execution_accelerators {
    gpu_execution_accelerator : [ {
      name : "tensorrt"
      parameters { key: "precision_mode" value: "FP16" }
      parameters { key: "max_workspace_size_bytes" value: "1073741824" }
    } ]
  }
  cuda { graphs: true }
}
model_warmup [
  {
    name: "zeros"
    batch_size: 4
    inputs { key: "data_0" value: { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] zero_data: true } }
  }
]
response_cache { enable: true }
sequence_batching { max_sequence_idle_microseconds: 5000000 }
model_transaction_policy { decoupled: false }
metric_tags { key: "team" value: "vision" }
`;

function parseError(text: string): string {
  try {
    parsePbtxt(text);
  } catch (err) {
    assert.ok(err instanceof RtError, String(err));
    assert.equal(err.code, 'BAD_CONFIG');
    return err.message;
  }
  assert.fail(`expected a parse error for: ${text}`);
}

describe('parsePbtxt', () => {
  test('maps a real Triton config onto the JSON spelling, with repeated fields as arrays and maps as objects', () => {
    const { config, warnings } = parsePbtxt(TRITON_CONFIG);
    assert.deepEqual(config, {
      name: 'densenet_onnx',
      platform: 'onnxruntime_onnx',
      max_batch_size: 8,
      version_policy: { specific: { versions: [1, 3] } },
      input: [{ name: 'data_0', data_type: 'TYPE_FP32', format: 'FORMAT_NCHW', dims: [3, 224, 224], reshape: { shape: [1, 3, 224, 224] } }],
      output: [{ name: 'fc6_1', data_type: 'TYPE_FP32', dims: [1000], label_filename: 'densenet_labels.txt' }],
      instance_group: [
        { count: 2, kind: 'KIND_CPU' },
        { kind: 'KIND_GPU', gpus: [0, 1] },
      ],
      dynamic_batching: {
        preferred_batch_size: [4, 8, 16],
        max_queue_delay_microseconds: 100,
        preserve_ordering: true,
        priority_levels: 2,
        default_priority_level: 2,
        default_queue_policy: { timeout_action: 'DELAY', default_timeout_microseconds: 16, allow_timeout_override: true },
        priority_queue_policy: { '1': { max_queue_size: 4 }, '2': { timeout_action: 'REJECT' } },
      },
      parameters: { note: { string_value: 'tab\there and "quotes"' }, other: { string_value: 'éAB' } },
      optimization: {
        graph: { level: 1 },
        execution_accelerators: {
          gpu_execution_accelerator: [{ name: 'tensorrt', parameters: { precision_mode: 'FP16', max_workspace_size_bytes: '1073741824' } }],
        },
      },
      model_warmup: [{ name: 'zeros', batch_size: 4, inputs: { data_0: { data_type: 'TYPE_FP32', dims: [3, 224, 224], zero_data: true } } }],
      response_cache: { enable: true },
    });
    assert.deepEqual(warnings, [
      "config.pbtxt: field 'input.allow_ragged_batch' is not supported by rtserve and was ignored",
      "config.pbtxt: field 'instance_group.rate_limiter' is not supported by rtserve and was ignored",
      "config.pbtxt: field 'optimization.cuda' is not supported by rtserve and was ignored",
      "config.pbtxt: field 'sequence_batching' is not supported by rtserve and was ignored",
      "config.pbtxt: field 'model_transaction_policy' is not supported by rtserve and was ignored",
      "config.pbtxt: field 'metric_tags' is not supported by rtserve and was ignored",
    ]);
    // What comes out is valid input for the strict schema.
    assert.equal(modelConfigSchema.safeParse(config).success, true);
  });

  test('a single occurrence of a repeated field is still an array; an empty list is an empty array', () => {
    const { config } = parsePbtxt('input { name: "x" data_type: TYPE_INT64 dims: 4 } output: []');
    assert.deepEqual(config, { input: [{ name: 'x', data_type: 'TYPE_INT64', dims: [4] }], output: [] });
  });

  test('dims and numbers: negative, hex, octal; enums by name or number; bool spellings', () => {
    const { config } = parsePbtxt(
      'max_batch_size: 010 input [{ name: "x", data_type: 11, dims: [-1, +3, 0x10] }] ' +
        'dynamic_batching { preserve_ordering: t } response_cache { enable: 0 }',
    );
    assert.deepEqual(config, {
      max_batch_size: 8,
      input: [{ name: 'x', data_type: 'TYPE_FP32', dims: [-1, 3, 16] }],
      dynamic_batching: { preserve_ordering: true },
      response_cache: { enable: false },
    });
  });

  test("rtserve's engine section: providers as names or messages with options", () => {
    const { config } = parsePbtxt(
      'engine { providers: [ "cuda", { name: cpu options { key: "threads" value: 4 } options { key: "x" value: "y" } } ] ' +
        'graph_optimization_level: basic }',
    );
    assert.deepEqual(config, {
      engine: { providers: ['cuda', { name: 'cpu', options: { threads: 4, x: 'y' } }], graph_optimization_level: 'basic' },
    });
  });

  test('an empty file or one with only comments is an empty config', () => {
    assert.deepEqual(parsePbtxt('').config, {});
    assert.deepEqual(parsePbtxt('# nothing here\n   \n# at all').config, {});
  });

  test('the source name appears in warnings and errors', () => {
    const { warnings } = parsePbtxt('sequence_batching {}', 'm/config.pbtxt');
    assert.deepEqual(warnings, ["m/config.pbtxt: field 'sequence_batching' is not supported by rtserve and was ignored"]);
    assert.throws(() => parsePbtxt('name:', 'm/config.pbtxt'), /^RtError: m\/config\.pbtxt:1:6: /);
  });

  describe('syntax errors name line and column', () => {
    const cases: [string, string][] = [
      ['name: "simple"\nmax_batch_size 8\n', "config.pbtxt:2:16: expected ':' or '{' after field name 'max_batch_size', got '8'"],
      ['input [\n  {\n    name: "x"\n', "config.pbtxt:4:1: expected '}' to close the '{' at 2:3 before end of file"],
      ['name: "abc\n"', 'config.pbtxt:1:7: unterminated string'],
      ['input { dims: [1 2] }', "config.pbtxt:1:18: expected ',' or ']' in the list for 'dims', got '2'"],
      ['input { dims: [1, 2 }', "config.pbtxt:1:21: expected ',' or ']' in the list for 'dims', got '}'"],
      ['input { dims: [1, ] }', "config.pbtxt:1:19: expected a value for 'dims', got ']'"],
      ['dims: [1,', "config.pbtxt:1:7: list for 'dims' is never closed with ']'"],
      ['input { dims [1] }', "config.pbtxt:1:15: expected a message in the list for 'dims' (a list of values needs ':' before '[')"],
      ['name: @x', "config.pbtxt:1:7: unexpected character '@'"],
      ['}', "config.pbtxt:1:1: expected a field name, got '}'"],
      ['name: "a\\q"', "config.pbtxt:1:9: unknown escape '\\q'"],
      ['max_batch_size: 1.5', "config.pbtxt:1:17: field 'max_batch_size' takes an integer, got 1.5"],
      ['max_batch_size: "8"', 'config.pbtxt:1:17: field \'max_batch_size\' takes an integer, got "8"'],
      ['max_batch_size: 12abc', "config.pbtxt:1:17: malformed number '12a'"],
      ['name: simple', "config.pbtxt:1:7: field 'name' takes a quoted string, got simple"],
      ['name: "a"\nname: "b"', "config.pbtxt:2:1: field 'name' is not repeated but is set twice (first at line 1)"],
      ['dynamic_batching: 5', "config.pbtxt:1:19: field 'dynamic_batching' is a message: write 'dynamic_batching { ... }'"],
      ['response_cache { enable: yes }', "config.pbtxt:1:26: field 'response_cache.enable' takes true or false, got yes"],
      ['input { data_type: 99 }', "config.pbtxt:1:20: field 'input.data_type': 99 is not a value of the enum"],
      ['parameters { value: { string_value: "x" } }', "config.pbtxt:1:12: a 'parameters' entry has no key"],
      ['[ext.field]: 1', 'config.pbtxt:1:1: extension and Any fields'],
    ];
    for (const [text, expected] of cases) {
      test(JSON.stringify(text), () => {
        const message = parseError(text);
        assert.ok(message.startsWith(expected), `got: ${message}`);
      });
    }
  });

  test('an unknown field is an error with a did-you-mean hint and its position', () => {
    assert.equal(
      parseError('name: "m"\n  max_batch_sise: 4'),
      "config.pbtxt:2:3: unknown field 'max_batch_sise' in ModelConfig (did you mean 'max_batch_size'?)",
    );
    assert.equal(parseError('input { name: "x" dim: [1] }'), "config.pbtxt:1:19: unknown field 'dim' in ModelInput (did you mean 'dims'?)");
    assert.match(parseError('flux_capacitor: 1'), /unknown field 'flux_capacitor' in ModelConfig$/);
  });
});
