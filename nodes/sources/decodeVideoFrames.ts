/**
 * Browser video decoding shared by `fromVideo` and `videoHasColor`: an MP4 (URL, Blob or ArrayBuffer) demuxed with
 * mp4box and decoded with WebCodecs' `VideoDecoder`, frames in presentation order, a few ahead at most. The caller
 * closes each frame it takes; leaving the loop early (a `break`) closes the decoder and the frames still queued.
 */
import { DecodeError, InvalidOptionError } from '../../src/errors.js';
import { demuxMp4, type VideoInfo } from './probeMp4.js';

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

async function bytesOf(source: string | Blob | ArrayBuffer, name: string): Promise<ArrayBuffer> {
  if (source instanceof ArrayBuffer) return source;
  if (typeof source !== 'string') return source.arrayBuffer();
  let response: Response;
  try {
    response = await fetch(source);
  } catch (cause) {
    throw new DecodeError(`${name}: download failed (${(cause as Error).message})`, name, { cause });
  }
  if (!response.ok) throw new DecodeError(`${name}: download failed (HTTP ${response.status})`, name);
  return response.arrayBuffer();
}

export async function* decodeVideoFrames(
  source: string | Blob | ArrayBuffer,
  options: DecodeVideoOptions,
  ready: () => Promise<void>,
  onInfo: (info: VideoInfo) => void,
): AsyncGenerator<VideoFrame> {
  const name = typeof source === 'string' ? source : 'video';
  const { info, config, chunks } = demuxMp4(await bytesOf(source, name), name);
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
  let emitted = 0;
  let flush: Promise<void> | null = null;
  let flushed = false;
  const start = performance.now();
  const first = chunks.reduce((m, c) => Math.min(m, c.timestamp), Infinity);
  try {
    for (;;) {
      while (next < chunks.length && decoder.decodeQueueSize < ahead && out.length < ahead) decoder.decode(new EncodedVideoChunk(chunks[next++]));
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
      if (next < chunks.length) {
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
    if (emitted !== chunks.length) throw new DecodeError(`${name}: decoded ${emitted} of ${chunks.length} frames`, name);
  } finally {
    out.splice(0).forEach((f) => f.close());
    if (decoder.state !== 'closed') decoder.close();
  }
}
