#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks to run flowmark's GPU code without a GPU, then the npm
# packages. Idempotent: each step is skipped when what it provides is already there.
#   - Mesa lavapipe (Vulkan on the CPU) from bookworm-backports: Dawn rejects bookworm's own Mesa 22.
#   - Debian's Chromium (browser tests: WebGPU on SwiftShader) and ffmpeg (test clips, Node video decode).
#   - Debian's python3-opencv: OpenCV's ArUco detector as the reference of marker tests and evaluation.
#   - Debian's rtsp-server-perl: a real RTSP server for the network-camera tests (fromCameraUrl).
#   - Debian's redis-server: the stream engine of a fleet of workers (`flowmark worker`), started by its tests.
#   - npm packages from package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

mesa_ok() {
  local v
  v=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
  # bookworm ships 22.x; the backport is 25.x. Any major >= 24 is new enough for Dawn.
  [ -n "$v" ] && [ "${v%%.*}" -ge 24 ] 2>/dev/null
}

need_apt=()
mesa_ok || need_apt+=(mesa)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || need_apt+=(ffmpeg)
# OpenCV's ArUco detector, the reference of the marker tests and evaluation (never a dependency of the library).
/usr/bin/python3 -c 'import cv2' >/dev/null 2>&1 || need_apt+=(python3-opencv)
# An RTSP server that ffmpeg publishes a test camera to, for the network-camera tests (not used by the library).
command -v rtsp-server-perl >/dev/null 2>&1 || need_apt+=(rtsp-server-perl)
# The fleet's stream engine; the tests start their own server on a free localhost port (the package's service is not used).
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages for: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if [[ " ${need_apt[*]} " == *" mesa "* ]] && ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    # Derive the mirror from the machine's own sources rather than hard-coding one.
    uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)
    if [ -z "$uri" ]; then
      uri=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -n1 || true)
    fi
    [ -n "$uri" ] || { echo "setup: cannot find a Debian mirror in /etc/apt/sources*" >&2; exit 1; }
    key=/usr/share/keyrings/debian-archive-keyring.gpg
    printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: %s\n' "$uri" "$key" \
      | $SUDO tee /etc/apt/sources.list.d/flowmark-backports.sources >/dev/null
  fi
  $SUDO apt-get update -qq
  pkgs=()
  for n in "${need_apt[@]}"; do
    case $n in
      mesa) $SUDO apt-get install -y -qq -t bookworm-backports mesa-vulkan-drivers libvulkan1 >/dev/null ;;
      *) pkgs+=("$n") ;;
    esac
  done
  if [ ${#pkgs[@]} -gt 0 ]; then $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null; fi
fi

# npm packages: reinstall only when the lockfile changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
