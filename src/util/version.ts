import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function findVersion(): string {
  // Works from src/ (tsx) and from dist/src/ (compiled).
  for (const p of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = require(p) as { name?: string; version?: string };
      if (pkg.name === 'rtserve' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const RTSERVE_VERSION: string = findVersion();
export const SERVER_NAME = 'rtserve';
