import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { withServerKeys } from '../../../src/config/config-doc.ts';

test('docs/configuration.md lists every server key with its default (run `npm run docs:config` after changing the schema)', async () => {
  const doc = await readFile(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
  assert.equal(doc, withServerKeys(doc));
  assert.match(doc, /`RTSERVE_HTTP_PORT`/);
});
