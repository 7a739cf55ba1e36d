/** docs/client-api.md is what scripts/client-api/render.ts generates from the package's declarations now. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderClientApiDoc } from '../../../scripts/client-api/render.ts';
import { packageRoot } from '../../../src/util/package-root.ts';

test('docs/client-api.md is up to date (npm run docs:client) and names every export of both entries', async () => {
  const root = packageRoot();
  const doc = renderClientApiDoc(root);
  assert.equal(readFileSync(join(root, 'docs/client-api.md'), 'utf8'), doc, 'run npm run docs:client');
  const browser = await import('../../../packages/client/src/index.ts');
  const node = await import('../../../packages/client/src/node.ts');
  for (const name of [...Object.keys(browser), ...Object.keys(node)]) assert.match(doc, new RegExp(`### \\w+ \`${name}\``), name);
  for (const call of ['statistics', 'loadModel', 'registerSystemSharedMemory', 'updateLogSettings', 'traceSettings'])
    assert.match(doc, new RegExp(`\\| \`${call}\\(`), `RtserveClient.${call} (inherited) is listed`);
});
