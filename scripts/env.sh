# Sourced by the scripts: environment for running WebGPU through Dawn on this machine.
# Vulkan's loader warns without a runtime dir; give it a private one.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d -t flowmark-xdg.XXXXXX)}"
