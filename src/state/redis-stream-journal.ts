import type { Redis } from 'ioredis';
import type { JournalEntry, JournalMeta, StreamJournal, StreamJournalOptions, TailOutcome } from './stream-journal.ts';

/** Takes or renews the lease (KEYS[1]) for ARGV[1] when it is free or already ARGV[1]'s and the stream (KEYS[2]) exists. */
const CLAIM_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
local o = redis.call('GET', KEYS[1])
if (not o) or o == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * A stream journal in Redis, shared by every replica that points at it: per stream a hash with the request, a
 * Redis stream of its events (XADD in seq order; followers block in XREAD), and a lease key whose value is the
 * producing replica's id and whose expiry is the lease. Everything expires windowMs after the last event.
 */
export class RedisStreamJournal implements StreamJournal {
  private readonly blockMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly options: StreamJournalOptions & { readonly timeoutMs: number },
  ) {
    this.blockMs = Math.max(50, Math.min(1000, options.leaseMs));
  }

  private keys(id: string): { meta: string; events: string; owner: string } {
    const base = `${this.prefix}stream:{${id}}`;
    return { meta: base, events: `${base}:ev`, owner: `${base}:owner` };
  }

  async create(id: string, meta: JournalMeta, owner: string): Promise<void> {
    const k = this.keys(id);
    // A key used again (a WebSocket request id reused within its session) starts with no events of the old one.
    await this.redis
      .multi()
      .del(k.meta, k.events)
      .hset(k.meta, 'model', meta.model, 'version', meta.version ?? '', 'body', meta.body, 'principal', meta.principal ?? '')
      .pexpire(k.meta, this.options.windowMs)
      .set(k.owner, owner, 'PX', this.options.leaseMs)
      .exec();
  }

  async append(id: string, entry: JournalEntry): Promise<void> {
    const k = this.keys(id);
    await this.redis
      .multi()
      .xadd(k.events, '*', 'seq', String(entry.seq), 'chunk', entry.chunk, 'term', entry.terminal ? '1' : '0')
      .pexpire(k.events, this.options.windowMs)
      .pexpire(k.meta, this.options.windowMs)
      .exec();
  }

  async read(id: string, afterSeq: number): Promise<{ meta: JournalMeta; entries: JournalEntry[] } | undefined> {
    const k = this.keys(id);
    const [meta, raw] = await Promise.all([this.redis.hgetall(k.meta), this.redis.xrange(k.events, '-', '+')]);
    if (meta['model'] === undefined || meta['body'] === undefined) return undefined;
    const entries = raw.map(([, fields]) => toEntry(fields)).filter((e) => e.seq > afterSeq);
    return {
      meta: {
        model: meta['model'],
        ...(meta['version'] ? { version: meta['version'] } : {}),
        body: meta['body'],
        ...(meta['principal'] ? { principal: meta['principal'] } : {}),
      },
      entries,
    };
  }

  async tail(id: string, afterSeq: number, onEntry: (entry: JournalEntry) => void, signal: AbortSignal): Promise<TailOutcome> {
    const k = this.keys(id);
    // XREAD BLOCK holds its connection: one of its own per follower, closed when the follow ends.
    const conn = this.redis.duplicate({ commandTimeout: this.blockMs + this.options.timeoutMs });
    const onAbort = (): void => conn.disconnect();
    signal.addEventListener('abort', onAbort, { once: true });
    let lastId = '0';
    let after = afterSeq;
    try {
      for (;;) {
        if (signal.aborted) return 'aborted';
        const reply = await conn.xread('COUNT', 1000, 'BLOCK', this.blockMs, 'STREAMS', k.events, lastId);
        const items = reply?.[0]?.[1] ?? [];
        for (const [streamId, fields] of items) {
          lastId = streamId;
          const e = toEntry(fields);
          if (e.seq <= after) continue;
          after = e.seq;
          onEntry(e);
          if (e.terminal) return 'finished';
        }
        if (items.length > 0) continue;
        const [owner, exists] = await Promise.all([this.redis.exists(k.owner), this.redis.exists(k.meta)]);
        if (exists === 0) return 'expired';
        if (owner === 0) return 'orphaned';
      }
    } catch (err) {
      if (signal.aborted) return 'aborted';
      throw err;
    } finally {
      signal.removeEventListener('abort', onAbort);
      conn.disconnect();
    }
  }

  async claim(id: string, owner: string): Promise<boolean> {
    const k = this.keys(id);
    return (await this.redis.eval(CLAIM_SCRIPT, 2, k.owner, k.meta, owner, String(this.options.leaseMs))) === 1;
  }

  async release(id: string, owner: string): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 1, this.keys(id).owner, owner);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function toEntry(fields: string[]): JournalEntry {
  const m = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) m.set(fields[i] ?? '', fields[i + 1] ?? '');
  return { seq: Number(m.get('seq')), chunk: m.get('chunk') ?? '', terminal: m.get('term') === '1' };
}
