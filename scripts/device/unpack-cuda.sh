#!/usr/bin/env bash
# On the GPU machine, from the repository root: restores what scripts/device/pack-cuda.sh packed into
# .device/cuda/. Afterwards `source .device/cuda/env.sh` puts node on PATH and points the build at Node's headers.
set -euo pipefail
cd "$(dirname "$0")/../.."
d=.device/cuda
mkdir -p "$d/bin"
xz -dc "$d/node.xz" > "$d/bin/node" && chmod +x "$d/bin/node"
tar -xJf "$d/modules.tar.xz"
if [ -f "$d/ort.tar.xz" ]; then tar -xJf "$d/ort.tar.xz"; fi
tar -C "$d" -xJf "$d/node-include.tar.xz"
if [ -d "$d/gl" ] && [ "${SKIP_GL:-0}" != 1 ]; then for f in "$d"/gl/*.deb; do dpkg -x "$f" /; done; ldconfig; fi
cat > "$d/env.sh" <<EOS
export PATH="$PWD/$d/bin:\$PATH"
export NODE_INCLUDE="$PWD/$d/include/node"
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export NODE_OPTIONS="--experimental-transform-types --no-warnings"
EOS
"$d/bin/node" --version
