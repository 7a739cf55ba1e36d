/**
 * A WebSocket front end of its own on a separate HTTP server, over a running server's core: tests that need
 * the front end's handle (sessions, connection counts) or a custom authentication hook use it.
 */
import type { AddressInfo } from 'node:net';
import type { InferenceApi } from '../../../src/api/inference-api.ts';
import { silentLogger } from '../../../src/observability/logger.ts';
import { createHttpServer } from '../../../src/transport/http/http-server.ts';
import type { WsAdmit, WsAuthenticate } from '../../../src/transport/ws/ws-auth.ts';
import { attachWsFrontEnd, type WsFrontEnd, type WsFrontEndConfig, type WsMetrics } from '../../../src/transport/ws/ws-server.ts';
import type { WsJournalOptions } from '../../../src/transport/ws/ws-journal.ts';

export const FRONT_END_DEFAULTS: WsFrontEndConfig = {
  wsMaxMessageBytes: 1 << 20,
  wsMaxInFlight: 64,
  wsHeartbeatIntervalMs: 0,
  wsIdleTimeoutMs: 0,
  wsMaxBufferedBytes: 1 << 20,
  wsResumeWindowMs: 0,
  wsResumeBufferBytes: 1 << 20,
  wsMaxPendingFrames: 1,
};

export interface TestFrontEnd {
  readonly url: string;
  readonly front: WsFrontEnd;
  close(): Promise<void>;
}

export async function startFrontEnd(
  api: InferenceApi,
  config: Partial<WsFrontEndConfig> = {},
  hooks: {
    readonly authenticate?: WsAuthenticate;
    readonly admit?: WsAdmit;
    readonly metrics?: WsMetrics;
    /** A shared stream journal (front ends on one journal are replicas of each other). */
    readonly journal?: WsJournalOptions;
  } = {},
): Promise<TestFrontEnd> {
  let front: WsFrontEnd | undefined;
  const app = await createHttpServer({
    api,
    logger: silentLogger(),
    maxBodyBytes: 1 << 20,
    extend: (a) => {
      front = attachWsFrontEnd(a, {
        api,
        logger: silentLogger(),
        config: { ...FRONT_END_DEFAULTS, ...config },
        ...(hooks.authenticate === undefined ? {} : { authenticate: hooks.authenticate }),
        ...(hooks.admit === undefined ? {} : { admit: hooks.admit }),
        ...(hooks.metrics === undefined ? {} : { metrics: hooks.metrics }),
        ...(hooks.journal === undefined ? {} : { journal: hooks.journal }),
      });
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    front: front as WsFrontEnd,
    close: () => app.close(),
  };
}
