# Sourced by the scripts: environment for running WebGPU through Dawn on this machine.
# Vulkan's loader warns without a runtime dir; give it a private one, the same one every time (one per user, mode
# 700), so that sourcing this file does not leave a new empty folder behind each time.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR="${TMPDIR:-/tmp}/flowmark-xdg-$(id -u)"
  mkdir -p -m 700 "$XDG_RUNTIME_DIR" 2>/dev/null || true
  # Someone else's folder of that name, or none could be made: a new private one, as before.
  if [ ! -O "$XDG_RUNTIME_DIR" ]; then XDG_RUNTIME_DIR="$(mktemp -d -t flowmark-xdg.XXXXXX)"; fi
  export XDG_RUNTIME_DIR
fi
