// The same threshold → label pipeline in headless Chromium (WebGPU on SwiftShader), equal to the CPU reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { launchChromium, serve } from '../support/chromium.js';
import type { BrowserSummary } from './page.js';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Server;
let url: string;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    // Dawn is Node's WebGPU; the browser has its own.
    external: ['webgpu'],
  });
  const html = '<!doctype html><meta charset="utf-8"><title>flowmark tests</title><script type="module" src="/page.js"></script>';
  ({ url, server } = await serve({
    '/': { body: html, type: 'text/html' },
    '/page.js': { body: bundle.outputFiles[0].contents, type: 'text/javascript' },
  }));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe('in headless Chromium', () => {
  it('labels (every algorithm) and thresholds exactly like the CPU reference, on WebGPU', async () => {
    const page = await browser.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => 'runFlowmarkTests' in globalThis);
    const summary = (await page.evaluate(() => (globalThis as unknown as { runFlowmarkTests(): Promise<unknown> }).runFlowmarkTests())) as BrowserSummary;
    expect(errors).toEqual([]);
    expect(summary.failures).toEqual([]);
    expect(summary.labelChecks).toBeGreaterThanOrEqual(6 * 2 * 100); // every algorithm, both connectivities
    expect(summary.thresholdChecks).toBe(6);
    expect(summary.inUseAfter).toBe(0);
    console.log(`chromium adapter: ${summary.adapter} (fallback ${summary.fallback}, subgroups ${summary.subgroups})`);
  });
});
