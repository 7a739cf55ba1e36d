/**
 * A front-end worker's channel to an engine owner, both in this process (docs/workers.md): a real single-process
 * server's request pipeline behind a real OwnerHub on a Unix socket, and the worker's end connected to it
 * (cluster/worker-link.ts), for tests of what crosses the channel and what the owner does for it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../src/app/rtserve-server.ts';
import { serverConfigSchema, type ServerConfigInput } from '../../src/config/server-config.ts';
import { OwnerHub, type OwnerHubOptions } from '../../src/cluster/owner-hub.ts';
import { connectToOwner, type WorkerLink } from '../../src/cluster/worker-link.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { workerRequestCheck } from '../../src/app/worker-validation.ts';
import { startTestServer } from './server.ts';

export interface OwnerLink {
  readonly server: RunningServer;
  readonly hub: OwnerHub;
  readonly link: WorkerLink;
  close(): Promise<void>;
}

/** `workerChecks` false: the worker sends every request to the owner (no app/worker-validation.ts checks). */
export async function ownerLink(
  overrides: Partial<ServerConfigInput> = {},
  { workerChecks = true, ...hubOptions }: Partial<OwnerHubOptions> & { workerChecks?: boolean } = {},
): Promise<OwnerLink> {
  const server = await startTestServer(overrides);
  const dir = await mkdtemp(join(tmpdir(), 'rtserve-owner-link-'));
  const hub = await OwnerHub.listen({
    // The server's request pipeline: the InferenceApi an owner serves its workers (it streams too).
    api: server.api as OwnerHubOptions['api'],
    registry: server.metrics.registry,
    logger: silentLogger(),
    socketPath: join(dir, 'owner.sock'),
    stateChanges: server.repository,
    ...hubOptions,
  });
  // The limits a worker process gets in its config (the owner's own, from the same settings).
  const config = serverConfigSchema.parse(overrides);
  const link = await connectToOwner(
    hub.socketPath,
    1,
    {
      collectMetrics: async () => [],
      beginDrain: () => undefined,
      finishDrain: async () => undefined,
      ownerGone: () => undefined,
    },
    // As a worker process checks requests (app/front-worker.ts).
    workerChecks
      ? workerRequestCheck({ maxInputsPerRequest: config.maxInputsPerRequest, maxElementsPerTensor: config.maxElementsPerTensor })
      : undefined,
  );
  return {
    server,
    hub,
    link,
    close: async () => {
      link.close();
      await hub.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
