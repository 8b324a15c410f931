/**
 * AR frame time: a camera frame to a rendered AR frame, offscreen in Node (flowmark/three), one frame at a time (a
 * camera's case: the next frame is uploaded when the previous one's results are read). Frames of `--size` RGBA with
 * `--markers` markers (seeded scenes, src/eval/markerScene.ts) go through `markers()` → `readResults()` →
 * `pose()` alone (the reference, in the same run) and then with the picture captured on the GPU
 * (`CameraBackground`) and three.js's WebGPURenderer drawing it with a cube on each marker. For each it prints the
 * wall time from a frame's upload to its rendered frame done on the GPU (p50, p99), the interval between rendered
 * frames, flowmark's GPU time per frame (timestamp queries) and the bytes mapped for reading per frame (what comes
 * back to the CPU: results only, never the picture).
 *
 *   node dist/bench/chains/ar.js [--size 1280x720] [--markers 10] [--frames 200] [--warmup 30] [--dawn backend=vulkan]
 */
import { lastValueFrom, tap, toArray } from 'rxjs';
import { BoxGeometry, Mesh, Scene } from 'three';
import { MeshBasicNodeMaterial } from 'three/webgpu';
import { GpuContext, fromPixels, markerDictionary, markers, pose, readResults, type FrameResult, type PixelImage } from '../../index.js';
import { CameraBackground, IntrinsicCamera, MarkerAnchor, createRenderer } from '../../three.js';
import { defaultDawnFlags } from '../../extend.js';
import { markerScene } from '../../reference.js';
import { gpuMs, quantile, runMain } from '../support/timing.js';
import { benchArgs } from '../support/args.js';

const { values } = benchArgs(import.meta.url, {
  size: { type: 'string', default: '1280x720' },
  markers: { type: 'string', default: '10' },
  frames: { type: 'string', default: '200' },
  warmup: { type: 'string', default: '30' },
  dawn: { type: 'string', multiple: true, default: [] },
}, ['markers', 'frames', 'warmup']);
const [width, height] = (values.size as string).split('x').map(Number);
const frames = Number(values.frames);
const warmup = Number(values.warmup);
const side = 0.05;
const intrinsics = { fx: 0.9 * width, fy: 0.9 * width, cx: (width - 1) / 2, cy: (height - 1) / 2 };

/** Bytes mapped for reading, counted on the WebGPU binding itself. */
let mapped = 0;
function countMapping(): void {
  const proto = (globalThis as unknown as { GPUBuffer: { prototype: GPUBuffer } }).GPUBuffer.prototype;
  const map = proto.mapAsync;
  proto.mapAsync = function (this: GPUBuffer, mode: number, offset?: number, size?: number) {
    if (mode & GPUMapMode.READ) mapped += size ?? this.size - (offset ?? 0);
    return map.call(this, mode, offset, size);
  };
}

async function main(): Promise<void> {
  const ctx = await GpuContext.create({ label: 'bench-ar', profile: true, dawnFlags: [...defaultDawnFlags, ...(values.dawn as string[])] });
  countMapping();
  const dict = markerDictionary('DICT_4X4_50');
  const ids = Array.from({ length: Number(values.markers) }, (_, i) => i);
  const images: PixelImage[] = Array.from({ length: 8 }, (_, k) => {
    const s = markerScene(4100 + k, { width, height, markerSize: 4, bits: (id) => dict.bits(id), ids, side: [60, 140], maxTilt: 40, blur: 0.6, noise: 2, clutter: 8 });
    const data = new Uint8Array(width * height * 4);
    s.gray.forEach((g, p) => data.set([g, g, g, 255], 4 * p));
    return { width, height, format: 'rgba', data };
  });
  const stream = Array.from({ length: frames + warmup }, (_, i) => ({ ...images[i % images.length], timeUs: i * 33_333 }));

  const renderer = await createRenderer(ctx, { width, height, antialias: false });
  const camera = new IntrinsicCamera(intrinsics, width, height);
  const scene = new Scene();
  const anchors = ids.map((id) => {
    const a = new MarkerAnchor(id);
    const cube = new Mesh(new BoxGeometry(side, side, side), new MeshBasicNodeMaterial({ color: 0x1e88e5 }));
    cube.position.z = side / 2;
    a.add(cube);
    scene.add(a);
    return a;
  });

  const rows: string[][] = [];
  for (const withRender of [false, true]) {
    const background = new CameraBackground(ctx);
    const uploaded: number[] = [];
    const latency: number[] = [];
    const done: number[] = [];
    const gpu: number[] = [];
    const capture: number[] = [];
    let found = 0;
    let mappedAtWarmup = 0;
    const source = fromPixels(ctx, stream, { maxInFlight: 1 }).pipe(tap((f) => (uploaded[f.seq] = performance.now())));
    const chain = withRender
      ? source.pipe(background.capture(), markers({ dictionary: dict }), readResults(), pose({ camera: intrinsics, markerSize: side }))
      : source.pipe(markers({ dictionary: dict }), readResults(), pose({ camera: intrinsics, markerSize: side }));
    const pending: Promise<void>[] = [];
    await lastValueFrom(
      chain.pipe(
        tap((r: FrameResult) => {
          if (withRender) {
            for (const a of anchors) a.follow(r.poses!);
            scene.background = background.show(r);
            renderer.render(scene, camera);
          }
          if (r.seq === warmup) mappedAtWarmup = mapped;
          if (r.seq < warmup) return;
          found += r.poses!.markers.length;
          gpu.push(gpuMs(r));
          capture.push(gpuMs(r, 'cameraBackground'));
          const start = uploaded[r.seq];
          pending.push(
            ctx.device.queue.onSubmittedWorkDone().then(() => {
              const t = performance.now();
              latency.push(t - start);
              done.push(t);
            }),
          );
        }),
        toArray(),
      ),
    );
    await Promise.all(pending);
    const intervals = done.slice(1).map((t, i) => t - done[i]);
    rows.push([
      withRender ? 'markers + pose + picture + three.js render' : 'markers + pose (reference)',
      quantile(latency, 0.5).toFixed(3),
      quantile(latency, 0.99).toFixed(3),
      quantile(intervals, 0.5).toFixed(3),
      ctx.features.timestamps ? quantile(gpu, 0.5).toFixed(3) : 'n/a',
      withRender && ctx.features.timestamps ? quantile(capture, 0.5).toFixed(4) : '-',
      ((mapped - mappedAtWarmup) / frames).toFixed(0),
      (found / frames).toFixed(1),
    ]);
    background.dispose();
  }
  console.log(`AR frame time, ${width}×${height} RGBA, ${values.markers} markers a frame, ${frames} frames after ${warmup}, one at a time; ${ctx.adapterName}`);
  const head = ['chain', 'upload→rendered p50 ms', 'p99 ms', 'frame interval p50 ms', 'flowmark GPU ms', 'capture GPU ms', 'bytes read back a frame', 'poses a frame'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows]) console.log(r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  '));
  console.log(`The picture is ${width * height * 4} bytes a frame; it is never read back.`);
  renderer.dispose();
  ctx.destroy();
}

runMain(main);
