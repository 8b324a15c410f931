#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, run threshold → features over the sample clip.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
npm run --silent build
node dist/examples/node/main.js "$@"
