/**
 * What a video file that is not an MP4 holds (AVI, Matroska, WebM, MPEG-TS, a raw H.264 stream: what CCTV recorders
 * and OpenCV's samples write), read by ffprobe, the probe that comes with ffmpeg: its first video stream's codec,
 * size and pixel aspect ratio, and every packet's presentation time, which give the frame count and timestamps as
 * mp4box gives them for MP4 (probeVideo.ts). Only the container is read; nothing is decoded.
 *
 * Timestamps count from the first frame shown (an MPEG-TS stream's clock starts anywhere); a stream with no times
 * (raw H.264) is timed by its frame rate.
 *
 * Errors: `DecodeError` for a file ffprobe cannot read as video, one without a video stream or frames, or no ffprobe.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { DecodeError } from '../../src/core/errors.js';
import { displayTransform } from './displayTransform.js';
import type { VideoInfo } from './probeVideo.js';

interface Probed {
  stream: Record<string, string> | null;
  format: Record<string, string> | null;
  /** Presentation times of the packets that hold bytes, in seconds (NaN where the container keeps none). */
  times: number[];
}

/** What a source says when the ffprobe executable is missing. */
export const noFfprobe = 'ffprobe (part of ffmpeg) was not found; install ffmpeg (Debian: apt-get install ffmpeg; `npm test` does)';

/** ffprobe beside a given ffmpeg executable (`/opt/ff/ffmpeg` → `/opt/ff/ffprobe`), else the one on the PATH. */
export const ffprobeBeside = (ffmpeg: string | undefined) => (ffmpeg && /ffmpeg(\.exe)?$/.test(ffmpeg) ? ffmpeg.replace(/ffmpeg(\.exe)?$/, 'ffprobe$1') : 'ffprobe');

/** A rate as ffprobe writes it ("30000/1001"); 0 where it is unknown ("0/0"). */
function rate(text: string | undefined): number {
  const [n, d] = (text ?? '').split('/').map(Number);
  return d > 0 && n > 0 ? n / d : 0;
}

/** A field of one compact line ("packet|pts_time=0.04|dts_time=0.04|size=243"); ffprobe writes "N/A" for none. */
function field(parts: string[], key: string): string | undefined {
  const prefix = `${key}=`;
  const part = parts.find((p) => p.startsWith(prefix));
  const value = part?.slice(prefix.length);
  return value === undefined || value === 'N/A' ? undefined : value;
}

/** A section's line as its fields. */
function record(parts: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of parts.slice(1)) {
    const at = p.indexOf('=');
    if (at > 0) out[p.slice(0, at)] = p.slice(at + 1);
  }
  return out;
}

/**
 * Runs ffprobe and reads its compact output a line at a time, keeping of each packet only its time: a recorder's
 * file of a day or a week holds millions of packets, which as one JSON text (over 100 bytes a packet) ran past
 * what Node holds in one string (2^29 characters, about two days at 25 frames/s) and held gigabytes on the way.
 */
function runFfprobe(path: string, ffprobe: string): Promise<Probed> {
  const sections = 'stream=codec_name,width,height,sample_aspect_ratio,avg_frame_rate,r_frame_rate:packet=pts_time,dts_time,size:format=format_name';
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', sections, '-of', 'compact', path];
  return new Promise<Probed>((resolve, reject) => {
    const probed: Probed = { stream: null, format: null, times: [] };
    const child = spawn(ffprobe, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    // The end of what it said is enough to say why it failed.
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4096)));
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const parts = line.split('|');
      if (parts[0] === 'packet') {
        // Packets of no bytes are frames a recorder dropped (AVI keeps their place): ffmpeg decodes nothing for them.
        if (!(Number(field(parts, 'size')) > 0)) return;
        probed.times.push(Number.parseFloat(field(parts, 'pts_time') ?? field(parts, 'dts_time') ?? ''));
      } else if (parts[0] === 'stream') {
        probed.stream ??= record(parts);
      } else if (parts[0] === 'format') {
        probed.format = record(parts);
      }
    });
    let error: NodeJS.ErrnoException | null = null;
    child.on('error', (e) => (error = e));
    // 'close' comes after the output's last line has been read and the process has exited (or failed to start).
    child.on('close', (code, signal) => {
      if (error || code !== 0) {
        const missing = error?.code === 'ENOENT';
        const why = missing ? noFfprobe : `not a video ffmpeg can read (${stderr.trim().split('\n').at(-1) || error?.message || (signal ? `ffprobe was stopped by ${signal}` : `ffprobe exited with ${String(code)}`)})`;
        reject(new DecodeError(`${path}: ${why}`, path, error ? { cause: error } : undefined));
        return;
      }
      resolve(probed);
    });
  });
}

export async function probeWithFfprobe(path: string, ffprobe = 'ffprobe'): Promise<VideoInfo> {
  const probed = await runFfprobe(path, ffprobe);
  const stream: Partial<Record<string, string>> = probed.stream ?? {};
  const width = Number(stream.width);
  const height = Number(stream.height);
  if (!(width > 0 && height > 0)) throw new DecodeError(`${path}: the file has no video track`, path);
  const frames = probed.times.length;
  if (frames === 0) throw new DecodeError(`${path}: the video track has no frames`, path);
  const fps = rate(stream.avg_frame_rate) || rate(stream.r_frame_rate) || 25;
  const times = probed.times;
  const timed = times.every(Number.isFinite);
  const sorted = timed ? times.sort((a, b) => a - b) : times.map((_, i) => i / fps);
  const timestampsUs = sorted.map((t) => Math.round((t - sorted[0]) * 1e6));
  // The pixel aspect ratio stretches the stored width, as an MP4 track header's width does.
  const [sarW, sarH] = (stream.sample_aspect_ratio ?? '1:1').split(':').map(Number);
  const storedWidth = sarW > 0 && sarH > 0 ? Math.round((width * sarW) / sarH) : width;
  const storedHeight = height;
  // Shown as stored: these containers carry no turn that ffmpeg 5.1 reads (phones' turns are in MP4 and MOV).
  const display = displayTransform(storedWidth, storedHeight);
  const durationUs = timestampsUs.at(-1)! + Math.round(1e6 / fps);
  return {
    codec: stream.codec_name ?? 'unknown',
    container: probed.format?.format_name ?? 'unknown',
    width: display.width,
    height: display.height,
    storedWidth,
    storedHeight,
    display,
    frames,
    durationUs,
    timestampsUs,
    fps: frames / (durationUs / 1e6),
  };
}
