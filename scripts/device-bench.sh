#!/usr/bin/env bash
# The figures of BENCHMARKS.md, on the GPU machine. Prepare here with `bash scripts/device-pack.sh` (builds dist/,
# fills .carry/), then run there with .carry and dist carried:
#   source .carry/remote.sh; bash scripts/device-bench.sh gpu     # labeling, features, latency, markers, dots, surveillance
#   source .carry/remote.sh; bash scripts/device-bench.sh eval    # pose and calibration accuracy, tracker host time
#   source scripts/device-tools.sh unpack; source .carry/remote.sh; bash scripts/device-bench.sh fleet
#                                                                   # decode, pixel chain over processes, cameras through
#                                                                   # the engine (ffmpeg and redis-server: device-tools.sh)
# (bench/evaluation/markersEval.js needs ffmpeg and bench/chains/ar.js three, which the machine lacks: they run on a development machine.)
# Every program's output (its tables) goes to $OUT/<group>.md under a heading naming the program and its flags, its
# errors to $OUT/<group>.err, and one line a program (exit status, seconds) to stdout. OpenCV references run with the
# machine's python3 (opencv-python-headless).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device}
mkdir -p "$out"
py=$(command -v python3 || echo /usr/bin/python3)
# One step: its command under a heading, its output appended to the group's file, its exit status and seconds said.
step() {
  local title=$1 name=$2 t0 status
  shift 2
  t0=$(date +%s)
  printf '\n## `%s`\n\n' "$title" >>"$out/$group.md"
  timeout "${LIMIT:-240}" "$@" >>"$out/$group.md" 2>>"$out/$group.err"
  status=$?
  echo "$name: exit $status in $(($(date +%s) - t0)) s" | tee -a "$out/$group.md"
}
run() {
  local name=$1 # group/program
  shift
  step "node dist/bench/$name.js $*" "${name#*/}" node "dist/bench/$name.js" "$@"
}
# The labeling references (cupy on the GPU, OpenCV on the CPU), run by the machine's python3.
baselines() {
  step 'python3 bench/baselines/label-baselines.py' label-baselines "$py" bench/baselines/label-baselines.py
}
group=${1:-gpu}
: >"$out/$group.md"
: >"$out/$group.err"
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1), node $(node --version), $(date -u +%F)" >>"$out/$group.md"
case $group in
  gpu)
    run timing/verify --dawn backend=vulkan
    run timing/labeling --dawn backend=vulkan --reps 20 --passes 8 --repeat 20
    run timing/features --dawn backend=vulkan
    run timing/latency --dawn backend=vulkan
    run timing/markers --dawn backend=vulkan --python "$py"
    run timing/dots --dawn backend=vulkan
    run chains/surveillance --dawn backend=vulkan --python "$py"
    run timing/compile --dawn backend=vulkan
    baselines
    ;;
  baselines)
    baselines
    ;;
  eval)
    run evaluation/poseEval --dawn backend=vulkan --python "$py"
    run evaluation/calibrateEval --dawn backend=vulkan --python "$py"
    run timing/tracker --frames 2000 --digest yes
    ;;
  fleet)
    clip=${CLIP:-/tmp/devtools-parts/street1080.mp4}
    LIMIT=200 run chains/fleet --clip "$clip" --decode 1,4,16 --hwaccel cuda --seconds 10
    LIMIT=200 run chains/fleet --pixel-workers 1,2,4,8 --streams 16 --seconds 20
    LIMIT=260 run chains/fleet --clip "$clip" --workers 8 --cameras 32,64,96,128 --failover --seconds 15
    ;;
  *)
    echo "usage: device-bench.sh gpu|eval|baselines|fleet" >&2
    exit 2
    ;;
esac
