import { defineConfig } from 'vitest/config';

// The suite in tiers (docs/testing.md), one vitest project each: `vitest run --project unit` runs one.
// One file at a time everywhere: lavapipe already uses every core, and Chromium needs memory of its own.
const tier = (name: string, include: string[], testTimeout: number) => ({
  extends: true as const,
  test: { name, include, testTimeout },
});

export default defineConfig({
  test: {
    // Temporary files of a run in a folder of its own, removed at the end (tests/support/tempRoot.ts).
    globalSetup: ['tests/support/tempRoot.ts'],
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
    projects: [
      tier('unit', ['tests/unit/**/*.test.ts'], 60_000),
      // Dawn and lavapipe run on the CPU here: GPU tests are slow but must run, never skip.
      tier('gpu', ['tests/gpu/**/*.test.ts'], 120_000),
      tier('browser', ['tests/browser/**/*.test.ts'], 120_000),
      tier('programs', ['tests/programs/**/*.test.ts'], 120_000),
    ],
  },
});
