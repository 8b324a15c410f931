// Network cameras and files read as cameras (fromCameraUrl): a white 8×8 square on black whose place tells which of
// the clip's 12 frames a frame is, served by real servers on localhost (an HTTP server streaming MPEG-TS, Debian's
// rtsp-server-perl with ffmpeg publishing to it). Drops, cuts, stalls and a camera that goes away and comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concatMap, firstValueFrom, lastValueFrom, take, timer, toArray, map } from 'rxjs';
import { DecodeError, InvalidOptionError, features, readResults, threshold, type FrameResult, type GpuContext } from '../../../index.js';
import { fromCameraUrl, type CameraStatus } from '../../../node.js';
import { testContext } from '../../support/gpu.js';
import { ffmpegsOn } from '../../support/processes.js';
import { freePort, httpCamera, rtspCamera } from '../../support/cameras.js';

let ctx: GpuContext;
let dir: string;

/** The clip's frames show the square with its top-left corner at (4 + 4k, 8 + 2k), k = 0..11 in turn. */
const square = (frames: number) =>
  `color=c=black:s=64x48:r=10:d=${frames / 10}[bg];color=c=white:s=8x8:r=10:d=${frames / 10}[sq];[bg][sq]overlay=x='4+4*mod(n\\,12)':y='8+2*mod(n\\,12)':eval=frame,format=yuv420p`;

beforeAll(async () => {
  ctx = await testContext();
  dir = mkdtempSync(join(tmpdir(), 'flowmark-cameras-'));
  const h264 = ['-c:v', 'libx264', '-g', '6', '-bf', '0', '-tune', 'zerolatency'];
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', square(12), ...h264, join(dir, 'square.mp4')]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', square(60), ...h264, '-f', 'mpegts', join(dir, 'square.ts')]);
}, 60_000);
afterAll(() => ctx?.destroy());

/** Which of the clip's 12 frames a result shows (the square's centre within 1 px of its place there), else -1. */
function frameOf(r: FrameResult): number {
  const f = r.features!;
  if (f.cx.length !== 1) return -1;
  const k = Math.round((f.cx[0] - 7.5) / 4);
  return k >= 0 && k < 12 && Math.abs(f.cx[0] - (7.5 + 4 * k)) <= 1 && Math.abs(f.cy[0] - (11.5 + 2 * k)) <= 1 ? k : -1;
}

const chain = () => [threshold({ level: 128 }), features(), readResults()] as const;

describe('fromCameraUrl', () => {
  it('refuses other schemes, malformed URLs and bad options at once', () => {
    for (const url of ['ftp://host/x', 'rtsp://', 'http://', '', 'udp://1.2.3.4:5'] as const) {
      expect(() => fromCameraUrl(ctx, url), url).toThrow(InvalidOptionError);
    }
    expect(() => fromCameraUrl(ctx, 42 as unknown as string)).toThrow(InvalidOptionError);
    const bad: object[] = [{ stallMs: 0 }, { retryMs: -1 }, { attempts: 1.5 }, { size: [65, 48] }, { size: [64] }, { fps: 'x' }, { rtspTransport: 'http' }, { format: 'bgr' }, { maxInFlight: 0 }, { onStatus: 3 }, { retries: 2 }];
    for (const o of bad) expect(() => fromCameraUrl(ctx, 'rtsp://127.0.0.1/x', o), JSON.stringify(o)).toThrow(InvalidOptionError);
  });

  it('reads a file as a camera: every frame in order, at its own rate, then completes', async () => {
    const cam = fromCameraUrl(ctx, join(dir, 'square.mp4'));
    const t0 = performance.now();
    const rs = await lastValueFrom(cam.pipe(...chain(), toArray()));
    const took = performance.now() - t0;
    // Each of the clip's 12 frames once, in order (where the square starts depends on ffmpeg's overlay, not on us).
    const frames = rs.map(frameOf);
    expect(new Set(frames).size).toBe(12);
    expect(frames.every((k, n) => k >= 0 && (n === 0 || k === (frames[n - 1] + 1) % 12))).toBe(true);
    // Read at 10 frames/s, as a camera sends them: 12 frames take about a second, not a burst.
    expect(took).toBeGreaterThan(900);
    expect(rs.every((r, n) => n === 0 || r.timeUs > rs[n - 1].timeUs)).toBe(true);
    expect(cam.stats).toMatchObject({ delivered: 12, dropped: 0, connects: 1, failures: 0, state: 'ended' });
  });

  it('a missing file fails the stream with a DecodeError, and no attempt is made again', async () => {
    const statuses: CameraStatus[] = [];
    const cam = fromCameraUrl(ctx, join(dir, 'none.mp4'), { onStatus: (s) => statuses.push(s) });
    await expect(lastValueFrom(cam.pipe(...chain()))).rejects.toThrow(DecodeError);
    expect(statuses).toEqual([]);
    expect(cam.stats.state).toBe('failed');
  });

  it('drops (and counts) the frames a busy chain cannot take, holding none back', async () => {
    // The HTTP camera sends its 60 frames in a burst; each frame is held 150 ms downstream.
    const camera = await httpCamera(join(dir, 'square.ts'), () => 'whole', 10);
    try {
      const cam = fromCameraUrl(ctx, camera.url, { maxInFlight: 1 });
      const slow = concatMap(<T>(f: T) => timer(150).pipe(map(() => f)));
      const rs = await lastValueFrom(cam.pipe(threshold({ level: 128 }), slow, features(), readResults(), take(4), toArray()));
      expect(rs.map(frameOf).every((k) => k >= 0)).toBe(true);
      expect(cam.stats.dropped).toBeGreaterThan(10);
      // Frames arrive newest-first: what is taken after a wait is far ahead of the frame before it.
      const frames = rs.map(frameOf);
      expect(frames.slice(1).some((k, i) => (k - frames[i] + 12) % 12 > 1)).toBe(true);
    } finally {
      await camera.close();
    }
  });

  it('opens a camera that cut the connection again, after the retry delay, and frames continue', async () => {
    const camera = await httpCamera(join(dir, 'square.ts'), (n) => (n === 0 ? 'cut' : 'whole'), 6000);
    const statuses: CameraStatus[] = [];
    try {
      const cam = fromCameraUrl(ctx, camera.url, { retryMs: 200, onStatus: (s) => statuses.push(s) });
      const rs = await lastValueFrom(cam.pipe(...chain(), take(40), toArray()));
      expect(rs.map(frameOf).every((k) => k >= 0)).toBe(true);
      expect(camera.connections).toBe(2);
      expect(statuses.map((s) => s.type)).toEqual(['connected', 'disconnected', 'connected']);
      expect(statuses[1]).toMatchObject({ attempt: 1, retryInMs: 200 });
      expect(cam.stats).toMatchObject({ connects: 2, failures: 1 });
    } finally {
      await camera.close();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(ffmpegsOn(camera.url)).toEqual([]);
  });

  it('takes a camera that goes quiet for stallMs as dropped, and opens it again', async () => {
    const camera = await httpCamera(join(dir, 'square.ts'), (n) => (n === 0 ? 'stall' : 'whole'), 6000);
    const statuses: CameraStatus[] = [];
    try {
      const cam = fromCameraUrl(ctx, camera.url, { stallMs: 1000, retryMs: 100, onStatus: (s) => statuses.push(s) });
      const rs = await lastValueFrom(cam.pipe(...chain(), take(40), toArray()));
      expect(rs.map(frameOf).every((k) => k >= 0)).toBe(true);
      expect(statuses.filter((s) => s.type === 'disconnected')).toEqual([{ type: 'disconnected', reason: 'no frame for 1000 ms', attempt: 1, retryInMs: 100 }]);
      expect(camera.connections).toBe(2);
    } finally {
      await camera.close();
    }
  });

  it('backs off while nobody answers, doubling the wait, and fails after `attempts` in a row', async () => {
    const port = await freePort(); // nothing listens there
    const statuses: CameraStatus[] = [];
    const cam = fromCameraUrl(ctx, `http://127.0.0.1:${port}/camera.ts`, { retryMs: 50, attempts: 3, onStatus: (s) => statuses.push(s) });
    const error = await lastValueFrom(cam.pipe(...chain())).catch((e) => e);
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.message).toMatch(/no frames in 3 attempts in a row \(.*Connection refused/);
    expect(statuses.map((s) => (s.type === 'disconnected' ? s.retryInMs : -1))).toEqual([50, 100, 200]);
    expect(cam.stats).toMatchObject({ delivered: 0, connects: 0, failures: 4, state: 'failed' });
  });

  it('kills ffmpeg when the subscriber unsubscribes', async () => {
    const camera = await httpCamera(join(dir, 'square.ts'), () => 'stall', 6000);
    try {
      const cam = fromCameraUrl(ctx, camera.url);
      const first = await firstValueFrom(cam.pipe(...chain()));
      expect(frameOf(first)).toBeGreaterThanOrEqual(0);
      await new Promise((r) => setTimeout(r, 100));
      expect(ffmpegsOn(camera.url)).toEqual([]);
    } finally {
      await camera.close();
    }
  });

  it('reads an RTSP camera through a real RTSP server, and again after the camera went away and came back', async () => {
    const camera = await rtspCamera(join(dir, 'square.mp4'));
    const statuses: CameraStatus[] = [];
    try {
      // rtsp-server-perl carries RTP over UDP only.
      const cam = fromCameraUrl(ctx, camera.url, { rtspTransport: 'udp', retryMs: 250, stallMs: 4000, onStatus: (s) => statuses.push(s) });
      let seen = 0;
      const rs = await lastValueFrom(
        cam.pipe(
          ...chain(),
          concatMap(async (r) => {
            if (++seen === 10) {
              await camera.stop();
              setTimeout(() => void camera.start(), 1000);
            }
            return r;
          }),
          take(20),
          toArray(),
        ),
      );
      expect(rs.map(frameOf).every((k) => k >= 0)).toBe(true);
      expect(cam.stats.connects).toBe(2);
      expect(statuses[0]).toEqual({ type: 'connected', connects: 1 });
      expect(statuses.at(-1)).toEqual({ type: 'connected', connects: 2 });
    } finally {
      await camera.stop();
    }
  }, 60_000);
});
