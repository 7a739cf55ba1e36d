/**
 * SSE streams across replicas (docs/scaling.md): with a shared stream journal (src/state/stream-journal.ts) every
 * event of a generate_stream is journaled as sent on the wire, and its producer holds a lease on it. A replica
 * that gets a Last-Event-ID for a stream it does not hold replays the journal after that id, follows the
 * producer while its lease lives, and when the lease lapses (the producer died) takes the stream over: it re-runs
 * the journaled request (its sampling seed pinned when the stream began, so the re-run produces the same events)
 * and sends only the events after the last one the client has. No event is lost and none is sent twice.
 */
import { randomInt } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { InferenceApi } from '../../api/inference-api.ts';
import type { Logger } from '../../observability/logger.ts';
import type { JournalEntry, JournalMeta, StreamJournal } from '../../state/stream-journal.ts';
import type { ReplayStream, StreamEvent } from '../streaming/stream-registry.ts';

export interface SseJournalOptions {
  readonly journal: StreamJournal;
  /** This replica's id in the stream leases. */
  readonly replicaId: string;
  /** Lease length; the producer renews a third of the way through. */
  readonly leaseMs: number;
  readonly logger: Logger;
}

/** The response head of every SSE stream, fresh or resumed. */
export function sseHead(streamId: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'rtserve-stream-id': streamId,
  };
}

/**
 * The generate body with a sampling seed fixed when a generative model would draw one at random, so that a
 * replica re-running the stream after its producer died draws the same tokens. Other bodies are returned as
 * they are (greedy decoding and ordinary models are deterministic already).
 */
export function pinSeed(api: InferenceApi, model: string, version: string | undefined, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'inputs' in body) return body;
  if (api.modelConfig(model, version).generate === undefined) return body;
  const b = body as Record<string, unknown>;
  const params = typeof b['parameters'] === 'object' && b['parameters'] !== null ? (b['parameters'] as Record<string, unknown>) : {};
  if ('seed' in params || 'random_seed' in params || 'seed' in b) return body;
  return { ...b, parameters: { ...params, seed: randomInt(2 ** 47) } };
}

/**
 * Journals `stream`'s events (those after `journaledThrough`, which the journal has already) with `format`, and
 * renews this replica's lease on it until its terminal event.
 */
export function journalStream(stream: ReplayStream, options: SseJournalOptions, format: (event: StreamEvent) => string, journaledThrough = 0): void {
  const { journal, replicaId, logger } = options;
  const fail =
    (what: string) =>
    (err: unknown): void =>
      logger.warn({ stream: stream.key, err: err instanceof Error ? err.message : String(err) }, `SSE journal: ${what} failed`);
  const renew = setInterval(
    () => {
      journal.claim(stream.key, replicaId).then((held) => {
        if (!held) clearInterval(renew);
      }, fail('lease renewal'));
    },
    Math.max(50, Math.floor(options.leaseMs / 3)),
  );
  renew.unref();
  stream.onPush = (event) => {
    const terminal = event.kind !== 'data' || stream.mode === 'single';
    if (event.seq > journaledThrough) journal.append(stream.key, { seq: event.seq, chunk: format(event), terminal }).catch(fail('append'));
    if (terminal) {
      clearInterval(renew);
      journal.release(stream.key, replicaId).catch(fail('lease release'));
    }
  };
}

/** Continue the stream here: re-run `meta`'s request, sending events after `sentThrough` on `raw`. */
export type TakeOver = (raw: ServerResponse, meta: JournalMeta, sentThrough: number, journaledThrough: number) => void;

/**
 * Serves a resume of a stream this replica does not hold from the journal: replays, follows, and takes over when
 * the producer is gone. `found` is the journal's read of the stream (all its entries).
 */
export async function resumeFromJournal(
  raw: ServerResponse,
  streamId: string,
  clientSeq: number,
  found: { meta: JournalMeta; entries: JournalEntry[] },
  options: SseJournalOptions,
  takeOver: TakeOver,
): Promise<void> {
  raw.writeHead(200, sseHead(streamId));
  raw.flushHeaders();
  let sent = clientSeq;
  let journaled = 0;
  let finished = false;
  const deliver = (e: JournalEntry): void => {
    journaled = Math.max(journaled, e.seq);
    if (e.terminal && e.seq <= sent) finished = true;
    if (e.seq <= sent || finished) return;
    sent = e.seq;
    if (!raw.destroyed) raw.write(e.chunk);
    if (e.terminal) finished = true;
  };
  for (const e of found.entries) deliver(e);
  const client = new AbortController();
  raw.once('close', () => client.abort());
  while (!finished && !client.signal.aborted) {
    const outcome = await options.journal.tail(streamId, sent, deliver, client.signal);
    if (outcome === 'finished' || outcome === 'aborted') break;
    if (outcome === 'expired') {
      options.logger.warn({ stream: streamId }, 'SSE journal: the stream expired while a client followed it');
      break;
    }
    // orphaned: its producer's lease lapsed. One replica wins the claim and re-runs it; the others keep following.
    if (await options.journal.claim(streamId, options.replicaId)) {
      options.logger.info({ stream: streamId, after: sent }, 'SSE journal: taking over a stream whose producer is gone');
      takeOver(raw, found.meta, sent, journaled);
      return;
    }
  }
  if (!raw.writableEnded) raw.end();
}
