#!/usr/bin/env bash
# Debian's ffmpeg, ffprobe and redis-server for the GPU machine, which has neither (bench/chains/fleet.js needs
# them), and the 1080p street clip it reads. With their libraries they are larger than one device call carries (64 MiB), so they travel in parts:
#   here:  bash scripts/device-tools.sh pack      # .devtools1/ (two parts) and .devtools2/ (the last part)
#   there: call 1 carries [".devtools1"] and runs `bash scripts/device-tools.sh stash`;
#          call 2, back to back (files under /tmp stay while the machine is warm), carries [".devtools2", ".carry",
#          "dist"] and begins `source scripts/device-tools.sh unpack;` (PATH and LD_LIBRARY_PATH set).
mode=${1:-}
case $mode in
  pack)
    set -euo pipefail
    cd "$(dirname "$0")/.."
    work=$(mktemp -d)
    mkdir -p "$work/lib"
    for exe in /usr/bin/ffmpeg /usr/bin/ffprobe /usr/bin/redis-server; do
      cp "$exe" "$work/"
      for lib in $(ldd "$exe" | awk '{print $3}' | grep /); do cp -Ln "$lib" "$work/lib/" 2>/dev/null || true; done
    done
    # The C library and its parts come from the machine itself.
    rm -f "$work"/lib/{libc.so.6,libm.so.6,libpthread.so.0,libdl.so.2,librt.so.1}
    rm -rf .devtools1 .devtools2
    mkdir -p .devtools1 .devtools2
    tar -C "$work" -cf - . | xz -T0 -6 | split -b 26M - .devtools1/part.
    mv "$(ls .devtools1/part.* | tail -n1)" .devtools2/
    node dist/bench/chains/fleet.js --write-clip .devtools1/street1080.mp4
    rm -rf "$work"
    du -sh .devtools1 .devtools2
    ;;
  stash)
    mkdir -p /tmp/devtools-parts
    cp .devtools1/part.* .devtools1/street1080.mp4 /tmp/devtools-parts/
    ;;
  unpack)
    if [ ! -x /tmp/devtools/ffmpeg ]; then
      cp .devtools2/part.* /tmp/devtools-parts/
      mkdir -p /tmp/devtools
      cat /tmp/devtools-parts/part.* | xz -dc | tar -C /tmp/devtools -xf -
    fi
    export PATH=/tmp/devtools:$PATH LD_LIBRARY_PATH=/tmp/devtools/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    ;;
  *)
    echo "usage: bash scripts/device-tools.sh pack|stash; source scripts/device-tools.sh unpack" >&2
    exit 2
    ;;
esac
