/**
 * A session's side of the shared journal (ws-journal.ts): records its streaming requests for other replicas, and
 * relays the requests it does not hold from the journal to its client (while their producer lives) until it
 * takes them over (when their producer is gone).
 */
import type { RtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import type { JournalEntry } from '../../state/stream-journal.ts';
import { journalStream } from '../streaming/journaled-stream.ts';
import type { StreamEvent } from '../streaming/stream-registry.ts';
import { encodeWsEvent } from './ws-event-encoding.ts';
import {
  findWsRequest,
  relayFromJournal,
  toJournalChunk,
  wsJournalKey,
  wsJournalMeta,
  type FoundWsRequest,
  type WsJournalOptions,
} from './ws-journal.ts';
import type { WsRequestEntry, WsSessionPort, WsTakeOver } from './ws-session-types.ts';

interface Relay {
  readonly controller: AbortController;
  /** The last seq the client has. */
  sent: number;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class WsRelays {
  private readonly relays = new Map<string, Relay>();

  constructor(
    private readonly journal: WsJournalOptions,
    private readonly session: WsSessionPort,
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.relays.size;
  }

  has(id: string): boolean {
    return this.relays.has(id);
  }

  /**
   * Journals a streaming request: records it (unless taken over: its record is there), then its events, as the
   * connection writes them. A journal that fails leaves the request resumable on this replica only.
   */
  record(
    entry: WsRequestEntry,
    event: Readonly<Record<string, unknown>>,
    version: string | undefined,
    takeOver: WsTakeOver | undefined,
  ): Promise<void> {
    const key = wsJournalKey(this.session.id, entry.id);
    const begin = (): void => {
      const source = { id: entry.id, mode: entry.stream.mode, encoding: entry.encoding };
      const format = (e: StreamEvent): string => toJournalChunk(encodeWsEvent(source, e, undefined, this.logger));
      entry.journal = journalStream(entry.stream, this.journal, format, takeOver?.journaled ?? 0, key);
    };
    if (takeOver !== undefined) {
      begin();
      return Promise.resolve();
    }
    const body = { event, binaryOutputs: entry.encoding.binaryDefault === true, subject: this.session.principal.subject ?? '' };
    return this.journal.journal
      .create(key, wsJournalMeta(entry.request?.model ?? '', version, body), this.journal.replicaId)
      .then(begin, (err: unknown) => {
        this.logger.warn({ key, err: message(err) }, 'WebSocket journal: cannot record the request');
      });
  }

  /**
   * Resumes request `id` from the journal: relays its events after `after` while another replica produces it, and
   * takes it over when that replica is gone. `found`: the journal's record, when already read. `expired` is told
   * when the journal has no such request for this principal (or it left the journal while followed).
   */
  start(id: string, after: number, expired: (id: string) => void, found?: FoundWsRequest): void {
    this.relays.get(id)?.controller.abort();
    const relay: Relay = { controller: new AbortController(), sent: after };
    this.relays.set(id, relay);
    const current = (): boolean => this.relays.get(id) === relay;
    const write = (e: JournalEntry): void => {
      relay.sent = e.seq;
      this.session.attachedSink?.deliverJournaled?.(e.chunk);
    };
    const run = async (): Promise<void> => {
      const request = found ?? (await findWsRequest(this.journal, this.session.id, id, this.session.principal.subject ?? ''));
      if (!current()) return;
      if (request === undefined) {
        this.relays.delete(id);
        expired(id);
        return;
      }
      const outcome = await relayFromJournal(this.journal, this.session.id, id, after, request, write, relay.controller.signal);
      if (!current()) return;
      this.relays.delete(id);
      this.session.attachedSink?.touch();
      if (outcome.kind === 'expired') expired(id);
      if (outcome.kind !== 'takeover') return;
      this.session.submit(request.body.event, undefined, undefined, {
        sent: outcome.sent,
        journaled: outcome.journaled,
        binaryOutputs: request.body.binaryOutputs,
      });
    };
    run().catch((err: unknown) => {
      this.logger.warn({ session: this.session.id, id, err: message(err) }, 'WebSocket journal: resume failed');
      if (!current()) return;
      this.relays.delete(id);
      expired(id);
    });
  }

  /**
   * `cancel` of a relayed request: this replica stops relaying it and the client gets its CANCELLED terminal event
   * (the replica producing it finishes it on its own). False when `id` is not relayed here.
   */
  cancel(id: string, err: RtError): boolean {
    const relay = this.relays.get(id);
    if (relay === undefined) return false;
    this.relays.delete(id);
    relay.controller.abort();
    const event: StreamEvent = { kind: 'error', error: err, seq: relay.sent + 1 };
    this.session.attachedSink?.deliverJournaled?.(toJournalChunk(encodeWsEvent({ id, mode: 'stream', encoding: {} }, event, undefined, this.logger)));
    return true;
  }

  /** The socket went away (or another took the session): relays stop; a resume starts them again from the journal. */
  stopAll(): void {
    for (const relay of this.relays.values()) relay.controller.abort();
    this.relays.clear();
  }
}
