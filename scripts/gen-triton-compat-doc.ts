import { readFile, writeFile } from 'node:fs/promises';
import { withTritonFlagTable } from '../src/cli/triton-flags.ts';

const path = new URL('../docs/triton-compat.md', import.meta.url);
await writeFile(path, withTritonFlagTable(await readFile(path, 'utf8')));
console.log('updated docs/triton-compat.md');
