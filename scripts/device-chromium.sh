#!/usr/bin/env bash
# Debian's Chromium, the libraries it loads that the GPU machine lacks, and playwright-core, for running flowmark's
# pages there on the real GPU (bench/chains/browserPages.ts, browserGpu.ts). Packed, they are larger than one device call carries (64 MiB), so
# they travel in parts over back-to-back calls (files under /tmp stay while the machine is warm):
#   here:      bash scripts/device-chromium.sh pack     # .chromium1/, .chromium2/, … one part of at most 52 MiB each
#   each call but the last: carry [".chromiumK"], run `bash scripts/device-chromium.sh stash`
#   the last call: carry the last (small) part with [".carry", "dist", "out/pages"] (the pages bundled here by
#              `node dist/bench/chains/browserPages.js --write-pages out/pages`) and begin the command with
#              `source .carry/remote.sh; source scripts/device-chromium.sh unpack;` (sets CHROMIUM_PATH and puts
#              playwright-core in node_modules), then `bash scripts/device-chromium.sh bench $OUT` (docs/guides/browser-gpu.md)
# Debian's Chromium 156 packs to three parts: two calls of 52 MiB, then the last with the run.
mode=${1:-}
parts=/tmp/chromium-parts
case $mode in
  pack)
    set -euo pipefail
    cd "$(dirname "$0")/.."
    src=/usr/lib/chromium
    [ -x $src/chromium ] || { echo "Debian's chromium is not installed here; run \`npm test\` once" >&2; exit 1; }
    work=$(mktemp -d)
    mkdir -p "$work/chromium/locales" "$work/lib"
    # The validation layer and the mock driver are for Vulkan debugging; one locale is enough headless.
    for f in $src/*; do
      case $(basename "$f") in libVkLayer_khronos_validation*|libVkICD_mock_icd*|locales) ;; *) cp -a "$f" "$work/chromium/" ;; esac
    done
    cp $src/locales/en-US.pak "$work/chromium/locales/"
    for exe in $src/chromium $src/chrome_crashpad_handler $src/libEGL.so $src/libGLESv2.so $src/libvk_swiftshader.so; do
      for lib in $(ldd "$exe" | awk '{print $3}' | grep /); do cp -Ln "$lib" "$work/lib/" 2>/dev/null || true; done
    done
    # Loaded by name at run time: libpci gives the GPU's PCI ids (without them Chromium's GPU info reads 0x0000),
    # libudev device events, NSS its crypto modules.
    o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64'
    (cd "$work" && apt-get $o download -qq libpci3 >/dev/null && dpkg -x libpci3_*.deb pci && cp -L pci/usr/lib/x86_64-linux-gnu/libpci.so.3 lib/ && rm -rf pci libpci3_*.deb)
    cp -L /usr/lib/x86_64-linux-gnu/libudev.so.1 "$work/lib/"
    cp -Ln /usr/lib/x86_64-linux-gnu/nss/*.so "$work/lib/"
    # The C library and its parts come from the machine itself.
    rm -f "$work"/lib/{libc.so.6,libm.so.6,libpthread.so.0,libdl.so.2,librt.so.1}
    cat > "$work/chromium.sh" <<'EOF'
#!/bin/sh
here=$(dirname "$(readlink -f "$0")")
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$here/chromium/chromium" "$@"
EOF
    chmod +x "$work/chromium.sh"
    mkdir -p "$work/node_modules"
    cp -a node_modules/playwright-core "$work/node_modules/"
    rm -rf .chromium[0-9]*
    tar -C "$work" -cf - node_modules lib chromium chromium.sh | xz -T0 -9 | split -b 52M -d - "$work/part."
    k=0
    for part in "$work"/part.*; do k=$((k + 1)); mkdir -p .chromium$k; mv "$part" .chromium$k/; done
    rm -rf "$work"
    du -sh .chromium[0-9]*
    ;;
  stash)
    mkdir -p $parts
    cp .chromium[0-9]*/part.* $parts/
    ls -l $parts
    ;;
  unpack)
    if [ ! -x /tmp/chromium/chromium.sh ]; then
      mkdir -p /tmp/chromium $parts
      cp .chromium[0-9]*/part.* $parts/ 2>/dev/null
      cat $parts/part.* | xz -dc | tar -C /tmp/chromium -xf -
    fi
    [ -d node_modules/playwright-core ] || cp -a /tmp/chromium/node_modules/playwright-core node_modules/
    export CHROMIUM_PATH=/tmp/chromium/chromium.sh
    ;;
  bench)
    # After unpack, with dist/ and the pages (`--write-pages out/pages`) carried: the pages first (what a call cut
    # short should still bring back), then the adapter Chromium gives a bare page with each of the pages' extra
    # flags, and the pages again without developer features if Chromium gave them its software adapter. Tables and
    # chrome://gpu into ${2:-$OUT}.
    out=${2:-$OUT}
    [ -n "$out" ] && [ -d out/pages ] && [ -n "${CHROMIUM_PATH:-}" ] || { echo "usage: source scripts/device-chromium.sh unpack; bash scripts/device-chromium.sh bench DIR (out/pages carried)" >&2; exit 2; }
    # Chromium's own output (DEBUG=pw:browser) beside the pages' console errors, for why the GPU process fell back.
    DEBUG=pw:browser timeout 150 node dist/bench/chains/browserPages.js --chromium-gpu vulkan --pages out/pages --seconds 10 --json "$out/pages.json" --gpu-page "$out/gpu-pages.txt" > "$out/pages.txt" 2> "$out/pages.log"
    cat "$out/pages.txt"
    node dist/bench/chains/browserGpu.js --chromium-gpu vulkan --json "$out/probe.json" --gpu-page "$out/gpu.txt" > "$out/probe.txt" 2>&1
    for f in --enable-webgpu-developer-features "--use-fake-ui-for-media-stream --use-fake-device-for-media-stream" "--enable-webgpu-developer-features --use-fake-ui-for-media-stream --use-fake-device-for-media-stream"; do
      echo "browserGpu --chromium-flags=\"$f\": $(timeout 60 node dist/bench/chains/browserGpu.js --chromium-gpu vulkan --chromium-flags="$f" 2>&1 | grep '^Chromium:')"
    done
    if grep -q '(software)' "$out/pages.json"; then
      timeout 150 node dist/bench/chains/browserPages.js --chromium-gpu vulkan --chromium-flags="" --pages out/pages --seconds 10 --json "$out/pages-plain.json" > "$out/pages-plain.txt" 2>&1
      cat "$out/pages-plain.txt"
    fi
    ;;
  *)
    echo "usage: bash scripts/device-chromium.sh pack|stash; source scripts/device-chromium.sh unpack; bash scripts/device-chromium.sh bench DIR" >&2
    exit 2
    ;;
esac
