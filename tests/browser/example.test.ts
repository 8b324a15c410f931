// The browser example runs in headless Chromium and finds the sample frame's objects.
import { expect, it } from 'vitest';
import { chromiumSession } from '../support/chromiumSession.js';
// @ts-expect-error: a plain .mjs script without types
import { exampleFiles } from '../../scripts/serve-example.mjs';

const session = chromiumSession(async () => ({ files: await exampleFiles() }));

it('the browser example labels the sample frame and draws its five objects', async () => {
  const page = await session.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(session.url);
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
