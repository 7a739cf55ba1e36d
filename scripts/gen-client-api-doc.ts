import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderClientApiDoc } from './client-api/render.ts';

await writeFile(new URL('../docs/client-api.md', import.meta.url), renderClientApiDoc(fileURLToPath(new URL('..', import.meta.url))));
console.log('wrote docs/client-api.md');
