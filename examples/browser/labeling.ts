/**
 * Browser example: one sample frame through threshold → label → features on WebGPU, with the objects' boxes and
 * centroids drawn over the frame. Built and served by `npm run example:browser` (scripts/serve-example.mjs).
 * Imports only the public entry point.
 */
import { lastValueFrom } from 'rxjs';
import { GpuContext, features, fromPixels, label, readResults, threshold } from 'flowmark';
import { adapterText } from './page.js';

const status = document.getElementById('status')!;
const canvas = document.getElementById('view') as HTMLCanvasElement;
const table = document.getElementById('objects') as HTMLTableElement;

async function run(): Promise<{ objects: number; components: number }> {
  const bitmap = await createImageBitmap(await (await fetch('./frame.png')).blob());
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const g = canvas.getContext('2d')!;
  g.drawImage(bitmap, 0, 0);
  const pixels = g.getImageData(0, 0, bitmap.width, bitmap.height);
  const ctx = await GpuContext.create({ label: 'example', profile: true });
  try {
    const result = await lastValueFrom(
      fromPixels(ctx, [{ width: pixels.width, height: pixels.height, format: 'rgba', data: pixels.data }]).pipe(
        threshold({ method: 'adaptive', window: 31, offset: 12, invert: true }),
        label({ algorithm: 'auto' }),
        features({ minArea: 20, dropBorder: true }),
        readResults(),
      ),
    );
    const f = result.features!;
    g.lineWidth = 1;
    table.innerHTML = '<tr><th>label</th><th>area</th><th>box</th><th>centroid</th><th>eccentricity</th><th>mean gray</th></tr>';
    for (let i = 0; i < f.label.length; i++) {
      g.strokeStyle = '#e0245e';
      g.strokeRect(f.x0[i] + 0.5, f.y0[i] + 0.5, f.x1[i] - f.x0[i], f.y1[i] - f.y0[i]);
      g.fillStyle = '#1da1f2';
      g.fillRect(f.cx[i] - 1.5, f.cy[i] - 1.5, 3, 3);
      const row = table.insertRow();
      for (const v of [f.label[i], f.area[i], `${f.x0[i]},${f.y0[i]}–${f.x1[i]},${f.y1[i]}`, `${f.cx[i].toFixed(1)}, ${f.cy[i].toFixed(1)}`, f.eccentricity[i].toFixed(2), f.meanGray[i].toFixed(0)]) {
        row.insertCell().textContent = String(v);
      }
    }
    const gpu = result.timings.reduce((s, t) => s + t.ms, 0);
    status.textContent = `${result.labeling!.count} components, ${f.passed} objects; ${adapterText(ctx)}; GPU ${gpu.toFixed(2)} ms`;
    return { objects: f.passed, components: result.labeling!.count };
  } finally {
    ctx.destroy();
  }
}

const done = run().catch((e: Error) => {
  status.textContent = `error: ${e.message}`;
  throw e;
});
(globalThis as unknown as { flowmarkExample: Promise<unknown> }).flowmarkExample = done;
