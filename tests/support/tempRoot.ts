/**
 * Vitest's global setup: every test run writes its temporary files (clips, fake-camera videos, consumer projects,
 * Chromium profiles) under one folder of its own, removed when the run ends, so that runs leave nothing behind in
 * the system's temporary folder. Test processes inherit TMPDIR, and `os.tmpdir()` reads it on every call.
 * Each tier (a vitest project) runs this setup: the first makes the folder and the others use it, so that paths stay
 * short (Chromium refuses a profile whose socket path passes about 100 characters).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const marker = 'FLOWMARK_TEST_ROOT';

export default function setup(): () => void {
  if (process.env[marker] && process.env.TMPDIR === process.env[marker]) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'flowmark-tests-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  process.env[marker] = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env[marker];
    rmSync(root, { recursive: true, force: true });
  };
}
