/**
 * A bad Hugging Face checkpoint fails its load with an error that names the file and what is wrong: invalid or
 * incomplete config.json, an unsupported architecture, RoPE scaling or dtype, a missing shard, a weight of the
 * wrong shape, a missing tokenizer.json (through the repository: test/integration/hf/hf-load-errors.test.ts).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadHfDecoder } from '../../../src/hf/checkpoint.ts';
import { safetensorsBytes, tinyModel, writeCheckpoint } from '../../helpers/hf-checkpoint.ts';

const root = await mkdtemp(join(tmpdir(), 'rtserve-hf-bad-'));
after(() => rm(root, { recursive: true, force: true }));
let n = 0;

/** A fresh valid checkpoint, changed by `spoil`, then loaded: the error it fails with. */
async function loadError(
  spoil: (dir: string) => Promise<void>,
  family: 'llama' | 'gpt2' = 'llama',
  shards = 1,
): Promise<{ code: string; message: string }> {
  const dir = join(root, `m${n++}`);
  await writeCheckpoint(dir, tinyModel(family), { shards });
  await spoil(dir);
  try {
    await loadHfDecoder(dir, { cacheRoot: join(root, 'cache') });
  } catch (err) {
    return err as { code: string; message: string };
  }
  assert.fail('the load succeeded');
}

async function editConfig(dir: string, edit: (c: Record<string, unknown>) => void): Promise<void> {
  const c = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  edit(c);
  await writeFile(join(dir, 'config.json'), JSON.stringify(c));
}

describe('bad checkpoints', () => {
  test('config.json that is not JSON', async () => {
    const e = await loadError((d) => writeFile(join(d, 'config.json'), '{"hidden_size": 32,'));
    assert.equal(e.code, 'BAD_CONFIG');
    assert.match(e.message, /config\.json: invalid JSON/);
  });

  test('config.json without a required field', async () => {
    const e = await loadError((d) => editConfig(d, (c) => delete c['num_hidden_layers']));
    assert.equal(e.code, 'BAD_CONFIG');
    assert.match(e.message, /config\.json: 'num_hidden_layers' is required/);
  });

  test('heads that do not divide', async () => {
    const e = await loadError((d) => editConfig(d, (c) => (c['num_key_value_heads'] = 3)));
    assert.match(e.message, /'num_attention_heads' \(4\) must be a multiple of 'num_key_value_heads' \(3\)/);
  });

  test('an unsupported architecture', async () => {
    const e = await loadError((d) => editConfig(d, (c) => (c['architectures'] = ['MixtralForCausalLM'])));
    assert.equal(e.code, 'BAD_CONFIG');
    assert.match(
      e.message,
      /architecture 'MixtralForCausalLM' is not supported \(supported: LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM, GPT2LMHeadModel\)/,
    );
  });

  test('an unsupported RoPE scaling', async () => {
    const e = await loadError((d) => editConfig(d, (c) => (c['rope_scaling'] = { rope_type: 'yarn', factor: 4 })));
    assert.match(e.message, /rope_scaling type 'yarn' is not supported/);
  });

  test('an unsupported dtype', async () => {
    const e = await loadError(async (d) => {
      const bytes = safetensorsBytes([{ name: 'x', shape: [2], data: new Float32Array(2) }], 'F32');
      // Same length, another dtype: I8 is not a float dtype rtserve widens.
      const text = new TextDecoder().decode(bytes).replace('"F32"', '"I32"');
      await writeFile(join(d, 'model.safetensors'), new TextEncoder().encode(text));
    });
    assert.equal(e.code, 'BAD_CONFIG');
    assert.match(e.message, /model\.safetensors: tensor 'x' has dtype "I32"; supported: F32, F16, BF16/);
  });

  test('a missing shard', async () => {
    const e = await loadError((d) => unlink(join(d, 'model-00002-of-00002.safetensors')), 'llama', 2);
    assert.equal(e.code, 'MODEL_LOAD_FAILED');
    assert.match(e.message, /shard 'model-00002-of-00002\.safetensors' named by model\.safetensors\.index\.json \(\d+ tensors\) is missing/);
  });

  test('a weight whose shape disagrees with config.json', async () => {
    const e = await loadError((d) => editConfig(d, (c) => (c['intermediate_size'] = 64)), 'llama');
    assert.match(e.message, /tensor 'model\.layers\.0\.mlp\.gate_proj\.weight' has shape \[48, 32\]; config\.json implies \[64, 32\]/);
  });

  test('no tokenizer.json', async () => {
    const e = await loadError((d) => unlink(join(d, 'tokenizer.json')), 'gpt2');
    assert.equal(e.code, 'MODEL_LOAD_FAILED');
    assert.match(e.message, /cannot read tokenizer\.json/);
  });
});
