/**
 * Reads an MP4's video track with mp4box: codec, stored and displayed size (the track header's rotation), frame
 * count, duration and every frame's presentation time (composition times in presentation order, shifted by the edit list as players do).
 * Works on any ArrayBuffer, so browsers and Node share it.
 */
import { createFile, DataStream, Endianness, MP4BoxBuffer, type ISOFile, type Sample, type Track } from 'mp4box';
import { DecodeError } from '../../src/core/errors.js';
import { displayTransform, type DisplayTransform } from './displayTransform.js';

export interface VideoInfo {
  /**
   * RFC 6381 codec string for MP4, e.g. `avc1.64000a`, `vp09.00.10.08`, `av01.0.00M.08`; for other containers (Node's
   * `probeVideoFile` only) ffmpeg's codec name, e.g. `h264`, `msmpeg4v3`.
   */
  codec: string;
  /** `mp4` for MP4 and QuickTime files (read by mp4box); for others ffmpeg's format name, e.g. `avi`, `matroska,webm`, `mpegts`. */
  container: string;
  /** The size frames are delivered in: as displayed, after the track's rotation (`display`). */
  width: number;
  height: number;
  /** The size as stored in the file (before the rotation; after the pixel aspect ratio). */
  storedWidth: number;
  storedHeight: number;
  /** The track header's turn (phones write a quarter turn for portrait video): frames arrive turned by it. */
  display: DisplayTransform;
  frames: number;
  durationUs: number;
  /** Presentation time of every frame, in presentation order, in microseconds. */
  timestampsUs: number[];
  /** Mean frames per second. */
  fps: number;
}

interface ParsedMp4 {
  info: VideoInfo;
  file: ISOFile;
  track: Track;
  samples: Sample[];
  /** Presentation time in µs of a composition time in track units. */
  timeUs(cts: number): number;
}

export function probeVideo(bytes: ArrayBuffer, source: string): VideoInfo {
  return parseMp4(bytes, source).info;
}

/** One encoded frame of the video track, and where its bytes lie in the file. */
export interface Mp4Chunk {
  type: 'key' | 'delta';
  timestamp: number;
  duration: number;
  offset: number;
  size: number;
}

/** Everything a WebCodecs `VideoDecoder` needs: its configuration and the encoded frames in decoding order. */
export interface DemuxedMp4 {
  info: VideoInfo;
  config: VideoDecoderConfig;
  chunks: Mp4Chunk[];
}

/**
 * Demuxes an MP4 from its bytes: the whole file, or its index alone (readMp4Index), whose `fileOffset` places a box
 * kept there back in the file. A plain file's frames lie where its index says (`stco`: offsets in the file); a
 * fragment's frames may lie at offsets counted from their fragment's box (`moof`), placed back by it.
 */
export function demuxMp4(bytes: ArrayBuffer, source: string, fileOffset: (at: number) => number = (at) => at): DemuxedMp4 {
  const { info, file, track, samples, timeUs } = parseMp4(bytes, source);
  const moofs = (file as unknown as { moofs: { start: number; trafs: { tfhd: { track_id: number; flags: number } }[] }[] }).moofs;
  // A fragment's frames count from its box unless its track's header gives a base offset (tfhd flag 1: in the file).
  const offsetOf = (s: Sample) => {
    const moof = s.moof_number ? moofs[s.moof_number - 1] : undefined;
    const traf = moof?.trafs.find((t) => t.tfhd.track_id === track.id);
    return moof && traf && !(traf.tfhd.flags & 1) ? s.offset - moof.start + fileOffset(moof.start) : s.offset;
  };
  // The decoder's description is the codec configuration box (avcC, hvcC, vpcC, av1C) without its box header.
  const entry = (file.getTrackById(track.id) as unknown as { mdia: { minf: { stbl: { stsd: { entries: Record<string, unknown>[] } } } } }).mdia.minf.stbl.stsd.entries[0];
  const box = (entry.avcC ?? entry.hvcC ?? entry.vpcC ?? entry.av1C) as { write(s: DataStream): void } | undefined;
  let description: Uint8Array | undefined;
  if (box) {
    const stream = new DataStream(undefined, 0, Endianness.BIG_ENDIAN);
    box.write(stream);
    description = new Uint8Array((stream as unknown as { buffer: ArrayBuffer }).buffer, 8);
  }
  const video = track.video!;
  return {
    info,
    // Decoded as stored; the source turns each frame as `info.display` says.
    config: { codec: track.codec, codedWidth: video.width, codedHeight: video.height, displayAspectWidth: info.storedWidth, displayAspectHeight: info.storedHeight, description },
    chunks: samples.map((s) => ({
      type: s.is_sync ? 'key' : 'delta',
      timestamp: timeUs(s.cts),
      duration: Math.round((s.duration * 1e6) / track.timescale),
      offset: offsetOf(s),
      size: s.size,
    })),
  };
}

function parseMp4(bytes: ArrayBuffer, source: string): ParsedMp4 {
  if (bytes.byteLength === 0) throw new DecodeError(`${source}: empty file`, source);
  const file = createFile();
  let failure: string | null = null;
  file.onError = (_module: string, message: string) => {
    failure = message;
  };
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(bytes, 0));
    file.flush();
  } catch (cause) {
    throw new DecodeError(`${source}: not a readable MP4 (${(cause as Error).message})`, source, { cause });
  }
  if (failure) throw new DecodeError(`${source}: not a readable MP4 (${failure})`, source);
  const movie = file.getInfo();
  if (!movie?.hasMoov) throw new DecodeError(`${source}: not an MP4 (no movie box; truncated or another format)`, source);
  const track = movie.videoTracks[0];
  if (!track) throw new DecodeError(`${source}: the file has no video track`, source);
  const samples = file.getTrackSamplesInfo(track.id);
  if (samples.length === 0) throw new DecodeError(`${source}: the video track has no frames`, source);
  if (samples.length < track.nb_samples) throw new DecodeError(`${source}: truncated (${samples.length} of ${track.nb_samples} frames present)`, source);
  const scale = track.timescale;
  // Edit list: an empty first edit delays the track; the first media edit starts at media_time.
  let delay = 0;
  let start = 0;
  for (const e of track.edits ?? []) {
    if (e.media_time === -1) delay += (e.segment_duration / track.movie_timescale) * scale;
    else {
      start = e.media_time;
      break;
    }
  }
  const timeUs = (cts: number) => Math.round(((cts - start + delay) * 1e6) / scale);
  const timestampsUs = samples
    .map((s) => s.cts)
    .sort((a, b) => a - b)
    .map(timeUs);
  const last = samples.reduce((m, s) => Math.max(m, s.cts + s.duration), 0);
  const durationUs = timeUs(last);
  const storedWidth = Math.round(track.track_width) || track.video!.width;
  const storedHeight = Math.round(track.track_height) || track.video!.height;
  const display = displayTransform(storedWidth, storedHeight, (track as { matrix?: ArrayLike<number> }).matrix);
  const info: VideoInfo = {
    codec: track.codec,
    container: 'mp4',
    width: display.width,
    height: display.height,
    storedWidth,
    storedHeight,
    display,
    frames: samples.length,
    durationUs,
    timestampsUs,
    fps: samples.length / (durationUs / 1e6),
  };
  return { info, file, track, samples, timeUs };
}
