/**
 * Bounds how many frames a source has in flight (emitted but not yet read back). File sources wait for a free
 * place (every frame processed); live sources try and drop the frame when none is free (counted).
 */
export interface InFlightPlace {
  /** 0..capacity-1, unique among the places held at once: indexes a source's per-slot resources (uploads). */
  readonly slot: number;
  /** Frees the place. Idempotent. */
  release(): void;
}

export class InFlight {
  readonly capacity: number;
  #used = 0;
  #slots: number[];
  #waiters: (() => void)[] = [];
  #idle: (() => void)[] = [];
  #closed = false;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#slots = Array.from({ length: capacity }, (_, i) => capacity - 1 - i);
  }

  get inFlight(): number {
    return this.#used;
  }

  /** A lease when one is free now, else null. */
  tryAcquire(): InFlightPlace | null {
    if (this.#closed || this.#used >= this.capacity) return null;
    this.#used++;
    return this.#lease(this.#slots.pop()!);
  }

  /** Waits for a free place; resolves null if closed meanwhile. */
  acquire(): Promise<InFlightPlace | null> {
    const lease = this.tryAcquire();
    if (lease || this.#closed) return Promise.resolve(lease);
    return new Promise((resolve) => this.#waiters.push(() => resolve(this.tryAcquire())));
  }

  /** Resolves once no lease is held (at once if none is). */
  idle(): Promise<void> {
    if (this.#used === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Wakes every waiter with null; later acquisitions fail. */
  close(): void {
    this.#closed = true;
    const w = this.#waiters;
    this.#waiters = [];
    w.forEach((f) => f());
  }

  #lease(slot: number): InFlightPlace {
    let done = false;
    return {
      slot,
      release: () => {
        if (done) return;
        done = true;
        this.#used--;
        this.#slots.push(slot);
        this.#waiters.shift()?.();
        if (this.#used === 0) this.#idle.splice(0).forEach((f) => f());
      },
    };
  }
}
