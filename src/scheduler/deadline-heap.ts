/**
 * An indexed binary min-heap keyed by a deadline in ns. Each entry remembers its position, so that a request
 * leaving the queue early (dispatched, cancelled) is removed in O(log n) instead of lingering until it expires.
 */
export interface HeapEntry {
  deadlineNs: bigint;
  /** Position in the heap; -1 when not in one. Owned by the heap. */
  heapIndex: number;
}

export class DeadlineHeap<T extends HeapEntry> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(entry: T): void {
    entry.heapIndex = this.items.length;
    this.items.push(entry);
    this.up(entry.heapIndex);
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (top !== undefined) this.remove(top);
    return top;
  }

  remove(entry: T): boolean {
    const i = entry.heapIndex;
    if (i < 0 || this.items[i] !== entry) return false;
    const last = this.items.pop() as T;
    entry.heapIndex = -1;
    if (last !== entry) {
      this.items[i] = last;
      last.heapIndex = i;
      this.down(i);
      this.up(last.heapIndex);
    }
    return true;
  }

  private at(i: number): T {
    return this.items[i] as T;
  }

  private swap(i: number, j: number): void {
    const a = this.at(i);
    const b = this.at(j);
    this.items[i] = b;
    this.items[j] = a;
    a.heapIndex = j;
    b.heapIndex = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.at(parent).deadlineNs <= this.at(i).deadlineNs) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < n && this.at(l).deadlineNs < this.at(min).deadlineNs) min = l;
      if (r < n && this.at(r).deadlineNs < this.at(min).deadlineNs) min = r;
      if (min === i) return;
      this.swap(i, min);
      i = min;
    }
  }
}
