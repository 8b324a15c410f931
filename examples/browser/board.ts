/**
 * Browser example (three.js AR on a board): the camera through `markers()` and `pose({ boards })`, drawn by three.js
 * on flowmark's GPU device — the camera picture as the scene's background and a tower standing in the middle of a
 * grid board of markers (a MarkerAnchor that follows the board: one pose from all of its markers seen). Built and
 * served by `npm run example:browser` (open /board.html). Imports only the public entry points. The page keeps what
 * it saw in `globalThis.flowmarkBoard` for its test: frames, the anchor's pose, the markers it came from.
 */
import { BoxGeometry, Color, Mesh, REVISION, Scene } from 'three';
import { MeshBasicNodeMaterial } from 'three/webgpu';
import { GpuContext, fromCamera, gridBoard, markers, parseCamera, pose, readResults, type BoardPose } from 'flowmark';
import { CameraBackground, IntrinsicCamera, MarkerAnchor, createRenderer } from 'flowmark/three';
import { adapterText, keepRecent, showError } from './page.js';

const status = document.getElementById('status')!;
const canvas = document.getElementById('view') as HTMLCanvasElement;
const params = new URLSearchParams(location.search);
const dictionary = params.get('dictionary') ?? 'DICT_4X4_50';
const [columns, rows, markerSize, separation, firstId] = (params.get('board') ?? '4,3,0.04,0.01,0').split(',').map(Number);
const board = gridBoard({ name: 'board', columns, rows, markerSize, separation, firstId });
const [width, height] = [640, 480];
// Without calibration: a lens 60° wide, centred (read yours with readOpenCvCalibration).
const focal = (width / 2 / Math.tan(Math.PI / 6)).toFixed(1);
const intrinsics = parseCamera(params.get('camera') ?? `${focal},${focal},${(width - 1) / 2},${(height - 1) / 2}`);

/** The tower's faces, +x, -x, +y, -y, +z, -z (its top: the board's z points into the board), unlit colors. */
const faceColors = ['#e53935', '#8e24aa', '#43a047', '#fdd835', '#1e88e5', '#fb8c00'];
// As wide as one and a half markers and as tall as two, in the board's middle.
const tower = { side: 1.5 * markerSize, height: 2 * markerSize, centre: [(columns * (markerSize + separation) - separation) / 2, (rows * (markerSize + separation) - separation) / 2] };

const seen = {
  frames: 0,
  width: 0,
  height: 0,
  faceColors,
  tower,
  anchor: { visible: false, pose: null as BoardPose | null },
  found: 0,
  renderMs: [] as number[],
  error: '',
  /** Set it to stop: the camera's stream ends, the canvas keeps the last frame drawn. */
  freeze: false,
};
(globalThis as unknown as { flowmarkBoard: typeof seen }).flowmarkBoard = seen;

async function run(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'board-example' });
  canvas.width = width;
  canvas.height = height;
  canvas.dataset.three = REVISION;
  const renderer = await createRenderer(ctx, { canvas, width, height });
  const view = new IntrinsicCamera(intrinsics, width, height);
  const scene = new Scene();
  const background = new CameraBackground(ctx);
  const anchor = new MarkerAnchor({ board: board.name });
  const mesh = new Mesh(new BoxGeometry(tower.side, tower.side, tower.height), faceColors.map((c) => new MeshBasicNodeMaterial({ color: new Color(c) })));
  // The board's z points into it: the tower stands toward negative z.
  mesh.position.set(tower.centre[0], tower.centre[1], -tower.height / 2);
  anchor.add(mesh);
  anchor.found.subscribe(() => seen.found++);
  scene.add(anchor);
  const camera = fromCamera(ctx, { constraints: { video: { width, height } } });

  const stream = camera.pipe(background.capture(), markers({ dictionary }), readResults(), pose({ camera: intrinsics, boards: [board] })).subscribe({
    next: (r) => {
      if (seen.freeze) return stream.unsubscribe();
      const arrived = performance.now();
      if (r.width !== width || r.height !== height) throw new Error(`the camera gives ${r.width}×${r.height}, not ${width}×${height}`);
      anchor.follow(r.poses!);
      scene.background = background.show(r);
      renderer.render(scene, view);
      seen.frames++;
      [seen.width, seen.height] = [r.width, r.height];
      seen.anchor = { visible: anchor.visible, pose: anchor.pose };
      void ctx.device.queue.onSubmittedWorkDone().then(() => keepRecent(seen.renderMs, performance.now() - arrived));
      const p = anchor.pose;
      status.textContent = `${p ? `board at ${(Math.hypot(...p.tvec) * 100).toFixed(1)} cm from ${p.markers.length} of its ${board.markers.length} markers` : 'no board'} · ${camera.stats.dropped} frames dropped · three.js r${REVISION} · ${adapterText(ctx)}`;
    },
    error: showError(status, seen),
  });
}

run().catch(showError(status, seen));
