#!/usr/bin/env bash
# Run on the GPU machine from the repository root: restores node, node_modules, dist and the Vulkan loader
# packed by scripts/device/pack.sh. Afterwards `source .device/env.sh` puts node on PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .device/bin
xz -dc .device/node.xz > .device/bin/node && chmod +x .device/bin/node
tar -xJf .device/runtime.tar.xz
mkdir -p .device/include && tar -C .device -xJf .device/node-include.tar.xz
if [ -d .device/gl ]; then for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig; fi
cat > .device/env.sh <<EOS
export PATH="$PWD/.device/bin:\$PATH"
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export NODE_INCLUDE="$PWD/.device/include/node"
EOS
.device/bin/node --version
