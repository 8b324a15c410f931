#!/usr/bin/env bash
# The test suite on a fresh machine: install what is missing, build (shaders, types, CLI), run every test.
# GPU tests need an adapter and fail, never skip, without one: tests/support/gpu.ts throws when none is found.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
npm run --silent build
node scripts/warm-shaders.mjs
# Tests and benchmarks are type-checked too (vitest itself only strips types), and the browser examples (esbuild
# bundles them without checking), importing the package by name as a user's page does.
npx tsc -p tsconfig.tests.json
npx tsc -p tsconfig.examples.json
mkdir -p out
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=out/vitest.json "$@" || status=$?
# One plain closing line that any reader of the log understands.
node -e '
  const r = JSON.parse(require("fs").readFileSync("out/vitest.json", "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' || true
exit $status
