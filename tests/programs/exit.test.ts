// A Node program that destroys its GpuContext exits by itself: Dawn must not keep the process alive.
import { expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

it('a Node process exits once its context is destroyed, without process.exit', () => {
  const index = new URL('../../dist/index.js', import.meta.url).href;
  // Inside the project (out/ is ignored by git), so the script finds the project's node_modules.
  const outDir = new URL('../../out/', import.meta.url).pathname;
  mkdirSync(outDir, { recursive: true });
  const script = join(outDir, 'exit-check.mjs');
  writeFileSync(
    script,
    `import { GpuContext, fromPixels, threshold, label, readResults } from ${JSON.stringify(index)};
import { lastValueFrom } from 'rxjs';
const ctx = await GpuContext.create();
const r = await lastValueFrom(fromPixels(ctx, [{ width: 8, height: 8, format: 'gray', data: new Uint8Array(64).fill(255) }]).pipe(threshold(), label(), readResults()));
console.log('components', r.labeling.count);
ctx.destroy();
`,
  );
  const started = Date.now();
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000, cwd: new URL('../..', import.meta.url).pathname });
  expect(r.signal, 'killed by the timeout: the process did not exit').toBeNull();
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('components 1');
  expect(Date.now() - started).toBeLessThan(60_000);
});
