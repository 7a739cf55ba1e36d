/**
 * Starts a worker thread from an entry module URL, both for compiled `.js` entries (dist/) and for `.ts`
 * entries when the source runs under tsx (`node --import tsx`).
 *
 * Why the bootstrap: on Node 20 the module hooks that `--import tsx` registers on the main thread do not apply
 * to a worker's entry module even though the worker inherits execArgv, so `new Worker('x.ts')` fails with
 * ERR_UNKNOWN_FILE_EXTENSION. A `.ts` entry is therefore started by a two-line eval bootstrap that registers
 * tsx inside the worker and then imports the entry.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

function tsxApiUrl(): string | undefined {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    // No tsx (a runtime that strips types natively): start the entry directly.
    return undefined;
  }
}

export function spawnWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const tsx = tsxApiUrl();
  if (tsx === undefined) return new Worker(entry, options);
  const bootstrap =
    `import(${JSON.stringify(tsx)})` +
    `.then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); })` +
    // An import failure must surface as the worker's error event, not as an unhandled rejection warning.
    `.catch((err) => { setImmediate(() => { throw err; }); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
