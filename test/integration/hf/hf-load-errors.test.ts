/**
 * A bad Hugging Face checkpoint in a repository: that model is UNAVAILABLE with the reason (naming the file and
 * field) in the repository index, and the other models keep serving.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinyModel, writeCheckpoint } from '../../helpers/hf-checkpoint.ts';
import { postJson, startTestServer } from '../../helpers/server.ts';

const root = await mkdtemp(join(tmpdir(), 'rtserve-hf-bad-repo-'));
after(() => rm(root, { recursive: true, force: true }));

async function editConfig(dir: string, edit: (c: Record<string, unknown>) => void): Promise<void> {
  const c = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  edit(c);
  await writeFile(join(dir, 'config.json'), JSON.stringify(c));
}

test('through the repository: the bad model is unavailable with its reason, the good one serves', async () => {
  const repo = join(root, 'repo');
  await writeCheckpoint(join(repo, 'good', '1'), tinyModel('gpt2'));
  await writeCheckpoint(join(repo, 'bad', '1'), tinyModel('llama'));
  await editConfig(join(repo, 'bad', '1'), (c) => (c['architectures'] = ['FalconForCausalLM']));
  await writeCheckpoint(join(repo, 'declared', '1'), tinyModel('gpt2'));
  await unlink(join(repo, 'declared', '1', 'model.safetensors'));
  await writeFile(join(repo, 'declared', 'config.pbtxt'), 'backend: "huggingface"\n');
  const server = await startTestServer({ modelRepository: [repo] });
  try {
    const index = (await postJson(`${server.httpUrl}/v2/repository/index`, {})).json() as { name: string; state: string; reason: string }[];
    const byName = new Map(index.map((e) => [e.name, e]));
    assert.equal(byName.get('good')?.state, 'READY');
    assert.equal(byName.get('bad')?.state, 'UNAVAILABLE');
    assert.match(byName.get('bad')?.reason ?? '', /architecture 'FalconForCausalLM' is not supported/);
    assert.equal(byName.get('declared')?.state, 'UNAVAILABLE');
    assert.match(byName.get('declared')?.reason ?? '', /backend 'huggingface' needs a Hugging Face checkpoint in its newest version directory/);
    const res = await postJson(`${server.httpUrl}/v1/completions`, { model: 'good', prompt: 'def add', max_tokens: 3 });
    assert.equal(res.status, 200, new TextDecoder().decode(res.body));
  } finally {
    await server.close();
  }
});
