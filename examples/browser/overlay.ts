/**
 * Browser example (surveillance overlay with three.js): the camera through `background()` (started from the scene
 * behind what moves in its first seconds, `cameraPrime`; `?prime=0` starts from the first frame), `morphology()` and
 * `features()` on WebGPU, `track()` on the CPU with a counting line, and three.js drawing each track's box and trail
 * (TrackOverlay) over the camera picture (CameraBackground, never read back) through a camera that views pixels
 * (pixelCamera). Built and served by `npm run example:browser` (open /overlay.html). Imports only the public entry
 * points. The page keeps what it drew in `globalThis.flowmarkOverlay` for its test; setting its `freeze` stops
 * drawing (the canvas keeps the last frame drawn, whose tracks `drawn` lists).
 */
import { BufferGeometry, Color, Float32BufferAttribute, LineSegments, REVISION, Scene } from 'three';
import { LineBasicNodeMaterial } from 'three/webgpu';
import { GpuContext, background, cameraPrime, countLines, features, fromCamera, morphology, readResults, track, trails } from 'flowmark';
import { CameraBackground, TrackOverlay, createRenderer, pixelCamera, trackColor } from 'flowmark/three';
import { adapterText, keepRecent, showError } from './page.js';

const status = document.getElementById('status')!;
const countsText = document.getElementById('counts')!;
const canvas = document.getElementById('view') as HTMLCanvasElement;
const params = new URLSearchParams(location.search);
const width = Number(params.get('width') ?? 640);
const height = Number(params.get('height') ?? 480);
const minArea = Number(params.get('minArea') ?? 60);
/** Seconds of camera the model starts from (cameraPrime); 0 starts from the first frame, as OpenCV. */
const primeSeconds = Number(params.get('prime') ?? 5);

const seen = {
  frames: 0,
  width: 0,
  height: 0,
  /** The last frame drawn: its confirmed tracks, with the color each is drawn in (sRGB hex) and the blob it was matched to this frame (null: coasting). */
  drawn: [] as { id: number; box: number[]; color: string; blob: number[] | null }[],
  counts: { forward: 0, backward: 0 },
  ids: [] as number[],
  freeze: false,
  renderMs: [] as number[],
  error: '',
};
(globalThis as unknown as { flowmarkOverlay: typeof seen }).flowmarkOverlay = seen;

/** The counting line, drawn in yellow. */
function countingLine(a: [number, number], b: [number, number]): LineSegments {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new Float32BufferAttribute([...a, 0, ...b, 0], 3));
  const line = new LineSegments(geometry, new LineBasicNodeMaterial({ color: new Color('#ffd400'), depthTest: false }));
  line.name = 'counting line';
  return line;
}

async function run(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'overlay-example' });
  canvas.width = width;
  canvas.height = height;
  canvas.dataset.three = REVISION;
  // Lines one pixel wide, crisp (no multisampling): boxes on pixel bounds.
  const renderer = await createRenderer(ctx, { canvas, width, height, antialias: false });
  const view = pixelCamera(width, height);
  const scene = new Scene();
  const picture = new CameraBackground(ctx);
  const overlay = new TrackOverlay({ states: ['confirmed'] });
  // Down the middle; forward is from left to right.
  const line = { id: 'middle', a: [width / 2, height - 1] as [number, number], b: [width / 2, 0] as [number, number] };
  scene.add(countingLine(line.a, line.b), overlay);
  const ids = new Set<number>();
  const constraints = { video: { width, height } };
  // The scene behind what moves, from the camera's first seconds: whoever stands in view as the page opens is an
  // object from the first frame, not learnt as scene and then a ghost where they stood once they walk off.
  status.textContent = `learning the scene behind what moves (${primeSeconds} s)…`;
  const prime = primeSeconds > 0 ? await cameraPrime({ constraints, seconds: primeSeconds }) : null;
  const camera = fromCamera(ctx, { constraints });
  // features() reads back room for `maxResults` blobs each frame: 192 is plenty for a street and keeps that ~28 KB with
  // the blobs' histograms (the tracker's appearance cue).

  const stream = camera
    .pipe(picture.capture(), background({ prime }), morphology({ open: 3, close: 5 }), features({ minArea, maxResults: 192, histogram: true }), readResults(), track(), countLines({ lines: [line] }), trails())
    .subscribe({
      next: (r) => {
        if (seen.freeze) return stream.unsubscribe();
        const arrived = performance.now();
        if (r.width !== width || r.height !== height) throw new Error(`the camera gives ${r.width}×${r.height}, not ${width}×${height}`);
        const tracks = r.tracks!;
        overlay.follow(tracks);
        scene.background = picture.show(r);
        renderer.render(scene, view);
        void ctx.device.queue.onSubmittedWorkDone().then(() => keepRecent(seen.renderMs, performance.now() - arrived));
        const confirmed = tracks.tracks.filter((t) => t.state === 'confirmed');
        confirmed.forEach((t) => ids.add(t.id));
        seen.frames++;
        [seen.width, seen.height] = [r.width, r.height];
        const f = r.features!;
        seen.drawn = confirmed.map((t) => ({ id: t.id, box: [...t.box], color: `#${trackColor(t.id).getHexString()}`, blob: t.blob >= 0 ? [f.x0[t.blob], f.y0[t.blob], f.x1[t.blob], f.y1[t.blob]] : null }));
        seen.counts = tracks.counts.middle;
        seen.ids = [...ids];
        status.textContent = `${confirmed.length} tracks now, ${ids.size} so far · ${camera.stats.dropped} frames dropped · three.js r${REVISION} · ${adapterText(ctx)}`;
        countsText.textContent = `line: ${seen.counts.forward} crossed left to right, ${seen.counts.backward} right to left`;
      },
      error: showError(status, seen),
    });
}

run().catch(showError(status, seen));
