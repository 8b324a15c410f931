/**
 * flowmark's example pages in headless Chromium, timed by the pages themselves, beside the same chain in Node (Dawn)
 * on the same machine in the same run:
 * - markers.html: the fake camera plays a still 640×480 scene of four markers at `--fps`; the page reports camera
 *   frame → markers on the CPU (ms) and the GPU time of each pass (timestamp queries); frames/s over the window.
 * - ar.html: the same camera through markers → pose → three.js; result → rendered frame done on the GPU and camera
 *   frame → rendered frame (ms); frames/s.
 * - track.html: the shipped street clip decoded with WebCodecs and run through the surveillance chain; frames/s of
 *   decode and analysis together.
 * Node: the scene's frames through `markers()` one at a time (upload, submit, read back before the next: a camera's
 * case), wall ms per frame and GPU ms per pass.
 *
 *   node dist/bench/chains/browserPages.js [--chromium-gpu vulkan|swiftshader] [--seconds 10] [--fps 60] [--pages DIR] [--json FILE]
 *       [--chromium-flags="--a --b"]   # instead of the default extra flags (with "=": they start with a dash)
 *       [--gpu-page FILE]         # chrome://gpu as text after the pages ran
 *   node dist/bench/chains/browserPages.js --write-pages DIR     # bundles the pages (esbuild) for a machine without it
 *
 * With `--chromium-gpu vulkan` Chromium runs with WebGPU developer features on, which turns off its quantization
 * of timestamp queries (100 µs otherwise), so the GPU times read as Dawn's in Node do.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GpuContext, fromPixels, markerDictionary, markers } from '../../index.js';
import { defaultDawnFlags } from '../../extend.js';
import { markerScene } from '../../reference.js';
import { fakeCameraArgs, gpuPageText, launchChromium, serve, y4mFrames, type ServedFile } from '../../tests/support/chromium.js';
import { benchArgs, chromiumOptions } from '../support/args.js';
import { oneAtATime, quantile, runMain } from '../support/timing.js';
import type { Browser } from 'playwright-core';

const { values, refuse } = benchArgs(import.meta.url, {
  'chromium-gpu': { type: 'string', default: 'vulkan' },
  seconds: { type: 'string', default: '10' },
  fps: { type: 'string', default: '60' },
  pages: { type: 'string' },
  'write-pages': { type: 'string' },
  json: { type: 'string' },
  'chromium-flags': { type: 'string' },
  'gpu-page': { type: 'string' },
}, ['seconds', 'fps']);
const { gpu: chromiumGpu, flags: chromiumFlags } = chromiumOptions(values['chromium-gpu'], values['chromium-flags'], refuse);
const seconds = Number(values.seconds);
const fps = Number(values.fps);

const [width, height] = [640, 480];
const dict = markerDictionary('DICT_4X4_50');
const scene = markerScene(5150, { width, height, markerSize: 4, bits: (id) => dict.bits(id), ids: [4, 19, 33, 47], side: [60, 110], maxTilt: 40, blur: 0.5, noise: 2, clutter: 6 });

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.png': 'image/png', '.mp4': 'video/mp4' };
const fileName = (route: string) => (route === '/' ? 'index.html' : route.slice(1));

/** The example pages, bundled here (esbuild) or read from a directory `--write-pages` filled. */
async function pageFiles(): Promise<Record<string, ServedFile>> {
  if (values.pages) {
    const dir = String(values.pages);
    return Object.fromEntries(readdirSync(dir).map((f) => [f === 'index.html' ? '/' : `/${f}`, { body: readFileSync(join(dir, f)), type: types[f.slice(f.lastIndexOf('.'))] ?? 'application/octet-stream' }]));
  }
  // Run from dist/bench/chains/: the script sits in the project's scripts/.
  const script = new URL('../../../scripts/serve-example.mjs', import.meta.url).href;
  const { exampleFiles } = (await import(script)) as { exampleFiles(): Promise<Record<string, ServedFile>> };
  return exampleFiles();
}

interface Row {
  page: string;
  adapter: string;
  fps: number;
  steps: Record<string, number>;
}

const median = (xs: readonly number[]) => (xs.length ? quantile(xs, 0.5) : NaN);

/** Frames counted over the window once the page has shown its first frame. */
async function framesOver(read: () => Promise<{ frames: number; error: string }>): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (let s = await read(); s.frames < 5; s = await read()) {
    if (s.error) throw new Error(`page: ${s.error}`);
    if (Date.now() > deadline) throw new Error('page: no frames in 120 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const a = await read();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const b = await read();
  if (b.error) throw new Error(`page: ${b.error}`);
  return ((b.frames - a.frames) * 1000) / (performance.now() - t0);
}

/** The adapter a page on the same server gets from `requestAdapter({ powerPreference: 'high-performance' })`. */
async function bareAdapter(browser: Browser, url: string): Promise<string> {
  const page = await browser.newPage();
  try {
    await page.goto(`${url}/`);
    return await page.evaluate(async () => {
      const a = await navigator.gpu?.requestAdapter({ powerPreference: 'high-performance' });
      return a ? `${a.info.vendor} ${a.info.architecture} ${a.info.device} ${a.info.description}${(a.info as { isFallbackAdapter?: boolean }).isFallbackAdapter ? ' (software)' : ''}`.replace(/\s+/g, ' ') : 'none';
    });
  } finally {
    await page.close();
  }
}

/**
 * The pages' rows, and the adapter a bare page in their browser got after them (the browser's, not one page's; not
 * asked before them: a fresh Chromium answers its first request with null, and the markers page must meet that).
 */
async function browserRows(): Promise<{ rows: Row[]; bareAdapterAfter: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'flowmark-pages-'));
  const y4m = join(dir, 'markers.y4m');
  writeFileSync(y4m, y4mFrames(Array.from({ length: fps }, () => scene.gray), width, height, fps));
  const { url, server } = await serve(await pageFiles());
  // Developer features lift the 100 µs quantization of timestamp queries, so short passes time as they do in Node.
  const extra = chromiumFlags ?? (chromiumGpu === 'vulkan' ? ['--enable-webgpu-developer-features'] : []);
  const chromium = await launchChromium([...fakeCameraArgs(y4m), ...extra], chromiumGpu);
  const rows: Row[] = [];
  let bareAdapterAfter = '';
  try {
    const open = async (path: string) => {
      const page = await chromium.browser.newPage();
      page.on('pageerror', (e) => console.error(`${path}: ${e.message}`));
      page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && console.error(`${path} console ${m.type()}: ${m.text()}`));
      await page.goto(`${url}/${path}`);
      return page;
    };

    const mp = await open('markers.html');
    type MarkersSeen = { frames: number; error: string; adapter: string; upload: string; ids: number[]; cameraToResultMs: number[]; passMs: Record<string, number[]> };
    const readMarkers = () => mp.evaluate(() => {
      const s = (globalThis as unknown as { flowmarkMarkers: MarkersSeen }).flowmarkMarkers;
      return { ...s, passMs: { ...s.passMs }, cameraToResultMs: [...s.cameraToResultMs] };
    });
    const markersFps = await framesOver(readMarkers);
    const m = await readMarkers();
    if (m.ids.length !== scene.markers.length) throw new Error(`markers page found ids ${m.ids.join(', ')}, the scene has ${scene.markers.map((x) => x.id).join(', ')}`);
    const passes = Object.fromEntries(Object.entries(m.passMs).map(([k, v]) => [`GPU ${k}`, median(v)]));
    const gpuTotal = Object.values(passes).reduce((s, v) => s + v, 0);
    rows.push({ page: 'markers.html', adapter: `${m.adapter}; camera frames: ${m.upload}`, fps: markersFps, steps: { 'camera → markers': median(m.cameraToResultMs), 'GPU total': gpuTotal, ...passes } });
    await mp.close();

    const ap = await open('ar.html');
    type ArSeen = { frames: number; error: string; adapter: string; upload: string; renderMs: number[]; cameraToScreenMs: number[] };
    const readAr = () => ap.evaluate(() => {
      const s = (globalThis as unknown as { flowmarkAr: ArSeen }).flowmarkAr;
      return { frames: s.frames, error: s.error, adapter: s.adapter, upload: s.upload, renderMs: [...s.renderMs], cameraToScreenMs: [...s.cameraToScreenMs] };
    });
    const arFps = await framesOver(readAr);
    const a = await readAr();
    rows.push({ page: 'ar.html', adapter: `${a.adapter}; camera frames: ${a.upload}`, fps: arFps, steps: { 'result → rendered': median(a.renderMs), 'camera → rendered': median(a.cameraToScreenMs) } });
    await ap.close();

    const tp = await open('track.html');
    await tp.waitForFunction(() => 'flowmarkTrack' in globalThis);
    const t = await tp.evaluate(async () => {
      const r = await (globalThis as unknown as { flowmarkTrack: Promise<{ frames: number; analysisMs: number; adapter: string; tracks: number }> }).flowmarkTrack;
      return { frames: r.frames, analysisMs: r.analysisMs, adapter: r.adapter, tracks: r.tracks };
    });
    rows.push({ page: 'track.html (street.mp4)', adapter: t.adapter, fps: (t.frames * 1000) / t.analysisMs, steps: { 'decode + chain, per frame': t.analysisMs / t.frames } });
    await tp.close();
    bareAdapterAfter = await bareAdapter(chromium.browser, url);
  } finally {
    // The GPU process's view after the pages ran (whether WebGPU fell back to software, and why).
    if (values['gpu-page']) writeFileSync(String(values['gpu-page']), await gpuPageText(chromium.browser).catch((e: Error) => e.message));
    await chromium.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, bareAdapterAfter };
}

/** The markers page's chain in Node on the scene's frames, one at a time. */
async function nodeRow(): Promise<Row> {
  const ctx = await GpuContext.create({ label: 'bench-pages-node', dawnFlags: defaultDawnFlags, profile: true });
  try {
    const frames = 300;
    const image = { data: scene.gray, width, height, format: 'gray' as const };
    const { results, wall } = await oneAtATime(fromPixels(ctx, Array.from({ length: frames }, () => image), { maxInFlight: 1 }).pipe(markers({ dictionary: 'DICT_4X4_50' })), 30);
    const byPass: Record<string, number[]> = {};
    for (const r of results) for (const t of r.timings) (byPass[t.name] ??= []).push(t.ms);
    const passes = Object.fromEntries(Object.entries(byPass).map(([k, v]) => [`GPU ${k}`, median(v)]));
    const gpuTotal = Object.values(passes).reduce((s, v) => s + v, 0);
    return { page: 'Node: markers(), one frame at a time', adapter: `${ctx.adapterName}${ctx.isFallbackAdapter ? ' (software)' : ''}`, fps: 1000 / median(wall), steps: { 'frame → markers': median(wall), 'GPU total': gpuTotal, ...passes } };
  } finally {
    ctx.destroy();
  }
}

async function main(): Promise<void> {
  if (values['write-pages']) {
    const dir = String(values['write-pages']);
    mkdirSync(dir, { recursive: true });
    for (const [route, f] of Object.entries(await pageFiles())) writeFileSync(join(dir, fileName(route)), 'body' in f ? f.body : readFileSync(f.path));
    console.log(`pages written to ${dir}`);
    return;
  }
  const browser = await browserRows();
  const rows = [...browser.rows, await nodeRow()];
  console.log(`flowmark's pages in Chromium (--chromium-gpu ${chromiumGpu}, camera ${width}×${height} at ${fps} frames/s, ${seconds} s a page) and Node, ${new Date().toISOString()}`);
  console.log(`A bare page in the same browser after the pages got: ${browser.bareAdapterAfter || '—'}`);
  console.log('\n| page | adapter | frames/s | ms per step (medians) |\n|---|---|---|---|');
  for (const r of rows) {
    const steps = Object.entries(r.steps).filter(([k]) => !k.startsWith('GPU ') || k === 'GPU total');
    console.log(`| ${r.page} | ${r.adapter} | ${r.fps.toFixed(1)} | ${steps.map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ')} |`);
  }
  const timed = rows.filter((r) => Object.keys(r.steps).some((k) => k.startsWith('GPU ') && k !== 'GPU total'));
  const passes = [...new Set(timed.flatMap((r) => Object.keys(r.steps).filter((k) => k.startsWith('GPU '))))];
  console.log(`\n| GPU ms per pass (median) | ${timed.map((r) => r.page).join(' | ')} |\n|---|${timed.map(() => '---|').join('')}`);
  for (const k of passes) console.log(`| ${k.slice(4)} | ${timed.map((r) => (k in r.steps ? r.steps[k].toFixed(3) : '—')).join(' | ')} |`);
  if (values.json) writeFileSync(String(values.json), JSON.stringify({ bareAdapterAfter: browser.bareAdapterAfter, rows }, null, 2));
  // Chromium falls back to SwiftShader rather than failing when it will not give WebGPU the GPU.
  const software = rows.filter((r) => !r.page.startsWith('Node') && r.adapter.includes('(software)'));
  if (chromiumGpu === 'vulkan' && software.length) console.log(`\nChromium gave ${software.map((r) => r.page).join(', ')} its software adapter, not the GPU (--gpu-page FILE says why).`);
}

runMain(main);
