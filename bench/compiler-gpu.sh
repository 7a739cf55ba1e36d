#!/usr/bin/env bash
# bench/compiler.ts on the GPU machine, in one command (carry .device/cuda, packed here by scripts/device/pack-cuda.sh,
# the same carry as bench/cuda/run.sh; it holds node, the runtime node_modules and onnxruntime's linux/x64 libraries):
#   bench/compiler-gpu.sh [extra bench/compiler.ts flags]
# Runs FP32 / FP16 / INT8 plans of mlp, resnet_tiny and encoder through onnxruntime's WebGPU provider (plans built
# with --target ort-webgpu, each model's FP32 source in the same run), then the same with --target ort-cpu on the
# machine's CPU. Results: $OUT/compiler-ort-webgpu.json, $OUT/compiler-ort-cpu.json and a log per step.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/rtcompiler-out}
mkdir -p "$OUT"
if [ ! -f .device/cuda/env.sh ]; then
  scripts/device/unpack-cuda.sh > "$OUT/unpack.log" 2>&1 || { tail -n 20 "$OUT/unpack.log"; exit 1; }
fi
# shellcheck disable=SC1091
source .device/cuda/env.sh
{ node --version; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } 2>&1 | tee "$OUT/machine.txt"
# Node 22 runs the TypeScript sources itself (no tsx on the device); the compiler's imports need type transforms.
bench() {
  local target=$1 limit=$2
  shift 2
  timeout --kill-after=5 "$limit" node --experimental-transform-types --no-warnings bench/compiler.ts \
    --target "$target" --rounds 3 --save --out "$OUT/compiler-$target.json" "$@" > "$OUT/$target.log" 2>&1
  echo "$target rc=$?"
  grep -E '^(\||[a-z_]+ \(|saved|target)' "$OUT/$target.log" || tail -n 30 "$OUT/$target.log"
}
# TARGETS picks the targets (default both, WebGPU first).
for t in ${TARGETS:-ort-webgpu ort-cpu}; do
  case $t in
    ort-webgpu) bench ort-webgpu "${WEBGPU_LIMIT_S:-330}" "$@" ;;
    ort-cpu) bench ort-cpu "${CPU_LIMIT_S:-200}" "$@" ;;
  esac
done
