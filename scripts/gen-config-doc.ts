import { readFile, writeFile } from 'node:fs/promises';
import { withServerKeys } from '../src/config/config-doc.ts';

const path = new URL('../docs/configuration.md', import.meta.url);
await writeFile(path, withServerKeys(await readFile(path, 'utf8')));
console.log('updated docs/configuration.md');
