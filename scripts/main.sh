#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, run threshold → features over the sample clip,
# then markers() over the markers clip (with its true corners), then blob tracking over the street clip (with its
# true boxes). Files given go to the labeling job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
npm run --silent build
node dist/examples/node/main.js "$@"
if [ $# -eq 0 ]; then
  node dist/examples/node/markers.js
  node dist/examples/node/track.js
fi
