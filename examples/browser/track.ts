/**
 * Browser example: tracking over a shipped fixed-camera clip (examples/data/street.mp4). The clip is decoded with
 * WebCodecs and analysed on WebGPU (background → morphology → features), tracked on the CPU with a counting line,
 * then played in a <video> with each frame's boxes, ids and trails drawn over it (frame by frame, from the video's
 * own media time). The model's pixels as `flowmark track` picks them: color for a color clip (`videoHasColor`;
 * `background({ color: 'shadows' })` tells dark objects from shadows by their color), gray for a gray one. Built
 * and served by `npm run example:browser` (scripts/serve-example.mjs). Public entry point only.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { GpuContext, blobTracking, countsAtEnd, defaultBlobSettings, fromVideo, probeVideo, videoBackground, videoHasColor, type FrameResult } from 'flowmark';
import { adapterText } from './page.js';

const status = document.getElementById('status')!;
const countsText = document.getElementById('counts')!;
const video = document.getElementById('clip') as HTMLVideoElement;
const canvas = document.getElementById('overlay') as HTMLCanvasElement;

/** Draws frame n's tracks; returns how many boxes it drew. */
function draw(results: FrameResult[], n: number, width: number, height: number): number {
  const g = canvas.getContext('2d')!;
  g.clearRect(0, 0, width, height);
  g.strokeStyle = '#ffd400';
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(width / 2, 0);
  g.lineTo(width / 2, height);
  g.stroke();
  const r = results[Math.max(0, Math.min(results.length - 1, n))];
  if (!r) return 0;
  let boxes = 0;
  g.font = '10px system-ui';
  for (const t of r.tracks!.tracks) {
    if (t.state !== 'confirmed') continue;
    const hue = (t.id * 67) % 360;
    g.strokeStyle = `hsl(${hue} 90% 55%)`;
    g.fillStyle = g.strokeStyle;
    g.beginPath();
    t.trail.forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
    g.stroke();
    if (t.blob < 0 && !t.merged) continue; // lost: its trail only
    const [x0, y0, x1, y1] = t.box;
    g.strokeRect(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
    g.fillText(String(t.id), x0, y0 - 2);
    boxes++;
  }
  return boxes;
}

/**
 * The frame a video shows at media time `seconds`: the result whose time is nearest (results come in time order, their
 * times the container's presentation times, as the video element's). By time rather than by a frame rate: clips run at
 * 25, 30 or a variable rate.
 */
function shownAt(results: readonly FrameResult[], seconds: number): number {
  const us = seconds * 1e6;
  let lo = 0;
  let hi = results.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (results[mid].timeUs < us) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && us - results[lo - 1].timeUs < results[lo].timeUs - us ? lo - 1 : lo;
}

/** Analyses the whole clip (decode and the chain; `analysisMs` is how long that took), then plays it with its tracks. */
async function run(): Promise<{ frames: number; analysisMs: number; adapter: string; tracks: number; forward: number; backward: number; model: string; drawn: (n: number) => number; frameAt: (seconds: number) => number }> {
  // Any MP4 the browser decodes: ?clip=URL (served from this page's origin) instead of the shipped one.
  const clip = new URLSearchParams(location.search).get('clip') ?? './street.mp4';
  if (clip !== './street.mp4') video.src = clip;
  const bytes = await (await fetch(clip)).arrayBuffer();
  // fromVideo's frames are RGBA on the GPU either way: color costs only the color model's GPU time.
  const color = await videoHasColor(bytes);
  const model = color ? 'color' : 'gray';
  // The size as frames arrive (turned as displayed): the counting line runs down the middle.
  const { width, height } = probeVideo(bytes, clip);
  // The scene behind what moves (the median of 25 frames over the first 30 s): the model starts from it, so what
  // stands in view in the first frame is an object from then on and leaves no ghost where it stood.
  const prime = await videoBackground(bytes, { format: color ? 'rgba' : 'gray' });
  const ctx = await GpuContext.create({ label: 'example-track' });
  const adapter = adapterText(ctx);
  let results: FrameResult[];
  const t0 = performance.now();
  try {
    results = await lastValueFrom(
      fromVideo(ctx, bytes).pipe(
        // The surveillance chain as `flowmark track` runs it (docs/operators/blobTracking.md), with trails to draw.
        // Forward: from the line's left to its right, seen going from a to b (here bottom to top: left to right).
        blobTracking({ ...defaultBlobSettings, warmup: 0, prime, color: color ? 'shadows' : false, lines: [{ id: 'middle', a: [width / 2, height - 1], b: [width / 2, 0] }], maxUnseen: 2, trailLength: 60 }),
        toArray(),
      ),
    );
  } finally {
    ctx.destroy();
  }
  const analysisMs = performance.now() - t0;
  canvas.width = width;
  canvas.height = height;
  // The whole clip's counts: with the objects over the line by their centre in its last frame.
  const counts = countsAtEnd(results.at(-1)!.tracks!).middle;
  const ids = new Set(results.flatMap((r) => r.tracks!.tracks.filter((t) => t.state === 'confirmed').map((t) => t.id)));
  status.textContent = `${results.length} frames analysed (${model} model), ${ids.size} tracks`;
  countsText.textContent = `line: ${counts.forward} crossed left to right, ${counts.backward} right to left`;
  // Draw each shown frame's tracks, keyed by the frame the video is showing.
  const onFrame = (_: number, meta: { mediaTime: number }) => {
    draw(results, shownAt(results, meta.mediaTime), width, height);
    video.requestVideoFrameCallback(onFrame);
  };
  if ('requestVideoFrameCallback' in video) video.requestVideoFrameCallback(onFrame);
  video.play().catch(() => (status.textContent += ' (press play)'));
  return { frames: results.length, analysisMs, adapter, tracks: ids.size, forward: counts.forward, backward: counts.backward, model, drawn: (n) => draw(results, n, width, height), frameAt: (seconds) => shownAt(results, seconds) };
}

(globalThis as unknown as { flowmarkTrack: ReturnType<typeof run> }).flowmarkTrack = run().catch((e) => {
  status.textContent = `error: ${(e as Error).message}`;
  throw e;
});
