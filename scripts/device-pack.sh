#!/usr/bin/env bash
# Prepares .carry/ for a run on the H100 machine (see BENCHMARKS.md): the shared pack (node, production
# node_modules, Vulkan loader) plus the GL dispatch libraries the NVIDIA Vulkan driver needs to load.
# Then: device run with carry [".carry", "dist"] and a command starting `source .carry/remote.sh;`.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
shared=${FLOWMARK_SHARED:-../shared}
bash "$shared/device/pack-runtime.sh"
if ! ls .carry/gl/libglvnd0_*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  (cd .carry/gl && apt-get $o download -qq libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)
fi
ls .carry/gl
