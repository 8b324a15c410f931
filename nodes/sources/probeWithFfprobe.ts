/**
 * What a video file that is not an MP4 holds (AVI, Matroska, WebM, MPEG-TS, a raw H.264 stream: what CCTV recorders
 * and OpenCV's samples write), read by ffprobe, the probe that comes with ffmpeg: its first video stream's codec,
 * size and pixel aspect ratio, and every packet's presentation time, which give the frame count and timestamps as
 * mp4box gives them for MP4 (probeMp4.ts). Only the container is read; nothing is decoded.
 *
 * Timestamps count from the first frame shown (an MPEG-TS stream's clock starts anywhere); a stream with no times
 * (raw H.264) is timed by its frame rate.
 *
 * Errors: `DecodeError` for a file ffprobe cannot read as video, one without a video stream or frames, or no ffprobe.
 */
import { execFile } from 'node:child_process';
import { DecodeError } from '../../src/errors.js';
import { displayTransform } from './displayTransform.js';
import type { VideoInfo } from './probeMp4.js';

interface Probed {
  streams?: { codec_name?: string; width?: number; height?: number; sample_aspect_ratio?: string; avg_frame_rate?: string; r_frame_rate?: string }[];
  packets?: { pts_time?: string; dts_time?: string; size?: string }[];
  format?: { format_name?: string };
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

export async function probeWithFfprobe(path: string, ffprobe = 'ffprobe'): Promise<VideoInfo> {
  const sections = 'stream=codec_name,width,height,sample_aspect_ratio,avg_frame_rate,r_frame_rate:packet=pts_time,dts_time,size:format=format_name';
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', sections, '-of', 'json', path];
  const probed = await new Promise<Probed>((resolve, reject) =>
    execFile(ffprobe, args, { maxBuffer: 1 << 30 }, (error, stdout, stderr) => {
      if (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        const why = missing ? noFfprobe : `not a video ffmpeg can read (${stderr.trim().split('\n').at(-1) || error.message})`;
        reject(new DecodeError(`${path}: ${why}`, path, { cause: error }));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as Probed);
      } catch (cause) {
        reject(new DecodeError(`${path}: ffprobe wrote what is not JSON`, path, { cause }));
      }
    }),
  );
  const stream = probed.streams?.[0];
  if (!stream?.width || !stream.height) throw new DecodeError(`${path}: the file has no video track`, path);
  // Packets of no bytes are frames a recorder dropped (AVI keeps their place): ffmpeg decodes nothing for them.
  const packets = (probed.packets ?? []).filter((p) => Number(p.size) > 0);
  if (packets.length === 0) throw new DecodeError(`${path}: the video track has no frames`, path);
  const fps = rate(stream.avg_frame_rate) || rate(stream.r_frame_rate) || 25;
  const times = packets.map((p) => Number.parseFloat(p.pts_time ?? p.dts_time ?? ''));
  const timed = times.every(Number.isFinite);
  const sorted = timed ? times.sort((a, b) => a - b) : times.map((_, i) => i / fps);
  const timestampsUs = sorted.map((t) => Math.round((t - sorted[0]) * 1e6));
  // The pixel aspect ratio stretches the stored width, as an MP4 track header's width does.
  const [sarW, sarH] = (stream.sample_aspect_ratio ?? '1:1').split(':').map(Number);
  const storedWidth = sarW > 0 && sarH > 0 ? Math.round((stream.width * sarW) / sarH) : stream.width;
  const storedHeight = stream.height;
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
    frames: packets.length,
    durationUs,
    timestampsUs,
    fps: packets.length / (durationUs / 1e6),
  };
}
