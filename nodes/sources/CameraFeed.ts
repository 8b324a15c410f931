/**
 * A camera's frames as ffmpeg decodes them, kept live: one ffmpeg child at a time writes PAM frames to a pipe that is
 * read as fast as they come (a live camera is never made to wait), the newest frame held for the consumer (Newest).
 * When the camera drops (ffmpeg ends, or sends nothing for `stallMs`; a first frame is given 5 s at least), it is
 * opened again after a delay that doubles from `retryMs` to `retryMaxMs`, from `retryMs` again once a frame came;
 * after `attempts` tries in a row without a frame the feed fails. A file is read at its own frame rate and ends the
 * feed where it ends.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { DecodeError } from '../../src/core/errors.js';
import type { CameraInput } from './cameraInput.js';
import { ffmpegMessage } from './ffmpegMessage.js';
import { ffmpegStartError } from './fromVideoFile.js';
import type { PixelImage } from './fromPixels.js';
import { Newest } from './Newest.js';
import { PamReader } from './PamReader.js';

/** The least time a connection is given for its first frame: opening, probing, waiting for a keyframe. */
const firstFrameMs = 5000;

export interface CameraFeedSettings {
  format: 'gray' | 'rgba';
  ffmpeg: string;
  /** Frames a second to take at most (ffmpeg's fps filter); 0: every frame the camera sends. */
  fps: number;
  /** Scale every frame to this size; null: as sent. */
  size: readonly [number, number] | null;
  stallMs: number;
  retryMs: number;
  retryMaxMs: number;
  attempts: number;
  rtspTransport: 'tcp' | 'udp';
  loop: boolean;
}

export interface CameraStats {
  /** Frames emitted. */
  delivered: number;
  /** Frames the camera sent that were replaced by a newer one before the chain could take them. */
  dropped: number;
  /** Times a connection gave a first frame. */
  connects: number;
  /** Times a connection ended or stalled (a file's end is not one), or failed to open. */
  failures: number;
  state: 'idle' | 'connecting' | 'live' | 'waiting' | 'ended' | 'failed';
}

export type CameraStatus =
  | { type: 'connected'; connects: number }
  | { type: 'disconnected'; reason: string; attempt: number; retryInMs: number };

export class CameraFeed {
  readonly frames: Newest<PixelImage>;
  #child: ChildProcessByStdio<null, Readable, Readable> | null = null;
  #stopped = false;
  #wake: (() => void) | null = null;

  constructor(
    private readonly input: CameraInput,
    private readonly s: CameraFeedSettings,
    private readonly stats: CameraStats,
    private readonly onStatus: (status: CameraStatus) => void,
  ) {
    this.frames = new Newest<PixelImage>(() => stats.dropped++);
    void this.#run().catch((e) => this.#fail(e));
  }

  /** Kills ffmpeg and ends the frames. */
  stop(): void {
    this.#stopped = true;
    this.#child?.kill('SIGKILL');
    this.#wake?.();
    this.frames.end();
  }

  #fail(e: unknown): void {
    this.stats.state = 'failed';
    this.#child?.kill('SIGKILL');
    this.frames.end(e);
  }

  async #run(): Promise<void> {
    const t0 = performance.now();
    let tries = 0;
    while (!this.#stopped) {
      this.stats.state = 'connecting';
      const r = await this.#session(t0);
      if (this.#stopped) return;
      if (this.input.kind === 'file' && !r.stalled) {
        if (r.code !== 0) throw new DecodeError(`${this.input.target}: ffmpeg could not read it (exit ${r.code}): ${r.message || 'no message'}`, this.input.target);
        this.stats.state = 'ended';
        this.frames.end();
        return;
      }
      tries = r.frames > 0 ? 1 : tries + 1;
      this.stats.failures++;
      const reason = r.stalled ? `no frame for ${this.s.stallMs} ms` : r.message || `ffmpeg exited (${r.code})`;
      if (tries > this.s.attempts) throw new DecodeError(`${this.input.target}: no frames in ${this.s.attempts} attempts in a row (${reason})`, this.input.target);
      const delay = Math.min(this.s.retryMaxMs, this.s.retryMs * 2 ** (tries - 1));
      this.stats.state = 'waiting';
      this.onStatus({ type: 'disconnected', reason, attempt: tries, retryInMs: delay });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  /** One connection: ffmpeg from start to exit (or killed for a stall). */
  #session(t0: number): Promise<{ frames: number; code: number | null; stalled: boolean; message: string }> {
    const { s, input } = this;
    const args = ['-v', 'error', '-nostdin'];
    if (input.scheme.startsWith('rtsp')) args.push('-rtsp_transport', s.rtspTransport);
    if (input.kind === 'file') args.push('-re', ...(s.loop ? ['-stream_loop', '-1'] : []));
    // A live stream is probed for half a second, so that its first frame comes about a second after connecting.
    else args.push('-analyzeduration', '500000', '-probesize', '1000000');
    args.push('-i', input.target, '-map', '0:v:0', '-an');
    const filters = [s.fps > 0 ? `fps=${s.fps}` : '', s.size ? `scale=${s.size[0]}:${s.size[1]}` : ''].filter(Boolean);
    if (filters.length) args.push('-vf', filters.join(','));
    args.push('-flush_packets', '1', '-f', 'image2pipe', '-c:v', 'pam', '-pix_fmt', s.format === 'rgba' ? 'rgba' : 'gray', '-');
    return new Promise((resolve, reject) => {
      const child = spawn(s.ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      this.#child = child;
      const reader = new PamReader();
      let frames = 0;
      let stalled = false;
      let stderr = '';
      let last = performance.now();
      const watch = setInterval(() => {
        if (performance.now() - last <= (frames === 0 ? Math.max(s.stallMs, firstFrameMs) : s.stallMs)) return;
        stalled = true;
        child.kill('SIGKILL');
      }, Math.max(10, Math.min(250, s.stallMs / 4)));
      child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
      child.stdout.on('data', (chunk: Buffer) => {
        try {
          reader.push(chunk, (f) => {
            last = performance.now();
            if (frames++ === 0) {
              this.stats.connects++;
              this.stats.state = 'live';
              this.onStatus({ type: 'connected', connects: this.stats.connects });
            }
            const timeUs = Math.round((last - t0) * 1000);
            this.frames.put({ width: f.width, height: f.height, format: f.depth === 4 ? 'rgba' : 'gray', data: f.data, timeUs });
          });
        } catch (e) {
          child.kill('SIGKILL');
          reject(new DecodeError(`${input.target}: ${(e as Error).message}`, input.target, { cause: e }));
        }
      });
      child.on('error', (e: NodeJS.ErrnoException) => {
        clearInterval(watch);
        reject(ffmpegStartError(input.target, e));
      });
      child.on('close', (code) => {
        clearInterval(watch);
        this.#child = null;
        resolve({ frames, code, stalled, message: ffmpegMessage(stderr) });
      });
    });
  }
}
