#!/usr/bin/env bash
# Packs what a CUDA-engine run on the GPU machine needs and the machine lacks into .device/cuda/ (git-ignored;
# pass `carry: [".device/cuda"]` to the device tool, then run bench/cuda/run.sh there):
#   node.xz          the Node binary, stripped of debug info (27 MB instead of 29 MB compressed)
#   node-include.tar.xz  Node's headers, for building the addon (node_api.h)
#   modules.tar.xz   runtime node_modules only: no compilers, browsers, image libraries (sharp is replaced by a
#                    stub that throws: the image routes are not measured there), no onnxruntime binaries
#   ort.tar.xz       onnxruntime-node's linux/x64 libraries (WebGPU baseline and the GPU unit tests), only when
#                    the whole carry stays under the tool's 64 MiB (WITH_ORT=0 leaves it out)
#   gl/              the Vulkan loader and GL packages (onnxruntime's WebGPU provider needs them; WITH_GL=0: left out)
# The sources run as they are (node --experimental-transform-types): no dist/ build is carried.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.device/cuda
mkdir -p "$out" /tmp/rtserve-cuda-pack
[ -f .device/node.xz ] || scripts/device/pack.sh
if [ ! -f "$out/node.xz" ]; then
  xz -dc .device/node.xz > /tmp/rtserve-cuda-pack/node && strip /tmp/rtserve-cuda-pack/node
  xz -T2 -6 -c /tmp/rtserve-cuda-pack/node > "$out/node.xz"
fi
cp .device/node-include.tar.xz "$out/"
# WITH_GL=0 leaves the Vulkan/GL packages out (only the webgpu step needs them): room for onnxruntime in the carry.
if [ "${WITH_GL:-1}" = 1 ]; then [ -d "$out/gl" ] || cp -r .device/gl "$out/gl"; else rm -rf "$out/gl"; fi

# The commit the run is of (bench/cuda/gpu-tests.ts records it with the GPU test summary), "-dirty" with local changes.
echo "$(git rev-parse HEAD)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)" > "$out/commit.txt"

stub=/tmp/rtserve-cuda-pack/stub/node_modules/sharp
mkdir -p "$stub"
echo '{"name":"sharp","version":"0.0.0-stub","main":"index.js"}' > "$stub/package.json"
cat > "$stub/index.js" <<'EOJS'
// Stand-in for sharp on the GPU machine: module-level settings (sharp.cache(false), ...) are no-ops; decoding throws.
const sharp = function sharp() { throw new Error('sharp is not carried to the GPU machine'); };
module.exports = new Proxy(sharp, { get: (t, p) => (p in t ? t[p] : () => undefined) });
EOJS
tar -cf /tmp/rtserve-cuda-pack/modules.tar \
  --exclude='node_modules/typescript' --exclude='node_modules/@types' --exclude='node_modules/playwright-core' \
  --exclude='node_modules/@esbuild' --exclude='node_modules/esbuild' --exclude='node_modules/tsx' --exclude='node_modules/fast-check' --exclude='node_modules/openai' \
  --exclude='node_modules/onnxruntime-node/bin' --exclude='node_modules/@img' --exclude='node_modules/sharp' \
  --exclude='node_modules/protobufjs-cli' --exclude='node_modules/jsdoc' --exclude='node_modules/@jsdoc' --exclude='node_modules/@babel' \
  --exclude='node_modules/swagger-ui-dist/*bundle*' \
  --exclude='node_modules/*/node_modules/protobufjs/cli' --exclude='node_modules/*/node_modules/protobufjs/dist' --exclude='node_modules/protobufjs/cli' --exclude='node_modules/protobufjs/dist' \
  --exclude='node_modules/bintrees/test' --exclude='node_modules/zod/src' \
  --exclude='node_modules/@biomejs' --exclude='node_modules/kubernetes-models' --exclude='node_modules/@kubernetes-models' --exclude='node_modules/c8' \
  --exclude='node_modules/@opentelemetry/*/build/esm' --exclude='node_modules/@opentelemetry/*/build/esnext' \
  --exclude='*.map' --exclude='*.d.ts' --exclude='*.md' node_modules
tar -rf /tmp/rtserve-cuda-pack/modules.tar -C /tmp/rtserve-cuda-pack/stub node_modules/sharp
xz -T2 -6 -c /tmp/rtserve-cuda-pack/modules.tar > "$out/modules.tar.xz"

tree_bytes=$( (git ls-files -z; git ls-files -z --others --exclude-standard) | xargs -0 du -cb 2>/dev/null | awk '/total$/ {s += $1} END {print s}')
carry_bytes=$(du -cb "$out"/node.xz "$out"/node-include.tar.xz "$out"/modules.tar.xz $([ -d "$out/gl" ] && echo "$out/gl") | tail -1 | cut -f1)
limit=$((64 * 1024 * 1024 - 1024 * 1024))
[ -f "$out/ort.tar.xz" ] && mv "$out/ort.tar.xz" /tmp/rtserve-cuda-pack/ort.tar.xz
if [ "${WITH_ORT:-1}" = 1 ]; then
  [ -f /tmp/rtserve-cuda-pack/ort.tar.xz ] || tar -cf - node_modules/onnxruntime-node/bin/napi-v6/linux/x64 | xz -T2 -6 > /tmp/rtserve-cuda-pack/ort.tar.xz
  ort_bytes=$(stat -c %s /tmp/rtserve-cuda-pack/ort.tar.xz)
  if [ $((tree_bytes + carry_bytes + ort_bytes)) -lt $limit ]; then
    mv /tmp/rtserve-cuda-pack/ort.tar.xz "$out/"
  else
    echo "onnxruntime left out: tree $tree_bytes + carry $carry_bytes + ort $ort_bytes bytes would pass the 63 MiB budget" >&2
  fi
fi
du -b "$out"/* | sort -n
echo "working tree: $tree_bytes bytes; carried total: $((tree_bytes + $(du -cb "$out" | tail -1 | cut -f1))) of $((64 * 1024 * 1024))"
