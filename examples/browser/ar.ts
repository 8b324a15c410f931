/**
 * Browser example (three.js AR): the camera through `markers()` and `pose()`, drawn by three.js on flowmark's GPU
 * device — the camera picture as the scene's background (CameraBackground: written on the GPU, never read back) and
 * a cube standing on every marker (MarkerAnchor), seen through a camera made from the intrinsics (IntrinsicCamera).
 * Built and served by `npm run example:browser` (open /ar.html). Imports only the public entry points. The page
 * keeps what it saw in `globalThis.flowmarkAr` for its test: frames, the anchors' poses, time per frame.
 */
import { BoxGeometry, Color, Mesh, REVISION, Scene } from 'three';
import { MeshBasicNodeMaterial } from 'three/webgpu';
import { GpuContext, fromCamera, markers, parseCamera, pose, readResults, type MarkerPose } from 'flowmark';
import { CameraBackground, IntrinsicCamera, MarkerAnchor, createRenderer } from 'flowmark/three';
import { adapterText, keepRecent, showError } from './page.js';

const status = document.getElementById('status')!;
const canvas = document.getElementById('view') as HTMLCanvasElement;
const params = new URLSearchParams(location.search);
const dictionary = params.get('dictionary') ?? 'DICT_4X4_50';
const markerSize = Number(params.get('size') ?? 0.05);
const [width, height] = [640, 480];
// Without calibration: a lens 60° wide, centred (read yours with readOpenCvCalibration, or calibrate).
const intrinsics = parseCamera(params.get('camera') ?? `${(width / 2 / Math.tan(Math.PI / 6)).toFixed(1)},${(width / 2 / Math.tan(Math.PI / 6)).toFixed(1)},${(width - 1) / 2},${(height - 1) / 2}`);

/** The cube's faces, +x, -x, +y, -y, +z (its top, away from the marker), -z: saturated, unlit colors. */
const faceColors = ['#e53935', '#8e24aa', '#43a047', '#fdd835', '#1e88e5', '#fb8c00'];

const seen = {
  frames: 0,
  width: 0,
  height: 0,
  faceColors,
  /** The last frame's anchors: id, shown, and the pose they follow. */
  anchors: [] as { id: number; visible: boolean; pose: MarkerPose | null }[],
  found: [] as number[],
  /** Recent frames: from the result's arrival to its rendered frame done on the GPU, and from capture to that, ms. */
  renderMs: [] as number[],
  cameraToScreenMs: [] as number[],
  error: '',
  /** The adapter the page runs on. */
  adapter: '',
  /** How camera frames reach the GPU (`camera.stats.upload`). */
  upload: '',
  /** Set it to stop: the camera's stream ends, the canvas keeps the last frame drawn. */
  freeze: false,
};
(globalThis as unknown as { flowmarkAr: typeof seen }).flowmarkAr = seen;

/** A cube as large as the marker, standing on it (the marker's z axis points out of it, toward the camera). */
function cube(side: number): Mesh {
  const materials = faceColors.map((c) => new MeshBasicNodeMaterial({ color: new Color(c) }));
  const mesh = new Mesh(new BoxGeometry(side, side, side), materials);
  mesh.position.z = side / 2;
  return mesh;
}

async function run(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'ar-example' });
  seen.adapter = adapterText(ctx);
  canvas.width = width;
  canvas.height = height;
  canvas.dataset.three = REVISION;
  const renderer = await createRenderer(ctx, { canvas, width, height });
  const view = new IntrinsicCamera(intrinsics, width, height);
  const scene = new Scene();
  const background = new CameraBackground(ctx);
  const anchors = new Map<number, MarkerAnchor>();
  const camera = fromCamera(ctx, { constraints: { video: { width, height } } });

  const stream = camera
    .pipe(background.capture(), markers({ dictionary }), readResults(), pose({ camera: intrinsics, markerSize }))
    .subscribe({
      next: (r) => {
        if (seen.freeze) return stream.unsubscribe();
        const arrived = performance.now();
        if (r.width !== width || r.height !== height) throw new Error(`the camera gives ${r.width}×${r.height}, not ${width}×${height}`);
        // One anchor, with its cube, per marker id ever found.
        for (const m of r.poses!.markers) {
          if (anchors.has(m.id)) continue;
          const anchor = new MarkerAnchor(m.id);
          anchor.add(cube(markerSize));
          anchor.found.subscribe(() => seen.found.push(m.id));
          anchors.set(m.id, anchor);
          scene.add(anchor);
        }
        for (const a of anchors.values()) a.follow(r.poses!);
        scene.background = background.show(r);
        renderer.render(scene, view);
        seen.frames++;
        seen.upload = camera.stats.upload;
        seen.width = r.width;
        seen.height = r.height;
        seen.anchors = [...anchors.values()].map((a) => ({ id: a.markerId, visible: a.visible, pose: a.pose }));
        const captured = r.timeUs / 1000;
        void ctx.device.queue.onSubmittedWorkDone().then(() => {
          const done = performance.now();
          keepRecent(seen.renderMs, done - arrived);
          // The camera's capture time is on performance.now()'s clock when the browser gives it.
          if (Math.abs(done - captured) < 10_000) keepRecent(seen.cameraToScreenMs, done - captured);
        });
        const shown = [...anchors.values()].filter((a) => a.visible).map((a) => a.markerId);
        status.textContent = `${shown.length} markers with a cube${shown.length ? ` (${shown.join(', ')})` : ''} · ${r.width}×${r.height} · ${camera.stats.dropped} frames dropped · three.js r${REVISION} · ${adapterText(ctx)}`;
      },
      error: showError(status, seen),
    });
}

run().catch(showError(status, seen));
