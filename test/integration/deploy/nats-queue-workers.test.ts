/**
 * The async inference queue with front-end workers (docs/workers.md, docs/scaling.md): with `--workers 2` the queue
 * worker runs in the engine owner (it consumes the broker, not the ports), so `asyncQueue` and workers combine.
 * Debian's nats-server is started by the test on a free loopback port with its own store; requests published to the
 * work queue are answered once each, on their reply subjects, by the owner's core, while the workers serve the ports.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { QUEUE_HEADERS, queueNames } from '../../../src/queue/nats-transport.ts';
import { postJson, startTestServer } from '../../helpers/server.ts';
import { freePort, needTool, waitFor } from '../ops/helpers.ts';
import { startProcess, stopProcess } from './processes.ts';

const PREFIX = `rtqw${process.pid}`;
const names = queueNames(PREFIX);

function simpleBody(base: number): { inputs: { name: string; datatype: string; shape: number[]; data: number[] }[] } {
  return {
    inputs: [
      { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: Array.from({ length: 16 }, (_, i) => base + i) },
      { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: new Array<number>(16).fill(1) },
    ],
  };
}

describe('async inference queue on NATS JetStream with two front-end workers', {
  skip: needTool('nats-server', 'nats-server'),
  timeout: 3 * 60_000,
}, () => {
  let tmp: string;
  let nats: ChildProcess | undefined;
  let server: RunningServer | undefined;
  let nc: NatsConnection;
  let js: JetStreamClient;
  const replies = new Map<string, string[]>();
  const inbox = `_INBOX.rtqw${process.pid}`;

  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'rtserve-nats-workers-'));
    const port = await freePort();
    const natsArgs = ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', join(tmp, 'js')];
    nats = await startProcess('nats-server', natsArgs, /Server is ready/, 'nats-server');
    server = await startTestServer({
      workers: 2,
      asyncQueue: {
        transport: 'nats',
        natsUrl: `nats://127.0.0.1:${port}`,
        subjectPrefix: PREFIX,
        maxInFlight: 4,
        ackWaitMs: 5000,
        maxDeliveries: 5,
      },
    });
    nc = await connect({ servers: `nats://127.0.0.1:${port}` });
    js = jetstream(nc);
    const sub = nc.subscribe(`${inbox}.>`);
    void (async () => {
      for await (const m of sub) {
        const key = m.subject.slice(inbox.length + 1);
        replies.set(key, [...(replies.get(key) ?? []), new TextDecoder().decode(m.data)]);
      }
    })();
  });

  after(async () => {
    await nc?.close();
    await server?.close();
    await stopProcess(nats);
    await rm(tmp, { recursive: true, force: true });
  });

  it('the owner consumes the queue: every request answered once, counted in the owner, while the workers serve', async () => {
    const s = server as RunningServer;
    assert.equal(s.workerPids?.().length, 2);
    const statsBefore = (await s.core.modelStatistics('simple'))[0]?.inference_count ?? 0;
    const N = 12;
    const keys = Array.from({ length: N }, (_, i) => `w-${i}`);
    for (const [i, key] of keys.entries()) {
      const h = natsHeaders();
      h.set(QUEUE_HEADERS.replyTo, `${inbox}.${key}`);
      h.set(QUEUE_HEADERS.key, key);
      const ack = await js.publish(names.requestSubject('simple'), new TextEncoder().encode(JSON.stringify(simpleBody(i * 100))), {
        msgID: key,
        headers: h,
      });
      assert.equal(ack.duplicate, false);
    }
    // The ports are the workers': they answer meanwhile.
    assert.equal((await postJson(`${s.httpUrl}/v2/models/simple/infer`, simpleBody(0))).status, 200);
    await waitFor(`all ${N} answers`, () => (keys.every((k) => replies.has(k)) ? true : undefined), 120_000, 20);
    for (const [i, key] of keys.entries()) {
      const got = replies.get(key) ?? [];
      assert.equal(got.length, 1, `${key}: answered once`);
      const body = JSON.parse(got[0] ?? '{}') as { outputs?: { name: string; data: number[] }[] };
      const sum = body.outputs?.find((o) => o.name === 'OUTPUT0')?.data;
      assert.deepEqual(
        sum,
        Array.from({ length: 16 }, (_, j) => i * 100 + j + 1),
        `${key}: INPUT0 + INPUT1`,
      );
    }
    // The queued requests and the one through a worker, all in the owner's statistics.
    await waitFor('the owner to count them', async () => {
      const n = (await s.core.modelStatistics('simple'))[0]?.inference_count ?? 0;
      return n >= statsBefore + N + 1 ? true : undefined;
    });
    assert.equal((await s.core.modelStatistics('simple'))[0]?.inference_count, statsBefore + N + 1);
  });
});
