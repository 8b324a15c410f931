/**
 * What a frame holds until its last submission has completed, and the one place it is given back.
 *
 * A frame's passes read and write buffers that operators keep from frame to frame. A later frame must not touch
 * them while this frame's work can still run: with `passes: 'until-converged'` a frame is submitted in several
 * batches, with `framesPerSubmit` several frames wait to be submitted together, and an asynchronous operator can
 * hold a frame while later ones go ahead. So every operator takes the buffers it writes for a frame from a
 * `PerFrame` set that the frame's lease holds, and the sink releases the lease once the frame's results are read
 * (their mapping completes after the frame's last submission). Releasing gives back, in reverse order of taking,
 * every set the operators took, the frame's profiler scope, and its in-flight place at the source.
 */
export class FrameLease {
  /** The source's in-flight slot (0..maxInFlight-1): indexes the source's own per-slot resources (uploads). */
  readonly slot: number;
  readonly #held: (() => void)[] = [];
  readonly #onRelease: () => void;
  #released = false;

  constructor(slot: number, onRelease: () => void) {
    this.slot = slot;
    this.#onRelease = onRelease;
  }

  /** Keeps something until the frame is done; `giveBack` runs when the lease is released (at once if it was). */
  hold(giveBack: () => void): void {
    if (this.#released) giveBack();
    else this.#held.push(giveBack);
  }

  /** Called by the sink once the frame's results are read, or when the frame is dropped or failed. Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    const held = this.#held.splice(0).reverse();
    try {
      for (const giveBack of held) giveBack();
    } finally {
      this.#onRelease();
    }
  }
}
