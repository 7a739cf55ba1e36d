import { DeadlineHeap } from './deadline-heap.ts';
import type { HeapEntry } from './deadline-heap.ts';
import { LinkedList } from './linked-list.ts';
import type { ListNode } from './linked-list.ts';
import type { LevelPolicy } from './queue-policy.ts';

/** What the queue needs to know about a queued request. */
export interface QueueEntry extends HeapEntry {
  /** Priority level, 1 = highest. */
  readonly level: number;
  /** Batch compatibility key (see batch-tensors.ts `batchKey`); undefined when the queue does not group. */
  readonly key: string | undefined;
  /** Set when the entry has a queue timeout; `deadlineNs` is then meaningful. */
  readonly hasDeadline: boolean;
  /** True once a DELAY-policy timeout moved it behind the requests that have not timed out. */
  expired: boolean;
  /** Owned by the queue. */
  levelNode: ListNode<this> | undefined;
  /** Owned by the queue. */
  keyNode: ListNode<this> | undefined;
}

interface Lane<T> {
  /** Entries that have not timed out, FIFO. */
  readonly live: LinkedList<T>;
  /** Entries whose DELAY timeout passed: served after every live entry of the level, FIFO by expiry. */
  readonly delayed: LinkedList<T>;
}

interface Level<T> extends Lane<T> {
  readonly policy: LevelPolicy;
  /** The same entries again, per batch key, so that gathering a batch never walks incompatible requests. */
  readonly byKey: Map<string, Lane<T>>;
}

const newLane = <T>(): Lane<T> => ({ live: new LinkedList<T>(), delayed: new LinkedList<T>() });

/**
 * The scheduler's queue: one FIFO per priority level (Triton: each level FIFO, higher levels first), each with a
 * tail of DELAY-expired requests, plus an index of deadlines. Every operation is O(1) or O(log n) in the number
 * of queued requests (O(levels) to find the head), and gathering the requests compatible with the head visits
 * only those.
 */
export class RequestQueue<T extends QueueEntry> {
  private readonly levels: Level<T>[];
  private readonly deadlines = new DeadlineHeap<T>();
  private count = 0;

  constructor(policies: readonly LevelPolicy[]) {
    this.levels = policies.map((policy) => ({ policy, byKey: new Map(), ...newLane<T>() }));
  }

  get size(): number {
    return this.count;
  }

  levelSize(level: number): number {
    const l = this.levels[level - 1];
    return l === undefined ? 0 : l.live.size + l.delayed.size;
  }

  /** Appends an entry to its level (the caller checks the bound first). */
  push(entry: T): void {
    const level = this.level(entry.level);
    entry.expired = false;
    entry.levelNode = level.live.push(entry);
    if (entry.key !== undefined) {
      let lane = level.byKey.get(entry.key);
      if (lane === undefined) {
        lane = newLane<T>();
        level.byKey.set(entry.key, lane);
      }
      entry.keyNode = lane.live.push(entry);
    }
    if (entry.hasDeadline) this.deadlines.push(entry);
    this.count += 1;
  }

  /** Removes an entry wherever it is queued; false if it was not queued. */
  remove(entry: T): boolean {
    const levelNode = entry.levelNode;
    if (levelNode === undefined || levelNode.owner === undefined) return false;
    levelNode.owner.remove(levelNode);
    entry.levelNode = undefined;
    this.unlinkKey(entry);
    this.deadlines.remove(entry);
    this.count -= 1;
    return true;
  }

  /** The request that goes first: the oldest live entry of the highest non-empty level, else its delayed ones. */
  head(): T | undefined {
    for (const l of this.levels) {
      const v = l.live.head?.value ?? l.delayed.head?.value;
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /**
   * Visits the entries with batch key `key` in scheduling order (level 1 live, level 1 delayed, level 2 live,
   * ...) until `visit` returns false.
   */
  forEachWithKey(key: string, visit: (entry: T) => boolean): void {
    for (const l of this.levels) {
      const lane = l.byKey.get(key);
      if (lane === undefined) continue;
      for (let n = lane.live.head; n !== undefined; n = n.next) if (!visit(n.value)) return;
      for (let n = lane.delayed.head; n !== undefined; n = n.next) if (!visit(n.value)) return;
    }
  }

  /** The earliest queue deadline still pending, if any. */
  nextDeadlineNs(): bigint | undefined {
    return this.deadlines.peek()?.deadlineNs;
  }

  /**
   * Applies every timeout due at `nowNs`: REJECT-policy entries leave the queue and are returned (the caller
   * rejects them); DELAY-policy entries move behind the live entries of their level and stay queued.
   */
  expire(nowNs: bigint): T[] {
    const rejected: T[] = [];
    for (let top = this.deadlines.peek(); top !== undefined && top.deadlineNs <= nowNs; top = this.deadlines.peek()) {
      this.deadlines.pop();
      const level = this.level(top.level);
      if (level.policy.timeoutAction === 'REJECT') {
        this.remove(top);
        rejected.push(top);
        continue;
      }
      if (top.levelNode !== undefined) level.live.remove(top.levelNode);
      top.levelNode = level.delayed.push(top);
      if (top.key !== undefined) {
        const lane = level.byKey.get(top.key);
        if (lane !== undefined && top.keyNode !== undefined) {
          lane.live.remove(top.keyNode);
          top.keyNode = lane.delayed.push(top);
        }
      }
      top.expired = true;
    }
    return rejected;
  }

  /** Empties the queue and returns everything that was in it, in scheduling order. */
  removeAll(): T[] {
    const all: T[] = [];
    for (const l of this.levels) {
      for (const e of l.live) all.push(e);
      for (const e of l.delayed) all.push(e);
    }
    for (const e of all) this.remove(e);
    return all;
  }

  private level(level: number): Level<T> {
    const l = this.levels[level - 1];
    if (l === undefined) throw new RangeError(`no priority level ${level}`);
    return l;
  }

  private unlinkKey(entry: T): void {
    const node = entry.keyNode;
    entry.keyNode = undefined;
    if (node === undefined || node.owner === undefined || entry.key === undefined) return;
    node.owner.remove(node);
    const level = this.level(entry.level);
    const lane = level.byKey.get(entry.key);
    // Drop empty lanes so that many distinct shapes over time do not pile up empty maps.
    if (lane !== undefined && lane.live.size === 0 && lane.delayed.size === 0) level.byKey.delete(entry.key);
  }
}
