import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface ConfigWatcher {
  close(): void;
}

/**
 * Calls `reload` on SIGHUP and whenever `file` changes (debounced: editors write a file in several steps, and
 * some replace it by rename, which is why the folder is watched rather than the file). `reload` handles its own
 * errors; at most one reload runs at a time, and a change during a reload triggers one more.
 */
export function watchConfig(file: string | undefined, reload: (reason: string) => Promise<void>, debounceMs = 200): ConfigWatcher {
  let running = false;
  let again: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const run = (reason: string): void => {
    if (running) {
      again = reason;
      return;
    }
    running = true;
    reload(reason).finally(() => {
      running = false;
      if (again !== undefined) {
        const r = again;
        again = undefined;
        run(r);
      }
    });
  };
  const onHup = (): void => run('SIGHUP');
  process.on('SIGHUP', onHup);

  let watcher: FSWatcher | undefined;
  if (file !== undefined) {
    const name = basename(file);
    try {
      watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed.toString() !== name) return;
        clearTimeout(timer);
        timer = setTimeout(() => run('file change'), debounceMs);
      });
      watcher.on('error', () => watcher?.close());
    } catch {
      watcher = undefined; // a folder that cannot be watched: SIGHUP still works
    }
  }
  return {
    close(): void {
      process.off('SIGHUP', onHup);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
