import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { modelConfigSchema } from '../../../src/config/model-config.ts';
import type { ModelConfigInput } from '../../../src/config/model-config.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { DeadlineHeap } from '../../../src/scheduler/deadline-heap.ts';
import { LinkedList } from '../../../src/scheduler/linked-list.ts';
import type { ListNode } from '../../../src/scheduler/linked-list.ts';
import { priorityLevelOf, queueTimeoutUsOf, resolveSchedulingPolicy } from '../../../src/scheduler/queue-policy.ts';
import type { LevelPolicy } from '../../../src/scheduler/queue-policy.ts';
import { RequestQueue } from '../../../src/scheduler/request-queue.ts';
import type { QueueEntry } from '../../../src/scheduler/request-queue.ts';
import { fuzzParams } from '../../helpers/fuzz.ts';

interface Item extends QueueEntry {
  readonly id: string;
}

let nextId = 0;
function item(level: number, key?: string, deadlineNs?: bigint): Item {
  return {
    id: `i${nextId++}`,
    level,
    key,
    hasDeadline: deadlineNs !== undefined,
    deadlineNs: deadlineNs ?? 0n,
    heapIndex: -1,
    expired: false,
    levelNode: undefined,
    keyNode: undefined,
  };
}

const policy = (level: number, timeoutAction: 'REJECT' | 'DELAY' = 'REJECT'): LevelPolicy => ({
  level,
  maxQueueSize: 100,
  defaultTimeoutUs: 0,
  allowTimeoutOverride: false,
  timeoutAction,
});

describe('LinkedList', () => {
  test('push, remove from the middle and ends, shift, iterate', () => {
    const l = new LinkedList<number>();
    const nodes: ListNode<number>[] = [1, 2, 3, 4].map((v) => l.push(v));
    assert.equal(l.remove(nodes[1] as ListNode<number>), true);
    assert.equal(l.remove(nodes[1] as ListNode<number>), false, 'a node is removed once');
    assert.deepEqual([...l], [1, 3, 4]);
    l.remove(nodes[3] as ListNode<number>);
    assert.deepEqual([...l], [1, 3]);
    assert.equal(l.shift(), 1);
    assert.equal(l.shift(), 3);
    assert.equal(l.shift(), undefined);
    assert.equal(l.size, 0);
    assert.equal(l.head, undefined);
    const other = new LinkedList<number>();
    const n = other.push(9);
    assert.equal(l.remove(n), false, 'a node of another list is left alone');
    assert.equal(other.size, 1);
  });
});

describe('DeadlineHeap', () => {
  test('pops in deadline order under random pushes and removals (model check)', (t) => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 50n }), fc.boolean()), { maxLength: 60 }), (ops) => {
        const heap = new DeadlineHeap<{ deadlineNs: bigint; heapIndex: number }>();
        const live: { deadlineNs: bigint; heapIndex: number }[] = [];
        for (const [deadlineNs, removeOne] of ops) {
          const e = { deadlineNs, heapIndex: -1 };
          heap.push(e);
          live.push(e);
          if (removeOne && live.length > 0) {
            const victim = live.splice(Number(deadlineNs) % live.length, 1)[0];
            assert.ok(victim !== undefined && heap.remove(victim));
            assert.equal(heap.remove(victim), false);
          }
        }
        assert.equal(heap.size, live.length);
        const popped: bigint[] = [];
        for (let e = heap.pop(); e !== undefined; e = heap.pop()) popped.push(e.deadlineNs);
        assert.deepEqual(
          popped,
          live.map((e) => e.deadlineNs).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        );
      }),
      fuzzParams(t),
    );
  });
});

describe('RequestQueue', () => {
  test('head is the oldest entry of the highest level; removal keeps order', () => {
    const q = new RequestQueue<Item>([policy(1), policy(2), policy(3)]);
    const a = item(3);
    const b = item(2);
    const c = item(2);
    const d = item(1);
    for (const e of [a, b, c, d]) q.push(e);
    assert.equal(q.size, 4);
    assert.equal(q.levelSize(2), 2);
    assert.equal(q.head(), d);
    assert.ok(q.remove(d));
    assert.equal(q.remove(d), false);
    assert.equal(q.head(), b);
    q.remove(b);
    assert.equal(q.head(), c);
    q.remove(c);
    assert.equal(q.head(), a);
    q.remove(a);
    assert.equal(q.head(), undefined);
    assert.equal(q.size, 0);
  });

  test('forEachWithKey visits only that key, in priority then FIFO order, and stops when asked', () => {
    const q = new RequestQueue<Item>([policy(1), policy(2)]);
    const entries = [item(2, 'A'), item(2, 'B'), item(1, 'B'), item(1, 'A'), item(2, 'A'), item(1, 'A')];
    for (const e of entries) q.push(e);
    const seen: string[] = [];
    q.forEachWithKey('A', (e) => {
      seen.push(e.id);
      return true;
    });
    const [a0, , , a3, a4, a5] = entries;
    assert.deepEqual(seen, [a3?.id, a5?.id, a0?.id, a4?.id]);
    let visits = 0;
    q.forEachWithKey('A', () => ++visits < 2);
    assert.equal(visits, 2);
  });

  test('expire: REJECT entries leave the queue; DELAY entries go behind live ones of their level', () => {
    const q = new RequestQueue<Item>([policy(1, 'DELAY'), policy(2, 'REJECT')]);
    const d1 = item(1, 'k', 10n);
    const d2 = item(1, 'k');
    const d3 = item(1, 'k', 30n);
    const r1 = item(2, 'k', 10n);
    const r2 = item(2, 'k', 40n);
    for (const e of [d1, d2, d3, r1, r2]) q.push(e);
    assert.equal(q.nextDeadlineNs(), 10n);
    assert.deepEqual(q.expire(9n), []);
    const rejected = q.expire(10n);
    assert.deepEqual(rejected, [r1]);
    assert.equal(q.size, 4);
    assert.ok(d1.expired);
    assert.equal(q.head(), d2);
    const order: Item[] = [];
    q.forEachWithKey('k', (e) => {
      order.push(e);
      return true;
    });
    assert.deepEqual(order, [d2, d3, d1, r2]);
    q.expire(35n);
    order.length = 0;
    q.forEachWithKey('k', (e) => {
      order.push(e);
      return true;
    });
    assert.deepEqual(order, [d2, d1, d3, r2], 'delayed entries keep the order in which they expired');
    assert.equal(q.nextDeadlineNs(), 40n);
    q.remove(r2);
    assert.equal(q.nextDeadlineNs(), undefined, 'removing an entry removes its deadline');
  });

  test('removeAll returns everything in scheduling order and empties the queue', () => {
    const q = new RequestQueue<Item>([policy(1), policy(2)]);
    const a = item(2, 'x', 5n);
    const b = item(1, 'y');
    q.push(a);
    q.push(b);
    assert.deepEqual(q.removeAll(), [b, a]);
    assert.equal(q.size, 0);
    assert.equal(q.head(), undefined);
    assert.equal(q.nextDeadlineNs(), undefined);
  });

  test('thousands of entries with many keys: gathering one key never visits another', () => {
    const q = new RequestQueue<Item>([policy(1)]);
    const n = 20_000;
    for (let i = 0; i < n; i++) q.push(item(1, `k${i % 50}`, BigInt(i)));
    let visits = 0;
    q.forEachWithKey('k7', () => {
      visits += 1;
      return true;
    });
    assert.equal(visits, n / 50);
    // Remove everything from the middle outwards; the queue stays consistent.
    const all = q.removeAll();
    assert.equal(all.length, n);
    assert.equal(q.size, 0);
  });
});

describe('queue policy', () => {
  const config = (c: Omit<ModelConfigInput, 'name'>) => modelConfigSchema.parse({ name: 'm', ...c });

  test('no dynamic_batching: one bounded level without timeouts', () => {
    const p = resolveSchedulingPolicy(config({}), 77);
    assert.deepEqual(p, {
      levels: [{ level: 1, maxQueueSize: 77, defaultTimeoutUs: 0, allowTimeoutOverride: false, timeoutAction: 'REJECT' }],
      defaultLevel: 1,
      preserveOrdering: false,
    });
  });

  test('per-level policies override the default policy; max_queue_size 0 becomes the server default', () => {
    const p = resolveSchedulingPolicy(
      config({
        max_batch_size: 4,
        dynamic_batching: {
          priority_levels: 3,
          default_priority_level: 2,
          preserve_ordering: true,
          default_queue_policy: { max_queue_size: 5, default_timeout_microseconds: 100 },
          priority_queue_policy: { '3': { timeout_action: 'DELAY', max_queue_size: 0 } },
        },
      }),
      50,
    );
    assert.equal(p.defaultLevel, 2);
    assert.equal(p.preserveOrdering, true);
    assert.deepEqual(
      p.levels.map((l) => [l.level, l.maxQueueSize, l.defaultTimeoutUs, l.timeoutAction]),
      [
        [1, 5, 100, 'REJECT'],
        [2, 5, 100, 'REJECT'],
        [3, 50, 0, 'DELAY'],
      ],
    );
  });

  test('invalid priority settings are BAD_CONFIG', () => {
    const bad = (db: Record<string, unknown>) => () => resolveSchedulingPolicy(config({ max_batch_size: 4, dynamic_batching: db }), 10);
    const isBadConfig = (e: unknown) => e instanceof RtError && e.code === 'BAD_CONFIG';
    assert.throws(bad({ priority_levels: 2, default_priority_level: 0 }), isBadConfig);
    assert.throws(bad({ priority_levels: 2, default_priority_level: 3 }), isBadConfig);
    assert.throws(bad({ priority_levels: 2, default_priority_level: 1, priority_queue_policy: { '3': {} } }), isBadConfig);
    assert.throws(bad({ priority_queue_policy: { '1': {} } }), isBadConfig);
    assert.throws(() => resolveSchedulingPolicy(config({}), 0), isBadConfig);
  });

  test('priority parameter: 0/absent = default, 1..levels, numeric strings; others BAD_PARAMETER', () => {
    const p = resolveSchedulingPolicy(config({ max_batch_size: 4, dynamic_batching: { priority_levels: 3, default_priority_level: 2 } }), 10);
    assert.equal(priorityLevelOf(undefined, p, 'm'), 2);
    assert.equal(priorityLevelOf({ priority: 0 }, p, 'm'), 2);
    assert.equal(priorityLevelOf({ priority: 1 }, p, 'm'), 1);
    assert.equal(priorityLevelOf({ priority: '3' }, p, 'm'), 3);
    const isBadParam = (e: unknown) => e instanceof RtError && e.code === 'BAD_PARAMETER' && /priority/.test(e.message);
    for (const priority of [4, -1, 1.5, 'high', true]) {
      assert.throws(() => priorityLevelOf({ priority }, p, 'm'), isBadParam, String(priority));
    }
    const single = resolveSchedulingPolicy(config({}), 10);
    assert.equal(priorityLevelOf({ priority: 1 }, single, 'm'), 1);
    assert.throws(() => priorityLevelOf({ priority: 2 }, single, 'm'), isBadParam);
  });

  test('timeout parameter only lowers the default, and only where override is allowed', () => {
    const lvl = (defaultTimeoutUs: number, allowTimeoutOverride: boolean): LevelPolicy => ({
      ...policy(1),
      defaultTimeoutUs,
      allowTimeoutOverride,
    });
    assert.equal(queueTimeoutUsOf({ timeout: 10 }, lvl(50, true)), 10);
    assert.equal(queueTimeoutUsOf({ timeout: 100 }, lvl(50, true)), 50, 'cannot raise it');
    assert.equal(queueTimeoutUsOf({ timeout: 10 }, lvl(50, false)), 50, 'ignored without allow_timeout_override');
    assert.equal(queueTimeoutUsOf({ timeout: 10 }, lvl(0, true)), 10, 'a model without timeout: any timeout lowers');
    assert.equal(queueTimeoutUsOf({ timeout: 10 }, lvl(0, false)), 0);
    assert.equal(queueTimeoutUsOf({ timeout: '20' }, lvl(0, true)), 20);
    assert.equal(queueTimeoutUsOf({ timeout: 0 }, lvl(50, true)), 50);
    assert.equal(queueTimeoutUsOf(undefined, lvl(50, true)), 50);
    assert.throws(
      () => queueTimeoutUsOf({ timeout: -5 }, lvl(50, false)),
      (e: unknown) => e instanceof RtError && e.code === 'BAD_PARAMETER',
    );
  });
});
