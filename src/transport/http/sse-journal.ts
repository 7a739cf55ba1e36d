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
import type { JournalEntry, JournalMeta } from '../../state/stream-journal.ts';
import { followJournal, journalStream, type JournalingOptions } from '../streaming/journaled-stream.ts';

export type SseJournalOptions = JournalingOptions;
export { journalStream };

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
  const client = new AbortController();
  raw.once('close', () => client.abort());
  const outcome = await followJournal(
    streamId,
    clientSeq,
    found,
    options,
    (e) => {
      if (!raw.destroyed) raw.write(e.chunk);
    },
    client.signal,
  );
  if (outcome.kind === 'takeover') {
    takeOver(raw, found.meta, outcome.sent, outcome.journaled);
    return;
  }
  if (!raw.writableEnded) raw.end();
}
