#!/usr/bin/env bash
# Builds native/build/rtnvml.node: rtserve's GPU metrics through NVML (native/src/nvml.cpp). NVML itself
# (libnvidia-ml.so.1, part of the NVIDIA driver) is opened at run time, so this needs only a C++ compiler and
# Node's headers, and the addon loads everywhere; without the driver it reports NVML as unavailable and rtserve
# exports no GPU metrics. Overrides: CXX, NODE_INCLUDE (directory holding node_api.h).
set -euo pipefail
cd "$(dirname "$0")"
first() { for p in "$@"; do [ -e "$p" ] && { echo "$p"; return 0; }; done; return 1; }
cxx=${CXX:-$(command -v g++ || command -v c++ || true)}
[ -z "$cxx" ] && { echo "native/build-nvml.sh: no C++ compiler (set CXX)" >&2; exit 2; }
# Node's headers: beside the running node (official builds), else the distribution's.
node_inc=${NODE_INCLUDE:-$(node -p 'require("path").resolve(process.execPath, "../../include/node")' 2>/dev/null || true)}
[ -f "$node_inc/node_api.h" ] || node_inc=$(first ../.device/include/node /usr/include/node /usr/local/include/node || true)
{ [ -z "$node_inc" ] || [ ! -f "$node_inc/node_api.h" ]; } && { echo "native/build-nvml.sh: node_api.h not found (set NODE_INCLUDE)" >&2; exit 2; }
mkdir -p build
"$cxx" -std=c++17 -O2 -fPIC -fvisibility=hidden -shared -I"$node_inc" -DNAPI_VERSION=8 -DNODE_GYP_MODULE_NAME=rtnvml \
  src/nvml.cpp -o build/rtnvml.node -ldl
echo "built native/build/rtnvml.node"
