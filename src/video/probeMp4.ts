/**
 * Reads an MP4's video track with mp4box: codec, display size, frame count, duration and every frame's
 * presentation time (composition times in presentation order, shifted by the edit list as players do).
 * Works on any ArrayBuffer, so browsers and Node share it.
 */
import { createFile, MP4BoxBuffer } from 'mp4box';
import { DecodeError } from '../errors.js';

export interface VideoInfo {
  /** RFC 6381 codec string, e.g. `avc1.64000a`, `vp09.00.10.08`, `av01.0.00M.08`. */
  codec: string;
  width: number;
  height: number;
  frames: number;
  durationUs: number;
  /** Presentation time of every frame, in presentation order, in microseconds. */
  timestampsUs: number[];
  /** Mean frames per second. */
  fps: number;
}

export function probeMp4(bytes: ArrayBuffer, source: string): VideoInfo {
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
  const info = file.getInfo();
  if (!info?.hasMoov) throw new DecodeError(`${source}: not an MP4 (no movie box; truncated or another format)`, source);
  const track = info.videoTracks[0];
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
  const timestampsUs = samples
    .map((s) => s.cts)
    .sort((a, b) => a - b)
    .map((cts) => Math.round(((cts - start + delay) * 1e6) / scale));
  const last = samples.reduce((m, s) => Math.max(m, s.cts + s.duration), 0);
  const durationUs = Math.round(((last - start + delay) * 1e6) / scale);
  return {
    codec: track.codec,
    width: Math.round(track.track_width) || track.video!.width,
    height: Math.round(track.track_height) || track.video!.height,
    frames: samples.length,
    durationUs,
    timestampsUs,
    fps: samples.length / (durationUs / 1e6),
  };
}
