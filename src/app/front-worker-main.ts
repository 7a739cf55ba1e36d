/** The entry module node:cluster forks for each front-end worker (docs/workers.md; cluster-server.ts). */
import { setFlagsFromString } from 'node:v8';
import { frontWorkerMain } from './front-worker.ts';

// As in `rtserve serve` (cli/serve-command.ts): a queued request's objects die young instead of being pretenured.
setFlagsFromString('--no-allocation-site-pretenuring');
frontWorkerMain();
