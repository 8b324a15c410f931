import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Temporary files of a run in a folder of its own, removed at the end (tests/support/tempRoot.ts).
    globalSetup: ['tests/support/tempRoot.ts'],
    // Dawn and lavapipe run on the CPU here: GPU tests are slow but must run, never skip.
    testTimeout: 240_000,
    hookTimeout: 120_000,
    // One file at a time: lavapipe already uses every core, and Chromium needs memory of its own.
    fileParallelism: false,
    pool: 'forks',
  },
});
