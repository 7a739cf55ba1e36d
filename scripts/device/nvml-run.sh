#!/usr/bin/env bash
# On the GPU machine (carry .device/nvml, packed by scripts/device/pack-nvml.sh): builds native/build/rtnvml.node
# and prints what rtserve exports from NVML next to nvidia-smi's view of the same readings, then runs the GPU
# metrics unit test (its NVML branch runs only there); the output also goes to $OUT/nvml.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/rtnvml-out}
mkdir -p "$OUT" /tmp/rtnvml/bin
xz -dc .device/nvml/node.xz > /tmp/rtnvml/bin/node && chmod +x /tmp/rtnvml/bin/node
tar -C /tmp/rtnvml -xJf .device/nvml/node-include.tar.xz
tar -xJf .device/nvml/modules.tar.xz
export PATH=/tmp/rtnvml/bin:$PATH
{
  echo "== nvidia-smi"
  nvidia-smi --query-gpu=uuid,utilization.gpu,memory.used,memory.total,power.draw,power.limit --format=csv
  echo "== build"
  NODE_INCLUDE=/tmp/rtnvml/include/node native/build-nvml.sh
  echo "== rtserve's GPU metrics"
  node --experimental-strip-types --no-warnings scripts/device/gpu-metrics-check.ts
  echo "== unit test (test/unit/observability/gpu-metrics.test.ts)"
  node --experimental-strip-types --no-warnings --test test/unit/observability/gpu-metrics.test.ts
} 2>&1 | tee "$OUT/nvml.txt"
