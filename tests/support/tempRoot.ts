/**
 * Vitest's global setup: every test run writes its temporary files (clips, fake-camera videos, consumer projects,
 * Chromium profiles) under one folder of its own, removed when the run ends, so that runs leave nothing behind in
 * the system's temporary folder (each run made about 150 MB there before). Test processes inherit TMPDIR, and
 * `os.tmpdir()` reads it on every call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'flowmark-tests-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
