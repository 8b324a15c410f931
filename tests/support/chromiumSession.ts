// One served set of pages and one headless Chromium for a test file, opened before its tests and closed after
// (kept apart from chromium.ts, which benchmarks import outside vitest).
import { afterAll, beforeAll } from 'vitest';
import type { Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { launchChromium, serve, type ServedFile } from './chromium.js';

export type ServedFiles = Record<string, ServedFile>;

/**
 * Registers the file's beforeAll (runs `setup`: the files to serve and Chromium's extra flags, such as a fake
 * camera's file made there; then serves and launches) and afterAll (closes both). `browser` and `url` are set once
 * beforeAll has run: read them inside tests.
 */
export function chromiumSession(setup: () => Promise<{ files: ServedFiles; args?: string[] }>): { readonly browser: Browser; readonly url: string } {
  let launched: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let server: Server | undefined;
  let url = '';
  beforeAll(async () => {
    const { files, args } = await setup();
    ({ url, server } = await serve(files));
    launched = await launchChromium(args);
  });
  afterAll(async () => {
    await launched?.close();
    server?.close();
  });
  return {
    get browser(): Browser {
      if (!launched) throw new Error('chromiumSession: Chromium is not launched (read browser inside a test)');
      return launched.browser;
    },
    get url(): string {
      return url;
    },
  };
}
