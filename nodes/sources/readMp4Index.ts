/**
 * An MP4's top-level boxes without its media data: what mp4box needs to describe and demux the video, read without
 * the frames (Node's files, browsers' Blobs). A recorder's file of a day runs to many GiB; Node reads at most 2 GiB
 * into one buffer and a browser tab not much more, so reading the file whole to find its index refused such files and
 * held the whole of any other in memory. The boxes are walked by their headers, and every box but the media data
 * (`mdat`) and padding (`free`, `skip`, `wide`) is read and kept in file order, so that the index (`moov`, or a
 * fragmented file's `moof`s) parses as it would in the whole file. A plain MP4's index gives its frames' offsets in
 * the file (`stco`), so they hold in what comes back; a fragmented file's may count from their fragment's own box,
 * which `fileOffset` places back in the file (demuxMp4).
 */

/** Up to `length` bytes of the file from `start` (fewer at its end). */
export type ReadRange = (start: number, length: number) => Promise<Uint8Array>;

/** Boxes that hold frames or nothing, skipped by their size. */
const skipped = new Set(['mdat', 'free', 'skip', 'wide']);

/** The boxes kept, one after another, and where a box that starts at `at` in them starts in the file. */
export interface Mp4Index {
  bytes: ArrayBuffer;
  fileOffset(at: number): number;
}

export async function readMp4Index(size: number, read: ReadRange): Promise<Mp4Index> {
  const kept: Uint8Array[] = [];
  /** Each kept box's start in the file. */
  const starts: number[] = [];
  let at = 0;
  while (at + 8 <= size) {
    const head = await read(at, 16);
    if (head.length < 8) break;
    const view = new DataView(head.buffer, head.byteOffset, head.length);
    const type = String.fromCharCode(head[4], head[5], head[6], head[7]);
    let boxSize = view.getUint32(0);
    // 1: the size is the 64-bit number after the type; 0: the box runs to the end of the file (a last mdat).
    if (boxSize === 1) boxSize = head.length === 16 ? Number(view.getBigUint64(8)) : 0;
    else if (boxSize === 0) boxSize = size - at;
    // Not a box: what is kept so far goes to mp4box, which says whether it found the index.
    if (boxSize < 8) break;
    // A box cut short by the file's end is kept as far as it goes: mp4box then finds it incomplete, as it would.
    if (!skipped.has(type)) {
      kept.push(await read(at, Math.min(boxSize, size - at)));
      starts.push(at);
    }
    at += boxSize;
  }
  const bytes = new Uint8Array(kept.reduce((n, k) => n + k.length, 0));
  /** Each kept box's start in `bytes`. */
  const places: number[] = [];
  let offset = 0;
  for (const k of kept) {
    places.push(offset);
    bytes.set(k, offset);
    offset += k.length;
  }
  const fileOffset = (place: number) => {
    // The last kept box starting at or before `place` (boxes are in order).
    let lo = 0;
    let hi = places.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (places[mid] <= place) lo = mid;
      else hi = mid - 1;
    }
    return places.length ? place - places[lo] + starts[lo] : place;
  };
  return { bytes: bytes.buffer, fileOffset };
}
