import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The rtserve package root, found from this file both under src/ (tsx) and under dist/src/ (compiled). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'rtserve') return dir;
      } catch {
        // keep looking upwards
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the rtserve package root');
    dir = up;
  }
}

/** The bundled model repository served when no --model-repository is given. */
export function bundledModelRepository(): string {
  return join(packageRoot(), 'models');
}
