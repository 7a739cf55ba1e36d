/**
 * A doubly linked list whose nodes are handed back to the caller, so that a queued request can leave its queue
 * in O(1) when it is cancelled, times out or is taken into a batch (an array would make each removal O(n)).
 */
export interface ListNode<T> {
  readonly value: T;
  prev: ListNode<T> | undefined;
  next: ListNode<T> | undefined;
  /** The list that holds the node, or undefined once it was removed. */
  owner: LinkedList<T> | undefined;
}

export class LinkedList<T> {
  private first: ListNode<T> | undefined;
  private last: ListNode<T> | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get head(): ListNode<T> | undefined {
    return this.first;
  }

  /** Appends at the tail and returns the node (keep it to remove the value later). */
  push(value: T): ListNode<T> {
    const node: ListNode<T> = { value, prev: this.last, next: undefined, owner: this };
    if (this.last === undefined) this.first = node;
    else this.last.next = node;
    this.last = node;
    this.count += 1;
    return node;
  }

  /** Removes a node of this list; a node of another list (or one already removed) is left alone. */
  remove(node: ListNode<T>): boolean {
    if (node.owner !== this) return false;
    if (node.prev === undefined) this.first = node.next;
    else node.prev.next = node.next;
    if (node.next === undefined) this.last = node.prev;
    else node.next.prev = node.prev;
    node.prev = undefined;
    node.next = undefined;
    node.owner = undefined;
    this.count -= 1;
    return true;
  }

  shift(): T | undefined {
    const node = this.first;
    if (node === undefined) return undefined;
    this.remove(node);
    return node.value;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let n = this.first; n !== undefined; n = n.next) yield n.value;
  }
}
