/**
 * Work arrays the tracker keeps from frame to frame, grown when a frame needs more and never shrunk (typed arrays
 * past 64 bytes live outside V8's heap, and allocating them per frame cost more than the work done in them), and
 * lists kept in them.
 */
type Typed = Int32Array | Float64Array | Uint8Array;

/** `a` if it holds `n` entries, else a larger array of its kind (contents not kept). */
export function atLeast<T extends Typed>(a: T, n: number): T {
  return a.length >= n ? a : new (a.constructor as new (n: number) => T)(Math.max(n, 2 * a.length));
}

/** `a` twice as long, its contents kept. */
export function doubled<T extends Typed>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(2 * a.length);
  b.set(a);
  return b;
}

/**
 * Appends `item` to the list of `key`, lists kept in order in flat arrays: a key's first item in head[key] (-1 for
 * none), its last in tail[key], the item after x in next[x]. A key's first item also lists the key in keys[count];
 * returns the number of keys listed.
 */
export function appendToList(head: Int32Array, tail: Int32Array, next: Int32Array, keys: Int32Array, count: number, key: number, item: number): number {
  next[item] = -1;
  if (head[key] < 0) {
    head[key] = item;
    keys[count++] = key;
  } else {
    next[tail[key]] = item;
  }
  tail[key] = item;
  return count;
}
