/**
 * Browser example: the camera through `markers()` on WebGPU, each marker outlined over the live picture with its
 * ID and its printed top-left corner marked. Built and served by `npm run example:browser` (open /markers.html;
 * `?dictionary=DICT_6X6_250` picks another dictionary). Imports only the public entry point. The page keeps what
 * it saw in `globalThis.flowmarkMarkers` (frames, IDs seen, the last frame's markers, recent frames' times from
 * capture to result, GPU time per pass, adapter and upload path) for its test and bench/chains/browserPages.ts.
 */
import { GpuContext, fromCamera, markers, readResults, type DetectedMarker } from 'flowmark';
import { adapterText, keepRecent, showError } from './page.js';

const status = document.getElementById('status')!;
const video = document.getElementById('camera') as HTMLVideoElement;
const overlay = document.getElementById('overlay') as HTMLCanvasElement;
const dictionary = new URLSearchParams(location.search).get('dictionary') ?? 'DICT_4X4_50';
document.getElementById('dictionary')!.textContent = dictionary;

const seen = {
  frames: 0,
  ids: [] as number[],
  last: [] as DetectedMarker[],
  width: 0,
  height: 0,
  /** Recent frames: from the camera's capture to the markers on the CPU, ms; GPU time of each pass, ms. */
  cameraToResultMs: [] as number[],
  passMs: {} as Record<string, number[]>,
  adapter: '',
  /** How camera frames reach the GPU (`camera.stats.upload`). */
  upload: '',
  error: '',
};
(globalThis as unknown as { flowmarkMarkers: typeof seen }).flowmarkMarkers = seen;

function draw(found: DetectedMarker[], width: number, height: number): void {
  overlay.width = width;
  overlay.height = height;
  const g = overlay.getContext('2d')!;
  g.clearRect(0, 0, width, height);
  g.lineWidth = 2;
  g.font = 'bold 16px system-ui, sans-serif';
  for (const m of found) {
    // Corners have pixel centres at integers; the canvas puts them at half-integers.
    const c = m.corners.map(([x, y]) => [x + 0.5, y + 0.5]);
    g.strokeStyle = '#00c853';
    g.beginPath();
    c.forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
    g.closePath();
    g.stroke();
    g.fillStyle = '#e0245e';
    g.fillRect(c[0][0] - 3, c[0][1] - 3, 6, 6);
    const cx = c.reduce((s, p) => s + p[0], 0) / 4;
    const cy = c.reduce((s, p) => s + p[1], 0) / 4;
    g.fillStyle = '#ffeb3b';
    g.fillText(String(m.id), cx - 8, cy + 6);
  }
}

async function run(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'markers-example', profile: true });
  const constraints = { video: { width: 640, height: 480 } };
  // The picture shown; the GPU gets its own frames from fromCamera.
  video.srcObject = await navigator.mediaDevices.getUserMedia(constraints);
  const camera = fromCamera(ctx, { constraints });
  seen.adapter = adapterText(ctx);
  let start = 0;
  camera.pipe(markers({ dictionary }), readResults()).subscribe({
    next: (r) => {
      const found = r.markers!.found;
      const arrived = performance.now();
      if (!start) start = arrived;
      // The camera's capture time is on performance.now()'s clock when the browser gives it.
      const captured = r.timeUs / 1000;
      if (Math.abs(arrived - captured) < 10_000) keepRecent(seen.cameraToResultMs, arrived - captured);
      for (const t of r.timings) keepRecent((seen.passMs[t.name] ??= []), t.ms);
      seen.frames++;
      seen.upload = camera.stats.upload;
      seen.last = found;
      seen.width = r.width;
      seen.height = r.height;
      for (const m of found) if (!seen.ids.includes(m.id)) seen.ids.push(m.id);
      draw(found, r.width, r.height);
      const gpu = r.timings.reduce((s, t) => s + t.ms, 0);
      const fps = seen.frames > 1 ? ((seen.frames - 1) * 1000) / (performance.now() - start) : 0;
      status.textContent = `${found.length} markers${found.length ? ` (${found.map((m) => m.id).join(', ')})` : ''} · ${r.width}×${r.height} · ${fps.toFixed(0)} frames/s, ${camera.stats.dropped} dropped · GPU ${ctx.features.timestamps ? `${gpu.toFixed(2)} ms` : 'n/a'} · ${adapterText(ctx)}`;
    },
    error: showError(status, seen),
  });
}

run().catch(showError(status, seen));
