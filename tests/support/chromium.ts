// Headless Debian Chromium with WebGPU on SwiftShader (flags from shared/TESTING.md), or on the machine's GPU through
// Vulkan, driven by playwright-core, and a static localhost server for bundled test pages.
import { createServer, type Server } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where Chromium's WebGPU runs: SwiftShader (CPU emulation, what the tests run on), or the GPU through Vulkan. */
export type ChromiumGpu = 'swiftshader' | 'vulkan';

const gpuArgs: Record<ChromiumGpu, string[]> = {
  swiftshader: ['--use-angle=swiftshader', '--enable-features=Vulkan', '--use-vulkan=swiftshader'],
  // As Chrome's team gives for headless Linux with a GPU: ANGLE and WebGPU on the Vulkan driver, no window surface.
  vulkan: ['--use-angle=vulkan', '--enable-features=Vulkan', '--disable-vulkan-surface', '--ignore-gpu-blocklist'],
};

export const chromiumArgs = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Flags for a fake camera that plays `file` (a YUV4MPEG2 file), granted without a prompt. */
export function fakeCameraArgs(file: string): string[] {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${file}`];
}

/** A YUV4MPEG2 file (a fake camera's input) of `frames` copies of a gray image (Y = gray, U = V = 128). */
export function y4m(gray: Uint8Array, width: number, height: number, frames: number): Buffer {
  return y4mFrames(Array.from({ length: frames }, () => gray), width, height);
}

/** A YUV4MPEG2 file of these gray images, played at `fps` frames a second (the fake camera loops it). */
export function y4mFrames(grays: readonly Uint8Array[], width: number, height: number, fps = 30): Buffer {
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frames = grays.map((gray) => Buffer.concat([Buffer.from('FRAME\n'), Buffer.from(gray), chroma]));
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`), ...frames]);
}

export async function launchChromium(extraArgs: string[] = [], gpu: ChromiumGpu = 'swiftshader'): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}; run \`npm test\`, which installs Debian's chromium`);
  // Playwright gives every launch a fresh, temporary profile of its own.
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs, ...gpuArgs[gpu], ...extraArgs] });
  return { browser, close: () => browser.close() };
}

/** A page's text, the open shadow roots' included (chrome://gpu is built of them); runs in the page. */
function textThroughShadows(): string {
  type El = { shadowRoot: El | null; childNodes: ArrayLike<El>; nodeType: number; textContent: string | null; tagName?: string };
  const out: string[] = [];
  const walk = (n: El): void => {
    if (n.nodeType === 3) {
      const t = (n.textContent ?? '').trim();
      if (t) out.push(t);
      return;
    }
    if (n.tagName === 'STYLE' || n.tagName === 'SCRIPT') return;
    if (n.shadowRoot) walk(n.shadowRoot);
    for (const c of Array.from(n.childNodes)) walk(c);
  };
  walk((globalThis as unknown as { document: El }).document);
  return out.join('\n');
}

/** The text of chrome://gpu: the GPU process's view (driver, GPU ids, what fell back to software and why). */
export async function gpuPageText(browser: Browser): Promise<string> {
  const tab = await browser.newPage();
  try {
    await tab.goto('chrome://gpu');
    // The page fills itself in from the GPU process after load.
    await tab.waitForTimeout(3000);
    return await tab.evaluate(textThroughShadows);
  } finally {
    await tab.close();
  }
}

/**
 * A served file: its bytes, or a file on disk (streamed: it may be larger than memory, a sparse file of GiB). With
 * `ranges`, a `Range: bytes=a-b` request is answered 206 with that part and the file's size, as static servers and
 * CDNs answer; without, the whole file, as a server that ignores ranges does.
 */
export type ServedFile = ({ body: string | Uint8Array } | { path: string }) & { type: string; ranges?: boolean };

/** Serves `files` (path → file) on 127.0.0.1 at a free port. */
export async function serve(files: Record<string, ServedFile>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const f = files[(req.url ?? '/').split('?')[0]];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    const body = 'body' in f ? Buffer.from(f.body) : null;
    const size = body ? body.length : statSync((f as { path: string }).path).size;
    const send = (start: number, end: number) => (body ? res.end(body.subarray(start, end + 1)) : createReadStream((f as { path: string }).path, { start, end }).pipe(res));
    const headers = { 'content-type': f.type, 'cache-control': 'no-store' };
    const range = f.ranges ? /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '') : null;
    if (!range) {
      res.writeHead(200, { ...headers, 'content-length': size, ...(f.ranges ? { 'accept-ranges': 'bytes' } : {}) });
      if (size) send(0, size - 1);
      else res.end();
      return;
    }
    const start = Number(range[1]);
    const end = Math.min(size - 1, range[2] ? Number(range[2]) : size - 1);
    if (start >= size || end < start) {
      res.writeHead(416, { ...headers, 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, { ...headers, 'accept-ranges': 'bytes', 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
    send(start, end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, server };
}

/** Bundles a test page's entry (TypeScript) for the browser: the files to serve at / and /page.js. */
export async function pageFiles(entry: URL): Promise<Record<string, { body: string | Uint8Array; type: string }>> {
  const bundle = await (await import('esbuild')).build({ entryPoints: [fileURLToPath(entry)], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, external: ['webgpu'] });
  return {
    '/': { body: '<!doctype html><meta charset="utf-8"><title>flowmark test</title><script type="module" src="/page.js"></script>', type: 'text/html' },
    '/page.js': { body: bundle.outputFiles[0].contents, type: 'text/javascript' },
  };
}

/**
 * Opens `url`, waits for the page to define `globalThis[fn]`, calls it with `arg` and returns its result, the
 * page's uncaught errors and the page itself.
 */
export async function callInPage<T>(browser: Browser, url: string, fn: string, arg?: unknown): Promise<{ result: T; errors: string[]; page: Page }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction((name) => name in globalThis, fn);
  const result = (await page.evaluate(
    ([name, a]) => (globalThis as unknown as Record<string, (x: unknown) => Promise<unknown>>)[name as string](a),
    [fn, arg] as const,
  )) as T;
  return { result, errors, page };
}
