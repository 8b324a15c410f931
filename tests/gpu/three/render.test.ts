// flowmark/three on Dawn (offscreen, in Node): three.js's WebGPURenderer on flowmark's device draws the camera
// picture exactly (every pixel, rgba and gray frames, odd sizes), an object on a MarkerAnchor where the pose and
// the intrinsics project it, each result's own picture when several frames are in flight, and track boxes over
// the picture through pixelCamera.
import { lastValueFrom, map, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Color, DoubleSide, Mesh, PlaneGeometry, Scene } from 'three';
import { MeshBasicNodeMaterial, type WebGPURenderer } from 'three/webgpu';
import { InvalidFrameError, fromPixels, projectPoints, readResults, type FrameResult, type GpuContext, type PixelImage, type TrackInfo } from '../../../index.js';
import { rotationFromVector } from '../../../extend.js';
import { CameraBackground, IntrinsicCamera, MarkerAnchor, TrackOverlay, createRenderer, offscreenTexture, pixelCamera, trackColor } from '../../../three.js';
import { testContext } from '../../support/gpu.js';

interface DrawnCopy {
  readonly buffer: GPUBuffer;
  readonly row: number;
  readonly width: number;
  readonly height: number;
}

/** Copies the offscreen drawing buffer (bgra8unorm) out now, before a later render replaces it (tests only). */
function copyDrawn(ctx: GpuContext, renderer: WebGPURenderer): DrawnCopy {
  const texture = offscreenTexture(renderer);
  const { width, height } = texture;
  const row = Math.ceil((width * 4) / 256) * 256;
  const buffer = ctx.device.createBuffer({ label: 'test:drawn', size: row * height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = ctx.device.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow: row }, [width, height]);
  ctx.device.queue.submit([encoder.finish()]);
  return { buffer, row, width, height };
}

/** A copy's pixels as RGBA bytes, rows unpadded. */
async function readDrawn({ buffer, row, width, height }: DrawnCopy): Promise<Uint8Array> {
  await buffer.mapAsync(GPUMapMode.READ);
  const bytes = new Uint8Array(buffer.getMappedRange());
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * row + 4 * x;
      out.set([bytes[i + 2], bytes[i + 1], bytes[i], bytes[i + 3]], 4 * (y * width + x));
    }
  }
  buffer.destroy();
  return out;
}

/** What the renderer drew last, as RGBA bytes. */
const drawn = (ctx: GpuContext, renderer: WebGPURenderer) => readDrawn(copyDrawn(ctx, renderer));

/** A seeded picture with structure in both directions (a flip or shift shows). */
function picture(width: number, height: number, seed: number, format: 'rgba' | 'gray'): PixelImage {
  const channels = format === 'rgba' ? 4 : 1;
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) data[(y * width + x) * channels + c] = c === 3 ? 255 : (x * 7 + y * 13 + seed * 31 + c * 50 + ((x * y) % 11) * 9) & 255;
    }
  }
  return { width, height, format, data };
}

describe('flowmark/three on the GPU (offscreen)', () => {
  let ctx: GpuContext;
  beforeAll(async () => {
    ctx = await testContext();
  });
  afterAll(() => ctx?.destroy());

  it.each([
    ['rgba', 97, 61],
    ['gray', 64, 48],
  ] as const)('draws the %s camera picture as the background, every pixel (%i×%i)', async (format, width, height) => {
    const renderer = await createRenderer(ctx, { width, height, antialias: false });
    const background = new CameraBackground(ctx);
    const scene = new Scene();
    const camera = new IntrinsicCamera({ fx: 100, fy: 100, cx: width / 2, cy: height / 2 }, width, height);
    const image = picture(width, height, 3, format);
    await lastValueFrom(fromPixels(ctx, [image]).pipe(background.capture(), readResults(), tap((r) => {
      scene.background = background.show(r);
      renderer.render(scene, camera);
    }), toArray()));
    const out = await drawn(ctx, renderer);
    let worst = 0;
    for (let p = 0; p < width * height; p++) {
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(out[4 * p + c] - image.data[format === 'rgba' ? 4 * p + c : p]));
    }
    expect(worst).toBeLessThanOrEqual(1);
    background.dispose();
    renderer.dispose();
  });

  it('draws an object on a MarkerAnchor where the pose projects it through the intrinsics', async () => {
    const [width, height] = [160, 120];
    // Off-centre principal point, non-square pixels: a field-of-view camera would miss.
    const intrinsics = { fx: 150, fy: 170, cx: 70.3, cy: 66.8 };
    const renderer = await createRenderer(ctx, { width, height, antialias: false });
    const scene = new Scene();
    const side = 0.05;
    const rvec: [number, number, number] = [Math.PI + 0.35, 0.25, 0.1];
    const tvec: [number, number, number] = [0.03, -0.02, 0.4];
    const anchor = new MarkerAnchor(5);
    anchor.add(new Mesh(new PlaneGeometry(side, side), new MeshBasicNodeMaterial({ color: new Color('#ff0000'), side: DoubleSide })));
    scene.add(anchor);
    anchor.follow({ markers: [{ id: 5, dictionary: 'DICT_4X4_50', rvec, tvec, quaternion: [0, 0, 0, 1], error: 0, alternative: { rvec, tvec, error: 0 }, ambiguous: false, seen: true, corners: [[0, 0], [0, 0], [0, 0], [0, 0]] }], boards: [], events: [] });
    renderer.render(scene, new IntrinsicCamera(intrinsics, width, height));
    const out = await drawn(ctx, renderer);
    // The square's projected corners (OpenCV's projection) against the red pixels drawn.
    const corners = projectPoints(intrinsics, rotationFromVector(rvec), tvec, [[-side / 2, side / 2, 0], [side / 2, side / 2, 0], [side / 2, -side / 2, 0], [-side / 2, -side / 2, 0]]);
    let [n, sx, sy] = [0, 0, 0];
    const [bx0, by0, bx1, by1] = [Infinity, Infinity, -Infinity, -Infinity];
    const box = [bx0, by0, bx1, by1];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = 4 * (y * width + x);
        if (out[i] > 200 && out[i + 1] < 50) {
          n++, (sx += x), (sy += y);
          box[0] = Math.min(box[0], x), (box[1] = Math.min(box[1], y)), (box[2] = Math.max(box[2], x)), (box[3] = Math.max(box[3], y));
        }
      }
    }
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    // Pixels whose centres fall inside the projected quad are drawn: the box of those centres is within a pixel.
    expect(Math.abs(box[0] - Math.min(...xs))).toBeLessThan(1);
    expect(Math.abs(box[2] - Math.max(...xs))).toBeLessThan(1);
    expect(Math.abs(box[1] - Math.min(...ys))).toBeLessThan(1);
    expect(Math.abs(box[3] - Math.max(...ys))).toBeLessThan(1);
    // Area of the projected quad (shoelace) against the pixels drawn.
    const area = Math.abs(corners.reduce((s, c, k) => s + c[0] * corners[(k + 1) % 4][1] - corners[(k + 1) % 4][0] * c[1], 0)) / 2;
    expect(Math.abs(n - area) / area).toBeLessThan(0.05);
    expect(n).toBeGreaterThan(200);
    // Its centre of mass near the projected quad's (the quad's own centroid, by its vertices: close for this tilt).
    expect(Math.hypot(sx / n - xs.reduce((a, v) => a + v, 0) / 4, sy / n - ys.reduce((a, v) => a + v, 0) / 4)).toBeLessThan(1.5);
    renderer.dispose();
  });

  it('shows each result its own picture with four frames in flight, and refuses a frame without pixels', async () => {
    const [width, height] = [40, 30];
    const renderer = await createRenderer(ctx, { width, height, antialias: false });
    const background = new CameraBackground(ctx);
    const scene = new Scene();
    const camera = new IntrinsicCamera({ fx: 50, fy: 50, cx: 20, cy: 15 }, width, height);
    const images = Array.from({ length: 12 }, (_, k) => picture(width, height, k, 'gray'));
    // The drawn picture is copied out right after each render, before the next result is handled.
    const copies: DrawnCopy[] = [];
    await lastValueFrom(fromPixels(ctx, images, { maxInFlight: 4 }).pipe(background.capture(), readResults(), tap((r: FrameResult) => {
      scene.background = background.show(r);
      renderer.render(scene, camera);
      copies.push(copyDrawn(ctx, renderer));
    }), toArray()));
    expect(copies).toHaveLength(12);
    // At most the frames in flight plus the pictures kept: textures are reused, not made per frame.
    expect(background.textures).toBeLessThanOrEqual(4 + 3);
    for (const [k, copy] of copies.entries()) {
      const out = await readDrawn(copy);
      let worst = 0;
      for (let p = 0; p < width * height; p++) worst = Math.max(worst, Math.abs(out[4 * p + 1] - images[k].data[p]));
      expect(worst, `frame ${k}`).toBeLessThanOrEqual(1);
    }
    // A frame of labels only (no pixels) cannot be a picture.
    const noPixels = fromPixels(ctx, [images[0]]).pipe(map((f) => ({ ...f, rgba: null, gray: null })), background.capture(), readResults());
    await expect(lastValueFrom(noPixels)).rejects.toBeInstanceOf(InvalidFrameError);
    background.dispose();
    renderer.dispose();
  });

  it.each([
    [160, 90],
    [64, 150],
  ])('draws tracks over the whole picture through pixelCamera, their boxes on the pixels around them (%i×%i)', async (width, height) => {
    const renderer = await createRenderer(ctx, { width, height, antialias: false });
    const background = new CameraBackground(ctx);
    const scene = new Scene();
    const overlay = new TrackOverlay({ trails: false });
    scene.add(overlay);
    const image = picture(width, height, 5, 'rgba');
    const box: [number, number, number, number] = [10, 12, 29, 40];
    const track: TrackInfo = { id: 3, state: 'confirmed', box, cx: 20, cy: 26, vx: 0, vy: 0, blob: 0, age: 9, unseen: 0, merged: false, group: -1, trail: [] };
    await lastValueFrom(fromPixels(ctx, [image]).pipe(background.capture(), readResults(), tap((r) => {
      overlay.follow({ tracks: [track], events: [], counts: {}, onLine: {}, zones: {} });
      scene.background = background.show(r);
      renderer.render(scene, pixelCamera(width, height));
    }), toArray()));
    const out = await drawn(ctx, renderer);
    // The color as the canvas shows it (sRGB bytes).
    const hex = trackColor(3).getHex();
    const want = [hex >> 16, (hex >> 8) & 255, hex & 255];
    // The box's edge lies half a pixel outside its outer pixels: one of the two rows (columns) it passes between.
    const isLine = (x: number, y: number) => want.every((v, c) => Math.abs(out[4 * (y * width + x) + c] - v) <= 2);
    const ring = (x: number, y: number) => (x === box[0] - 1 || x === box[0] || x === box[2] || x === box[2] + 1) && y >= box[1] - 1 && y <= box[3] + 1 || (y === box[1] - 1 || y === box[1] || y === box[3] || y === box[3] + 1) && x >= box[0] - 1 && x <= box[2] + 1;
    let lines = 0;
    let worst = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (ring(x, y)) {
          lines += isLine(x, y) ? 1 : 0;
          continue;
        }
        // Everywhere else, corners far from the camera included: the picture.
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(out[4 * (y * width + x) + c] - image.data[4 * (y * width + x) + c]));
      }
    }
    expect(worst).toBeLessThanOrEqual(1);
    // A closed line around the box: about its perimeter in pixels (a line may leave out its last pixel).
    const perimeter = 2 * (box[2] - box[0] + 1) + 2 * (box[3] - box[1] + 1);
    expect(lines).toBeGreaterThanOrEqual(perimeter - 4);
    expect(lines).toBeLessThanOrEqual(perimeter + 8);
    overlay.dispose();
    background.dispose();
    renderer.dispose();
  });
});
