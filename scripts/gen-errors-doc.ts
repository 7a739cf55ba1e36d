import { writeFile } from 'node:fs/promises';
import { renderErrorsDoc } from '../src/errors/errors-doc.ts';

await writeFile(new URL('../docs/errors.md', import.meta.url), renderErrorsDoc());
console.log('wrote docs/errors.md');
