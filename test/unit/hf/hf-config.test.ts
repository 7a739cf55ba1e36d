/**
 * config.json to architecture (src/hf/hf-config.ts): the defaults transformers' config classes apply, the RoPE
 * frequencies of `linear` scaling, which Mistral windows are accepted, and eos ids from generation_config.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decoderArchOf } from '../../../src/hf/hf-config.ts';

const llama = {
  architectures: ['LlamaForCausalLM'],
  vocab_size: 100,
  hidden_size: 64,
  intermediate_size: 128,
  num_hidden_layers: 2,
  num_attention_heads: 8,
  max_position_embeddings: 256,
  eos_token_id: 2,
};

test('Llama defaults: kv heads = heads, head_dim = hidden / heads, untied, theta 10000, no biases', () => {
  const a = decoderArchOf(llama, 'config.json');
  assert.equal(a.numKvHeads, 8);
  assert.equal(a.headDim, 8);
  assert.equal(a.tiedEmbeddings, false);
  assert.equal(a.rope?.theta, 10000);
  assert.equal(a.rope?.invFreq[1], 1 / 10000 ** (2 / 8));
  assert.deepEqual([a.qkvBias, a.outputBias, a.mlpBias], [false, false, false]);
  assert.deepEqual(a.eosTokenIds, [2]);
});

test("'linear' RoPE scaling divides every frequency by the factor", () => {
  const a = decoderArchOf({ ...llama, rope_scaling: { type: 'linear', factor: 4 } }, 'config.json');
  assert.equal(a.rope?.invFreq[1], 1 / 10000 ** (2 / 8) / 4);
});

test("transformers 5's rope_parameters: its theta and scaling are the ones used, as the older top-level keys were", () => {
  const legacy = decoderArchOf(
    {
      ...llama,
      rope_theta: 500000,
      rope_scaling: { rope_type: 'llama3', factor: 32, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 64 },
    },
    'config.json',
  );
  const v5 = decoderArchOf(
    {
      ...llama,
      rope_parameters: {
        rope_type: 'llama3',
        rope_theta: 500000,
        factor: 32,
        low_freq_factor: 1,
        high_freq_factor: 4,
        original_max_position_embeddings: 64,
      },
    },
    'config.json',
  );
  assert.equal(v5.rope?.theta, 500000);
  assert.deepEqual(v5.rope?.invFreq, legacy.rope?.invFreq);
  assert.notDeepEqual(v5.rope?.invFreq, decoderArchOf({ ...llama, rope_theta: 500000 }, 'config.json').rope?.invFreq, 'the llama3 scaling applied');
  assert.equal(decoderArchOf({ ...llama, rope_parameters: { rope_type: 'default', rope_theta: 1e6 } }, 'config.json').rope?.theta, 1e6);
  assert.throws(
    () => decoderArchOf({ ...llama, rope_parameters: { rope_type: 'yarn', rope_theta: 1e4 } }, 'config.json'),
    /rope_parameters type 'yarn'/,
  );
});

test('generation_config.json eos ids win over config.json', () => {
  assert.deepEqual(decoderArchOf(llama, 'config.json', { eos_token_id: [7, 9] }).eosTokenIds, [7, 9]);
});

test('Mistral: a window as long as the context is full attention; a shorter one is refused', () => {
  const mistral = { ...llama, architectures: ['MistralForCausalLM'] };
  assert.equal(decoderArchOf({ ...mistral, sliding_window: null }, 'config.json').family, 'llama');
  assert.equal(decoderArchOf({ ...mistral, sliding_window: 256 }, 'config.json').family, 'llama');
  assert.throws(() => decoderArchOf({ ...mistral, sliding_window: 128 }, 'config.json'), /'sliding_window' 128 is shorter than the context/);
});

test('Qwen2 has q/k/v biases and no o_proj bias; sliding window refused', () => {
  const a = decoderArchOf({ ...llama, architectures: ['Qwen2ForCausalLM'] }, 'config.json');
  assert.deepEqual([a.qkvBias, a.outputBias], [true, false]);
  assert.throws(
    () => decoderArchOf({ ...llama, architectures: ['Qwen2ForCausalLM'], use_sliding_window: true }, 'config.json'),
    /use_sliding_window/,
  );
});

test('an unknown activation is refused by name', () => {
  assert.throws(() => decoderArchOf({ ...llama, hidden_act: 'relu2' }, 'config.json'), /'hidden_act' "relu2" is not supported/);
});
