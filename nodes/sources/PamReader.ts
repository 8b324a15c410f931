/**
 * Splits a stream of PAM images (what `ffmpeg -f image2pipe -c:v pam` writes: a short text header, then the pixels)
 * into frames. Each header gives the frame's size, so a camera that changes its resolution mid-stream is read right.
 * A frame's pixels are copied once, chunk by chunk, into a buffer of their own.
 */
export interface PamFrame {
  width: number;
  height: number;
  /** Bytes a pixel: 1 (GRAYSCALE) or 4 (RGB_ALPHA). */
  depth: number;
  data: Uint8Array;
}

const end = Buffer.from('ENDHDR\n');
/** Longer than any header ffmpeg writes; past it the stream is not PAM. */
const maxHeader = 256;

export class PamReader {
  #head: Buffer = Buffer.alloc(0);
  #frame: PamFrame | null = null;
  #filled = 0;

  /** Reads `chunk`, calling `emit` for each frame it completes. Throws on a stream that is not PAM. */
  push(chunk: Uint8Array, emit: (frame: PamFrame) => void): void {
    let at = 0;
    while (at < chunk.length) {
      const frame = this.#frame;
      if (!frame) {
        const take = chunk.subarray(at, at + maxHeader);
        const head = this.#head.length ? Buffer.concat([this.#head, take]) : Buffer.from(take.buffer, take.byteOffset, take.length);
        const stop = head.indexOf(end);
        if (stop < 0) {
          if (head.length >= maxHeader) throw new Error('not a PAM stream (no header end)');
          this.#head = Buffer.from(head);
          at += take.length;
          continue;
        }
        at += stop + end.length - this.#head.length;
        this.#head = Buffer.alloc(0);
        this.#frame = parseHeader(head.toString('latin1', 0, stop));
        this.#filled = 0;
        continue;
      }
      const n = Math.min(frame.data.length - this.#filled, chunk.length - at);
      frame.data.set(chunk.subarray(at, at + n), this.#filled);
      this.#filled += n;
      at += n;
      if (this.#filled === frame.data.length) {
        this.#frame = null;
        emit(frame);
      }
    }
  }
}

function parseHeader(text: string): PamFrame {
  const lines = text.split('\n').map((l) => l.trim());
  if (lines[0] !== 'P7') throw new Error('not a PAM stream (no P7)');
  const field = (name: string) => {
    const line = lines.find((l) => l.startsWith(`${name} `));
    const v = line ? Number(line.slice(name.length + 1)) : NaN;
    if (!Number.isInteger(v) || v < 1) throw new Error(`PAM header without a valid ${name}`);
    return v;
  };
  const width = field('WIDTH');
  const height = field('HEIGHT');
  const depth = field('DEPTH');
  if (field('MAXVAL') !== 255 || (depth !== 1 && depth !== 4)) throw new Error(`PAM of depth ${depth}, maxval ${field('MAXVAL')}: 8-bit gray or RGBA expected`);
  return { width, height, depth, data: new Uint8Array(width * height * depth) };
}
