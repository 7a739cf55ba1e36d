/**
 * A stream journal keeps what a streaming client may come back for on any replica (docs/scaling.md): the stream's
 * request (to re-run it where its producer died), its events as sent on the wire (to replay them), and which
 * replica produces it (a lease the producer renews). The in-process replay buffers (src/transport/streaming/
 * stream-registry.ts) serve resumes on the replica that holds the stream; a journal serves them on the others:
 * replay what was journaled, follow the producer while it lives, and take the stream over when its lease lapses.
 *
 * Implementations: `MemoryStreamJournal` (one process; several servers in one process share it in tests) and
 * `RedisStreamJournal` (replicas).
 */
export interface JournalMeta {
  readonly model: string;
  readonly version?: string;
  /** The request as the producer ran it (JSON), with everything pinned that a re-run needs (the sampling seed). */
  readonly body: string;
  /** The principal that started the stream: only it may resume it (SSE; WebSocket requests keep theirs in `body`). */
  readonly principal?: string;
}

export interface JournalEntry {
  readonly seq: number;
  /** The event as written on the wire. */
  readonly chunk: string;
  /** The stream's last event. */
  readonly terminal: boolean;
}

export type TailOutcome =
  /** The terminal event was delivered. */
  | 'finished'
  /** Nobody holds the stream's lease any more: its producer is gone. */
  | 'orphaned'
  /** The signal was aborted (the client left). */
  | 'aborted'
  /** The stream left the journal (its window passed). */
  | 'expired';

export interface StreamJournal {
  /** Records a new stream, leased to `owner` for leaseMs; it stays resumable for windowMs after its last event. */
  create(id: string, meta: JournalMeta, owner: string): Promise<void>;
  /** Appends an event (callers append one stream's events in seq order). */
  append(id: string, entry: JournalEntry): Promise<void>;
  /** The stream's request and its journaled events with seq > afterSeq; undefined when the journal has no such stream. */
  read(id: string, afterSeq: number): Promise<{ meta: JournalMeta; entries: JournalEntry[] } | undefined>;
  /**
   * Delivers the events after afterSeq as they are appended, until the terminal one, until nobody holds the lease,
   * or until the signal aborts.
   */
  tail(id: string, afterSeq: number, onEntry: (entry: JournalEntry) => void, signal: AbortSignal): Promise<TailOutcome>;
  /** Takes the lease when it is free or already `owner`'s, renewing it; false when another owner holds it. */
  claim(id: string, owner: string): Promise<boolean>;
  /** Gives the lease up (the producer finished). */
  release(id: string, owner: string): Promise<void>;
  close(): Promise<void>;
}

export interface StreamJournalOptions {
  /** How long a lease lasts without renewal. */
  readonly leaseMs: number;
  /** How long a stream stays after its last event. */
  readonly windowMs: number;
}

interface MemoryStream {
  readonly meta: JournalMeta;
  readonly entries: JournalEntry[];
  owner: string | undefined;
  leaseUntilMs: number;
  expiresAtMs: number;
  readonly waiters: Set<() => void>;
}

/** A journal in this process's memory: what one replica needs, and what tests use to run two servers on one journal. */
export class MemoryStreamJournal implements StreamJournal {
  private readonly streams = new Map<string, MemoryStream>();

  constructor(private readonly options: StreamJournalOptions) {}

  private live(id: string): MemoryStream | undefined {
    const s = this.streams.get(id);
    if (s !== undefined && s.expiresAtMs <= Date.now()) {
      this.streams.delete(id);
      for (const w of s.waiters) w();
      return undefined;
    }
    return s;
  }

  create(id: string, meta: JournalMeta, owner: string): Promise<void> {
    const now = Date.now();
    this.streams.set(id, {
      meta,
      entries: [],
      owner,
      leaseUntilMs: now + this.options.leaseMs,
      expiresAtMs: now + this.options.windowMs,
      waiters: new Set(),
    });
    return Promise.resolve();
  }

  append(id: string, entry: JournalEntry): Promise<void> {
    const s = this.live(id);
    if (s !== undefined) {
      s.entries.push(entry);
      s.expiresAtMs = Date.now() + this.options.windowMs;
      for (const w of [...s.waiters]) w();
    }
    return Promise.resolve();
  }

  read(id: string, afterSeq: number): Promise<{ meta: JournalMeta; entries: JournalEntry[] } | undefined> {
    const s = this.live(id);
    return Promise.resolve(s === undefined ? undefined : { meta: s.meta, entries: s.entries.filter((e) => e.seq > afterSeq) });
  }

  async tail(id: string, afterSeq: number, onEntry: (entry: JournalEntry) => void, signal: AbortSignal): Promise<TailOutcome> {
    let after = afterSeq;
    for (;;) {
      if (signal.aborted) return 'aborted';
      const s = this.live(id);
      if (s === undefined) return 'expired';
      for (const e of s.entries) {
        if (e.seq <= after) continue;
        after = e.seq;
        onEntry(e);
        if (e.terminal) return 'finished';
      }
      const now = Date.now();
      if (s.owner === undefined || s.leaseUntilMs <= now) return 'orphaned';
      // Woken by an append, an abort, or the lease's end.
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          s.waiters.delete(done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, s.leaseUntilMs - now + 1);
        s.waiters.add(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  claim(id: string, owner: string): Promise<boolean> {
    const s = this.live(id);
    const now = Date.now();
    if (s === undefined || (s.owner !== undefined && s.owner !== owner && s.leaseUntilMs > now)) return Promise.resolve(false);
    s.owner = owner;
    s.leaseUntilMs = now + this.options.leaseMs;
    return Promise.resolve(true);
  }

  release(id: string, owner: string): Promise<void> {
    const s = this.live(id);
    if (s?.owner === owner) s.owner = undefined;
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const s of this.streams.values()) for (const w of s.waiters) w();
    this.streams.clear();
    return Promise.resolve();
  }
}
