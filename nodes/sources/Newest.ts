/**
 * A one-place mailbox for a live source: the producer puts frames as they arrive and never waits; the consumer takes
 * the newest. A frame not taken before the next arrives is replaced and counted (`onDrop`), so nothing queues however
 * far the consumer falls behind. Async-iterable: iteration ends at `end()`, or fails with the error given to it (after
 * the frame still held).
 */
export class Newest<T> implements AsyncIterableIterator<T> {
  #held: { item: T } | null = null;
  #waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  #ended = false;
  #error: { e: unknown } | null = null;

  constructor(private readonly onDrop: (item: T) => void = () => undefined) {}

  /** Hands `item` to a waiting consumer, or holds it in place of the one held (dropped). Ignored once ended. */
  put(item: T): void {
    if (this.#ended) return;
    const w = this.#waiter;
    if (w) {
      this.#waiter = null;
      w.resolve({ value: item, done: false });
      return;
    }
    if (this.#held) this.onDrop(this.#held.item);
    this.#held = { item };
  }

  /** No more frames: the consumer gets the one held, then the end (or `error`). */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (error !== undefined) this.#error = { e: error };
    const w = this.#waiter;
    this.#waiter = null;
    if (!w) return;
    if (this.#error) w.reject(this.#error.e);
    else w.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    const held = this.#held;
    if (held) {
      this.#held = null;
      return Promise.resolve({ value: held.item, done: false });
    }
    if (this.#error) return Promise.reject(this.#error.e);
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }

  /** The consumer stopped: what is held is dropped and later puts are ignored. */
  return(): Promise<IteratorResult<T>> {
    this.#held = null;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
