/**
 * Browser video decoding shared by `fromVideo`, `videoHasColor` and `videoBackground`: an MP4 (URL, Blob or
 * ArrayBuffer) demuxed with mp4box and decoded with WebCodecs' `VideoDecoder`, frames in presentation order, a few
 * ahead at most. The caller closes each frame it takes; leaving the loop early (a `break`) closes the decoder and the
 * frames still queued. A Blob (a File the user picked: a recording can run to many GiB), or a URL whose server answers
 * ranges, is read by its index and then a window of frames at a time, never whole; a URL whose server does not, or an
 * ArrayBuffer, is held whole. A file that ends inside its frames gives the frames before the cut, then a
 * `DecodeError`.
 */
import { DecodeError, InvalidOptionError } from '../../src/core/errors.js';
import { demuxMp4, type DemuxedMp4, type Mp4Chunk, type VideoInfo } from './probeVideo.js';
import { readMp4Index, type ReadRange } from './readMp4Index.js';

export interface DecodeVideoOptions {
  pacing?: 'as-fast-as-possible' | 'realtime';
  onInfo?: (info: VideoInfo) => void;
}

/**
 * Throws where WebCodecs is missing because this is Node (not a browser without it, which gets a DecodeError per
 * file): `who` decodes in the browser only, `instead` is what to use in Node.
 */
export function refuseNode(who: string, instead: string): void {
  if (typeof VideoDecoder === 'undefined' && typeof process !== 'undefined' && !!process.versions?.node) {
    throw new InvalidOptionError(`${who} decodes with the browser's WebCodecs, which Node lacks: in Node use ${instead} from 'flowmark/node' (ffmpeg)`);
  }
}

/** Encoded chunks in the decoder and decoded frames waiting, at most (each). */
const ahead = 4;

/** Bytes read at a time from a Blob or a URL by ranges, about as much as a few seconds of HD video. */
const windowBytes = 8 << 20;

/** A GET, its failures named; `range` asks for part of the file (a 416 answer is the caller's to read). */
async function get(url: string, name: string, range?: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, range ? { headers: { Range: range } } : {});
  } catch (cause) {
    throw new DecodeError(`${name}: download failed (${(cause as Error).message})`, name, { cause });
  }
  if (!response.ok && response.status !== 416) throw new DecodeError(`${name}: download failed (HTTP ${response.status})`, name);
  return response;
}

/** A response's bytes; a body too large for the page (a recording from a server that ignores ranges) is a DecodeError. */
async function bodyOf(response: Response, name: string): Promise<ArrayBuffer> {
  try {
    return await response.arrayBuffer();
  } catch (cause) {
    throw new DecodeError(`${name}: download failed (${(cause as Error).message})`, name, { cause });
  }
}

/** A source read in parts as asked (its size known), or held whole. */
type Opened = { size: number; read: ReadRange } | { whole: ArrayBuffer };

async function blobRange(blob: Blob, start: number, length: number, name: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await blob.slice(start, start + length).arrayBuffer());
  } catch (cause) {
    throw new DecodeError(`${name}: cannot read (${(cause as Error).message})`, name, { cause });
  }
}

/**
 * A URL read by ranges where the server answers them (206 with the file's size, as static servers and CDNs do; the
 * first window asked for is kept), else the whole answer: a server that ignores ranges sends the file.
 */
async function openUrl(url: string, name: string): Promise<Opened> {
  const first = await get(url, name, `bytes=0-${windowBytes - 1}`);
  // Content-Range must be exposed to read it across origins (Access-Control-Expose-Headers); unread, the file is
  // fetched whole.
  const size = first.status === 206 ? Number(/\/(\d+)$/.exec(first.headers.get('content-range') ?? '')?.[1] ?? NaN) : NaN;
  if (Number.isNaN(size)) {
    if (first.status === 200) return { whole: await bodyOf(first, name) };
    await first.body?.cancel();
    return { whole: await bodyOf(await get(url, name), name) };
  }
  const head = new Uint8Array(await bodyOf(first, name));
  const read: ReadRange = async (start, length) => {
    const end = Math.min(size, start + length);
    if (end <= head.length) return head.subarray(start, end);
    if (start >= end) return new Uint8Array(0);
    const part = await get(url, name, `bytes=${start}-${end - 1}`);
    if (part.status !== 206) throw new DecodeError(`${name}: the server stopped answering ranges (HTTP ${part.status})`, name);
    return new Uint8Array(await bodyOf(part, name));
  };
  return { size, read };
}

async function open(source: string | Blob | ArrayBuffer, name: string): Promise<Opened> {
  if (source instanceof ArrayBuffer) return { whole: source };
  if (typeof source === 'string') return openUrl(source, name);
  // An empty Blob: demuxMp4 says so.
  return source.size > 0 ? { size: source.size, read: (start, length) => blobRange(source, start, length, name) } : { whole: new ArrayBuffer(0) };
}

/** The video demuxed, and its frames' bytes (fewer than a frame's size where the file ends inside it). */
async function demux(source: string | Blob | ArrayBuffer, name: string): Promise<DemuxedMp4 & { bytes(chunk: Mp4Chunk): Promise<Uint8Array> }> {
  const opened = await open(source, name);
  if ('read' in opened) {
    const { size, read } = opened;
    const index = await readMp4Index(size, read);
    // Frames lie in file order as they are decoded: a window read once serves the frames in it.
    let window: { start: number; data: Uint8Array } = { start: 0, data: new Uint8Array(0) };
    const bytes = async (c: Mp4Chunk) => {
      if (c.offset < window.start || c.offset + c.size > window.start + window.data.length) window = { start: c.offset, data: await read(c.offset, Math.max(c.size, windowBytes)) };
      return window.data.subarray(c.offset - window.start, c.offset - window.start + c.size);
    };
    return { ...demuxMp4(index.bytes, name, index.fileOffset), bytes };
  }
  const { whole } = opened;
  const bytes = async (c: Mp4Chunk) => new Uint8Array(whole, Math.min(c.offset, whole.byteLength), Math.max(0, Math.min(c.size, whole.byteLength - c.offset)));
  return { ...demuxMp4(whole, name), bytes };
}

export async function* decodeVideoFrames(
  source: string | Blob | ArrayBuffer,
  options: DecodeVideoOptions,
  ready: () => Promise<void>,
  onInfo: (info: VideoInfo) => void,
): AsyncGenerator<VideoFrame> {
  const name = typeof source === 'string' ? source : 'video';
  const { info, config, chunks, bytes } = await demux(source, name);
  onInfo(info);
  options.onInfo?.(info);
  if (typeof VideoDecoder === 'undefined') throw new DecodeError(`${name}: this browser has no WebCodecs VideoDecoder`, name);
  const support = await VideoDecoder.isConfigSupported(config);
  if (!support.supported) throw new DecodeError(`${name}: this browser cannot decode ${config.codec}`, name);
  await ready();
  const out: VideoFrame[] = [];
  let failure: DecodeError | null = null;
  let wake: (() => void) | null = null;
  const decoder = new VideoDecoder({
    output: (frame) => {
      out.push(frame);
      wake?.();
    },
    error: (e) => {
      failure = new DecodeError(`${name}: decoding ${config.codec} failed (${e.message})`, name, { cause: e });
      wake?.();
    },
  });
  const waitForOutput = () => new Promise<void>((resolve) => (wake = resolve));
  decoder.configure(config);
  let next = 0;
  // Where the file ends inside a frame: the frames before it are decoded, and then the stream fails.
  let end = chunks.length;
  let emitted = 0;
  let flush: Promise<void> | null = null;
  let flushed = false;
  const start = performance.now();
  const first = chunks.reduce((m, c) => Math.min(m, c.timestamp), Infinity);
  try {
    for (;;) {
      while (next < end && decoder.decodeQueueSize < ahead && out.length < ahead) {
        const chunk = chunks[next];
        const data = await bytes(chunk);
        if (data.length < chunk.size) {
          end = next;
          break;
        }
        decoder.decode(new EncodedVideoChunk({ type: chunk.type, timestamp: chunk.timestamp, duration: chunk.duration, data }));
        next++;
      }
      if (failure) throw failure;
      if (out.length) {
        const frame = out.shift()!;
        if (options.pacing === 'realtime') {
          const due = start + (frame.timestamp - first) / 1000 - performance.now();
          if (due > 0) await new Promise((r) => setTimeout(r, due));
        }
        emitted++;
        yield frame;
        continue;
      }
      if (next < end) {
        await waitForOutput();
        continue;
      }
      if (!flushed) {
        // Every chunk is in: flushing makes the decoder give up the frames it holds for reordering.
        flush ??= decoder.flush().then(
          () => void (flushed = true),
          (e) => void (failure ??= new DecodeError(`${name}: decoding ${config.codec} failed (${(e as Error).message})`, name, { cause: e })),
        );
        await Promise.race([flush, waitForOutput()]);
        if (failure) throw failure;
        continue;
      }
      break;
    }
    const cut = end < chunks.length ? `: the file ends inside frame ${end + 1}` : '';
    if (emitted !== chunks.length) throw new DecodeError(`${name}: decoded ${emitted} of ${chunks.length} frames${cut}`, name);
  } finally {
    out.splice(0).forEach((f) => f.close());
    if (decoder.state !== 'closed') decoder.close();
  }
}
