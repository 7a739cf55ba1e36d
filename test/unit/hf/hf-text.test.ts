/**
 * The text side of a checkpoint (src/hf/hf-text.ts) with a byte-level BPE tokenizer trained by code: streamed
 * decoding gives back the text exactly, multi-byte characters split across tokens included, with no replacement
 * character in any piece; Llama's BOS is added once, not on top of a rendered chat template's own; the end ids
 * come from generation_config.json and tokenizer_config.json.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadHfText } from '../../../src/hf/hf-text.ts';
import { tinyModel, writeCheckpoint } from '../../helpers/hf-checkpoint.ts';

const root = await mkdtemp(join(tmpdir(), 'rtserve-hf-text-'));
after(() => rm(root, { recursive: true, force: true }));

test('streamed decoding reassembles the text, characters split across byte tokens included', async () => {
  const m = tinyModel('qwen2');
  await writeCheckpoint(join(root, 'q'), m);
  const text = await loadHfText(join(root, 'q'), [], m.tokenizer.vocabSize);
  const input = 'Hello world! café naïve — ½ ✓ 日本語 テキスト\n    return a + b';
  const ids = text.tokenizer.encode(input);
  assert.ok(ids.length < new TextEncoder().encode(input).length, 'the trained merges shorten the byte sequence');
  const d = text.tokenizer.decoder();
  const pieces = ids.map((t) => d.push(t));
  pieces.push(d.flush());
  assert.equal(pieces.join(''), input);
  assert.ok(
    pieces.every((p) => !p.includes('\uFFFD')),
    'no piece carries half a character',
  );
  assert.deepEqual(text.stopTokenIds, [m.tokenizer.ids['<|im_end|>']], "tokenizer_config.json's eos_token");
});

test("Llama's BOS: added to a plain prompt, not to a rendered chat template that starts with it", async () => {
  const m = tinyModel('llama');
  await writeCheckpoint(join(root, 'l'), m);
  const bos = m.tokenizer.ids['<|begin_of_text|>'] as number;
  const text = await loadHfText(join(root, 'l'), [m.tokenizer.ids['<|eot_id|>'] as number], m.tokenizer.vocabSize);
  assert.equal(text.tokenizer.encode('Hello')[0], bos);
  const rendered = text.renderChat?.([{ role: 'user', content: 'Hello' }]) as string;
  assert.ok(rendered.startsWith('<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|>'), rendered);
  assert.ok(rendered.endsWith('<|start_header_id|>assistant<|end_header_id|>\n\n'));
  const ids = text.tokenizer.encode(rendered);
  assert.equal(ids.filter((t) => t === bos).length, 1);
  assert.deepEqual(new Set(text.stopTokenIds), new Set([m.tokenizer.ids['<|eot_id|>'], m.tokenizer.ids['<|end_of_text|>']]));
});
