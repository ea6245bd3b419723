interface Node<V> {
  readonly key: string;
  value: V;
  prev: Node<V> | undefined;
  next: Node<V> | undefined;
}

/**
 * Entries in least-recently-used order: a Map for lookups and a doubly linked
 * list for the order, so moving an entry to the back or dropping the oldest
 * costs a few pointer moves. (Re-inserting into a Map to reorder it leaves
 * holes V8 skips one by one when the oldest key is asked for: O(size) each.)
 */
export class LruList<V> {
  private readonly nodes = new Map<string, Node<V>>();
  private head: Node<V> | undefined;
  private tail: Node<V> | undefined;

  get size(): number {
    return this.nodes.size;
  }

  /** The value, without counting it as use. */
  peek(key: string): V | undefined {
    return this.nodes.get(key)?.value;
  }

  /** Sets the value and makes the entry the most recently used. */
  set(key: string, value: V): void {
    let node = this.nodes.get(key);
    if (node) {
      node.value = value;
      if (node === this.tail) return;
      this.unlink(node);
    } else {
      node = { key, value, prev: undefined, next: undefined };
      this.nodes.set(key, node);
    }
    node.prev = this.tail;
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
  }

  delete(key: string): void {
    const node = this.nodes.get(key);
    if (!node) return;
    this.unlink(node);
    this.nodes.delete(key);
  }

  /** Removes and returns the least recently used key. */
  shift(): string | undefined {
    const oldest = this.head;
    if (!oldest) return undefined;
    this.unlink(oldest);
    this.nodes.delete(oldest.key);
    return oldest.key;
  }

  /** Keys, least recently used first; deleting the key just visited is allowed. */
  *keys(): IterableIterator<string> {
    let node = this.head;
    while (node) {
      const next = node.next;
      yield node.key;
      node = next;
    }
  }

  clear(): void {
    this.nodes.clear();
    this.head = this.tail = undefined;
  }

  private unlink(node: Node<V>): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = undefined;
  }
}
