/**
 * Work arrays the tracker keeps from frame to frame, grown when a frame needs more and never shrunk: typed arrays
 * past 64 bytes live outside V8's heap, and allocating them per frame cost more than the work done in them.
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
