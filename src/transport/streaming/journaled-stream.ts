/**
 * Streams across replicas, for both streaming front ends (docs/scaling.md): with a shared stream journal
 * (src/state/stream-journal.ts) the producing replica journals every event of a stream as its front end writes it
 * and holds a lease on the stream; a replica asked to resume a stream it does not hold replays the journal after
 * the client's cursor, follows the producer while its lease lives, and when the lease lapses (the producer died)
 * wins the claim and takes the stream over. SSE (src/transport/http/sse-journal.ts) and WebSocket
 * (src/transport/ws/ws-journal.ts) differ only in how an event is written and how a request is re-run.
 */
import type { Logger } from '../../observability/logger.ts';
import type { JournalEntry, JournalMeta, StreamJournal } from '../../state/stream-journal.ts';
import type { ReplayStream, StreamEvent } from './stream-registry.ts';

export interface JournalingOptions {
  readonly journal: StreamJournal;
  /** This replica's id in the stream leases. */
  readonly replicaId: string;
  /** Lease length; the producer renews a third of the way through. */
  readonly leaseMs: number;
  readonly logger: Logger;
}

/** A journaled stream's producer side. */
export interface JournalHandle {
  /**
   * Hands the stream off without ending it in the journal: no more events are journaled (a cancellation that
   * follows is not recorded), the lease is released, so a replica a client resumes on takes the stream over.
   */
  handOff(): void;
}

/**
 * Journals `stream`'s events under `key` (those after `journaledThrough`, which the journal has already) as
 * `format` writes them, and renews this replica's lease on it until its terminal event.
 */
export function journalStream(
  stream: ReplayStream,
  options: JournalingOptions,
  format: (event: StreamEvent) => string,
  journaledThrough = 0,
  key = stream.key,
): JournalHandle {
  const { journal, replicaId, logger } = options;
  const fail =
    (what: string) =>
    (err: unknown): void =>
      logger.warn({ stream: key, err: err instanceof Error ? err.message : String(err) }, `stream journal: ${what} failed`);
  const renew = setInterval(
    () => {
      journal.claim(key, replicaId).then((held) => {
        if (!held) clearInterval(renew);
      }, fail('lease renewal'));
    },
    Math.max(50, Math.floor(options.leaseMs / 3)),
  );
  renew.unref();
  const release = (): void => {
    clearInterval(renew);
    journal.release(key, replicaId).catch(fail('lease release'));
  };
  const onPush = (event: StreamEvent): void => {
    const terminal = event.kind !== 'data' || stream.mode === 'single';
    if (event.seq > journaledThrough) journal.append(key, { seq: event.seq, chunk: format(event), terminal }).catch(fail('append'));
    if (terminal) release();
  };
  stream.onPush = onPush;
  // Events pushed before the journal was attached (a request cancelled while it was being recorded) go in first.
  stream.replay(journaledThrough, (e) => onPush(e));
  return {
    handOff() {
      if (stream.onPush !== onPush || stream.finished) return;
      stream.onPush = undefined;
      release();
    },
  };
}

export type FollowOutcome =
  | { readonly kind: 'finished' | 'aborted' | 'expired' }
  /** The producer is gone and this replica holds the lease now: re-run the request, write events after `sent`. */
  | { readonly kind: 'takeover'; readonly sent: number; readonly journaled: number };

/**
 * Serves a resume from the journal: writes the journaled events after `clientSeq` (from `found`, the journal's read
 * of the whole stream), then those appended while the producer lives; when its lease lapses and this replica wins
 * the claim, returns 'takeover' with how far the client and the journal got. Every event reaches `write` once.
 */
export async function followJournal(
  key: string,
  clientSeq: number,
  found: { readonly meta: JournalMeta; readonly entries: readonly JournalEntry[] },
  options: JournalingOptions,
  write: (entry: JournalEntry) => void,
  signal: AbortSignal,
): Promise<FollowOutcome> {
  let sent = clientSeq;
  let journaled = 0;
  let finished = false;
  const deliver = (e: JournalEntry): void => {
    journaled = Math.max(journaled, e.seq);
    if (e.terminal && e.seq <= sent) finished = true;
    if (e.seq <= sent || finished) return;
    sent = e.seq;
    write(e);
    if (e.terminal) finished = true;
  };
  for (const e of found.entries) deliver(e);
  while (!finished && !signal.aborted) {
    const outcome = await options.journal.tail(key, sent, deliver, signal);
    if (outcome === 'finished' || outcome === 'aborted') break;
    if (outcome === 'expired') {
      options.logger.warn({ stream: key }, 'stream journal: the stream expired while a client followed it');
      return { kind: 'expired' };
    }
    // orphaned: its producer's lease lapsed. One replica wins the claim and re-runs it; the others keep following.
    if (await options.journal.claim(key, options.replicaId)) {
      options.logger.info({ stream: key, after: sent }, 'stream journal: taking over a stream whose producer is gone');
      return { kind: 'takeover', sent, journaled };
    }
  }
  return { kind: signal.aborted ? 'aborted' : 'finished' };
}
