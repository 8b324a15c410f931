// The browser example runs in headless Chromium and finds the sample frame's objects.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { launchChromium, serve } from '../support/chromium.js';
// @ts-expect-error: a plain .mjs script without types
import { exampleFiles } from '../../scripts/serve-example.mjs';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Server;
let url: string;

beforeAll(async () => {
  ({ url, server } = await serve(await exampleFiles()));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  server?.close();
});

it('the browser example labels the sample frame and draws its five objects', async () => {
  const page = await browser.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => 'flowmarkExample' in globalThis);
  // The example runs by itself on load and leaves its promise, not a function, on the page.
  const result = await page.evaluate(() => (globalThis as unknown as { flowmarkExample: Promise<{ objects: number; components: number }> }).flowmarkExample);
  expect(errors).toEqual([]);
  // Three dark blobs and two markers in frame 3 of the sample data.
  expect(result.objects).toBe(5);
  expect(await page.locator('#objects tr').count()).toBe(6);
  expect(await page.textContent('#status')).toMatch(/components, 5 objects/);
  if (process.env.FLOWMARK_SCREENSHOT) await page.screenshot({ path: process.env.FLOWMARK_SCREENSHOT, fullPage: true });
});
