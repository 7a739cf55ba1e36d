import { readFileSync } from 'node:fs';

/** rtserve's version from package.json (source tree or dist/ layout); 'dev' when neither is found. */
export function toolVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'rtserve' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // try the next layout
    }
  }
  return 'dev';
}
