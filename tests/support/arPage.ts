// What the three.js example pages' tests share: opening a page that keeps its state in a global (counting the
// bytes it maps for reading, the only way GPU data reaches the CPU), reading its canvas at 1:1 from a screenshot,
// and comparing the picture drawn with the scene the fake camera played.
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';

export interface OpenedPage<T> {
  page: Page;
  /** The page's global state once it was ready. */
  seen: T;
  /** Bytes mapped for reading, by buffer label. */
  mapped: Record<string, number[]>;
  /** Uncaught errors on the page. */
  errors: string[];
}

/**
 * Opens `url`, closed when the test finishes (a page left open keeps rendering on the software GPU and slows the
 * next one), and waits until `globalThis[name].frames` reaches `frames` or the page reports an error; past `timeout` it
 * throws, saying how many frames the page had drawn.
 */
export async function openExample<T extends { frames: number; error: string }>(newPage: () => Promise<Page>, onFinished: (close: () => Promise<void>) => void, url: string, name: string, frames: number, timeout = 240_000): Promise<OpenedPage<T>> {
  const page = await newPage();
  onFinished(() => page.close());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    const g = globalThis as unknown as { flowmarkMapped: Record<string, number[]> };
    g.flowmarkMapped = {};
    const map = GPUBuffer.prototype.mapAsync;
    GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, mode: number, offset?: number, size?: number) {
      if (mode & GPUMapMode.READ) (g.flowmarkMapped[this.label] ??= []).push(size ?? this.size - (offset ?? 0));
      return map.call(this, mode, offset, size);
    } as typeof map;
  });
  const started = Date.now();
  await page.goto(url);
  try {
    await page.waitForFunction(
      ([key, n]) => {
        const s = (globalThis as unknown as Record<string, { frames: number; error: string } | undefined>)[key as string];
        return s && (s.frames >= (n as number) || s.error);
      },
      [name, frames],
      { timeout },
    );
  } catch (e) {
    // Say how far the page got: a page that never drew (camera, adapter) and one that drew too slowly on a loaded
    // machine's software GPU fail alike otherwise.
    const state = await page
      .evaluate((key) => {
        const s = (globalThis as unknown as Record<string, { frames: number; renderMs: number[] } | undefined>)[key];
        return { frames: s?.frames ?? null, renderMs: s?.renderMs ?? [], status: document.getElementById('status')?.textContent ?? '' };
      }, name)
      .catch((why: unknown) => ({ frames: null, renderMs: [], status: `(page unreadable: ${String(why)})` }));
    const done = state.renderMs.length ? `, result → rendered median ${median(state.renderMs).toFixed(0)} ms` : '';
    throw new Error(`${url}: ${state.frames ?? 'no'} of ${frames} frames drawn after ${((Date.now() - started) / 1000).toFixed(0)} s${done}; status "${state.status}"; page errors: ${JSON.stringify(errors)}`, { cause: e });
  }
  return {
    page,
    seen: await page.evaluate((key) => (globalThis as unknown as Record<string, T>)[key], name),
    mapped: await page.evaluate(() => (globalThis as unknown as { flowmarkMapped: Record<string, number[]> }).flowmarkMapped),
    errors,
  };
}

/**
 * Stops the page (its `freeze`: the camera's stream ends) and waits until every frame it drew is done on the GPU: the
 * software GPU runs frames behind, and a page still drawing can keep a screenshot waiting past its time. Returns the
 * page's state as it was when it stopped (what the canvas then shows).
 */
export async function settle<T>(page: Page, name: string): Promise<T> {
  const stopped = await page.evaluate((key) => {
    const s = (globalThis as unknown as Record<string, { freeze: boolean }>)[key];
    s.freeze = true;
    return JSON.parse(JSON.stringify(s)) as unknown;
  }, name);
  await page.waitForFunction(
    (key) => {
      const s = (globalThis as unknown as Record<string, { frames: number; renderMs: number[] }>)[key as string];
      return s.renderMs.length >= s.frames;
    },
    name,
    { timeout: 120_000 },
  );
  return stopped as T;
}

/** The page's `#view` canvas as drawn, pixel for pixel (moved to the page's top-left corner: whole pixels, 1:1). */
export async function canvasPixels(page: Page, width: number, height: number, saveAs?: string): Promise<{ at(x: number, y: number): [number, number, number] }> {
  await page.addStyleTag({ content: '#view { position: fixed; left: 0; top: 0; width: auto; }' });
  await page.waitForTimeout(500);
  const shot = await page.screenshot({ clip: { x: 0, y: 0, width, height }, timeout: 120_000 });
  if (saveAs) writeFileSync(saveAs, shot);
  const png = PNG.sync.read(shot);
  if (png.width !== width || png.height !== height) throw new Error(`screenshot is ${png.width}×${png.height}, not ${width}×${height}`);
  return {
    at(x, y) {
      const i = 4 * (Math.round(y) * png.width + Math.round(x));
      return [png.data[i], png.data[i + 1], png.data[i + 2]];
    },
  };
}

/** '#rrggbb' as [r, g, b]. */
export const rgb = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/**
 * Checks that outside the given boxes the canvas is the camera's gray picture in place: gray at every sampled pixel,
 * following the scene's gray (through the camera's YUV to RGB, which clips the light end) better than the scene
 * shifted by 2 pixels any way (a flipped picture correlates near 0). Returns the sampled pixels' count, the
 * correlation in place and the shifted ones'.
 */
export function pictureOutside(at: (x: number, y: number) => number[], gray: Uint8Array, width: number, height: number, boxes: number[][], step = 7): { samples: number; notGray: string[]; inPlace: number; shifted: number[] } {
  const outside: [number, number][] = [];
  const notGray: string[] = [];
  for (let y = 6; y < height - 6; y += step) {
    for (let x = 6; x < width - 6; x += step) {
      if (boxes.some(([x0, y0, x1, y1]) => x >= x0 - 2 && x <= x1 + 2 && y >= y0 - 2 && y <= y1 + 2)) continue;
      const c = at(x, y);
      if (Math.max(...c) - Math.min(...c) >= 12) notGray.push(`(${x}, ${y}): ${c}`);
      outside.push([x, y]);
    }
  }
  const correlation = (dx: number, dy: number) => pearson(outside.map(([x, y]) => gray[(y + dy) * width + x + dx]), outside.map(([x, y]) => at(x, y)[1]));
  return { samples: outside.length, notGray, inPlace: correlation(0, 0), shifted: [[-2, 0], [2, 0], [0, -2], [0, 2]].map(([dx, dy]) => correlation(dx, dy)) };
}

export function pearson(a: number[], b: number[]): number {
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let ab = 0;
  let aa = 0;
  let bb = 0;
  a.forEach((x, i) => ((ab += (x - ma) * (b[i] - mb)), (aa += (x - ma) ** 2), (bb += (b[i] - mb) ** 2)));
  return ab / Math.sqrt(aa * bb);
}

export function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : NaN;
}
