#!/usr/bin/env bash
# Builds the rtserve native CUDA engine addon (native/build/rtcuda.node) when the CUDA toolkit, cuDNN 9 and
# cuBLASLt are found. Elsewhere it explains what is missing and exits 2; rtserve then runs without the CUDA
# target (docs/cuda-engine.md). Overrides: NVCC, CUDNN_INCLUDE, CUDNN_LIB, CUBLAS_INCLUDE, CUBLAS_LIB,
# NODE_INCLUDE (directory holding node_api.h), CUDA_ARCH (default 90: sm_90 code plus compute_90 PTX, what device
# runs build since compile time matters; a list such as "80 86 90" builds sm_ code for each plus PTX of the
# newest; `fat` = 80 86 89 90 100: Ampere, Ada, Hopper and Blackwell in one binary, what the CUDA image ships),
# NVJPEG_INCLUDE, NVJPEG_LIB (nvJPEG for the GPU image path; without it the addon builds and JPEGs decode on the CPU).
set -euo pipefail
cd "$(dirname "$0")"
out=build
arch=${CUDA_ARCH:-90}

missing() { echo "native/build.sh: $1" >&2; echo "the CUDA engine is not built; rtserve works without it (CUDA target unavailable)" >&2; exit 2; }
first() { for p in "$@"; do [ -e "$p" ] && { echo "$p"; return 0; }; done; return 1; }

[ "$arch" = fat ] && arch="80 86 89 90 100"
# -gencode per architecture (sm_ code), then PTX of the newest one so that later GPUs can JIT it.
read -r -a archs <<< "${arch//,/ }"
[ "${#archs[@]}" -eq 0 ] && missing "CUDA_ARCH is empty (a number such as 90, a list such as \"80 90\", or fat)"
gencode=()
for a in "${archs[@]}"; do
  [[ "$a" =~ ^[0-9]+[af]?$ ]] || missing "CUDA_ARCH: '$a' is not an architecture number (such as 90)"
  gencode+=(-gencode "arch=compute_$a,code=sm_$a")
done
newest=$(printf '%s\n' "${archs[@]}" | sort -n | tail -1)
gencode+=(-gencode "arch=compute_$newest,code=compute_$newest")

nvcc=${NVCC:-$(command -v nvcc || true)}
[ -z "$nvcc" ] && nvcc=$(first /usr/local/cuda/bin/nvcc || true)
[ -z "$nvcc" ] && missing "nvcc not found (install the CUDA toolkit or set NVCC)"
nvcc=$(readlink -f "$nvcc")
cuda_home=$(cd "$(dirname "$nvcc")/.." && pwd)

cudnn_h=$(first ${CUDNN_INCLUDE:+$CUDNN_INCLUDE/cudnn.h} /usr/include/x86_64-linux-gnu/cudnn.h /usr/include/cudnn.h "$cuda_home/include/cudnn.h" || true)
[ -z "$cudnn_h" ] && missing "cudnn.h not found (cuDNN 9 development headers; set CUDNN_INCLUDE)"
cudnn_lib=$(first ${CUDNN_LIB:+$CUDNN_LIB/libcudnn.so.9} /usr/lib/x86_64-linux-gnu/libcudnn.so.9 "$cuda_home/lib64/libcudnn.so.9" /usr/lib64/libcudnn.so.9 || true)
[ -z "$cudnn_lib" ] && missing "libcudnn.so.9 not found (set CUDNN_LIB)"
lt_h=$(first ${CUBLAS_INCLUDE:+$CUBLAS_INCLUDE/cublasLt.h} "$cuda_home/include/cublasLt.h" /usr/include/cublasLt.h || true)
[ -z "$lt_h" ] && missing "cublasLt.h not found (set CUBLAS_INCLUDE)"
lt_lib=$(first ${CUBLAS_LIB:+$CUBLAS_LIB/libcublasLt.so.13} ${CUBLAS_LIB:+$CUBLAS_LIB/libcublasLt.so} "$cuda_home/lib64/libcublasLt.so" "$cuda_home/lib64/libcublasLt.so.13" "$cuda_home/targets/x86_64-linux/lib/libcublasLt.so" || true)
[ -z "$lt_lib" ] && missing "libcublasLt not found (set CUBLAS_LIB)"

# nvJPEG (CUDA ships it): optional. Without it the GPU image path takes raw frames only and JPEGs go to the CPU decoder.
nvjpeg_h=$(first ${NVJPEG_INCLUDE:+$NVJPEG_INCLUDE/nvjpeg.h} "$cuda_home/include/nvjpeg.h" "$cuda_home/targets/x86_64-linux/include/nvjpeg.h" /usr/include/nvjpeg.h || true)
nvjpeg_lib=$(first ${NVJPEG_LIB:+$NVJPEG_LIB/libnvjpeg.so} ${NVJPEG_LIB:+$NVJPEG_LIB/libnvjpeg.so.13} "$cuda_home/lib64/libnvjpeg.so" "$cuda_home/lib64/libnvjpeg.so.13" "$cuda_home/targets/x86_64-linux/lib/libnvjpeg.so" /usr/lib/x86_64-linux-gnu/libnvjpeg.so || true)
nvjpeg_flags=(-DRTCUDA_NO_NVJPEG)
nvjpeg_link=()
if [ -n "$nvjpeg_h" ] && [ -n "$nvjpeg_lib" ]; then
  nvjpeg_flags=(-I"$(dirname "$nvjpeg_h")")
  nvjpeg_link=(-L"$(dirname "$nvjpeg_lib")" -l:"$(basename "$nvjpeg_lib")" -Xlinker -rpath,"$(dirname "$nvjpeg_lib")")
else
  echo "native/build.sh: nvJPEG not found (nvjpeg.h: ${nvjpeg_h:-missing}, libnvjpeg: ${nvjpeg_lib:-missing}; set NVJPEG_INCLUDE / NVJPEG_LIB):" \
    "building without it: the GPU image path takes raw frames only, JPEGs are decoded on the CPU" >&2
fi

node_inc=${NODE_INCLUDE:-}
if [ -z "$node_inc" ]; then
  node_bin=$(command -v node || true)
  cand=""
  [ -n "$node_bin" ] && cand="$(cd "$(dirname "$node_bin")/.." && pwd)/include/node"
  node_inc=$(first "$cand" ../.device/include/node /usr/include/node /usr/local/include/node || true)
fi
[ -z "$node_inc" ] || [ ! -f "$node_inc/node_api.h" ] && missing "node_api.h not found (set NODE_INCLUDE to the Node headers' include/node)"

mkdir -p "$out"
flags=(-std=c++17 -O3 -Xcompiler -fPIC,-fvisibility=hidden "${gencode[@]}"
  -I"$(dirname "$cudnn_h")" -I"$(dirname "$lt_h")" -I"$node_inc" -DNAPI_VERSION=8 -DNODE_GYP_MODULE_NAME=rtcuda -diag-suppress 1444,20012
  "${nvjpeg_flags[@]}")
echo "nvcc: $nvcc ($("$nvcc" --version | tail -1)); architectures: ${archs[*]} (+ compute_$newest PTX)"
echo "cudnn: $cudnn_h, $cudnn_lib; cublasLt: $lt_h, $lt_lib; nvjpeg: ${nvjpeg_lib:-none}; node headers: $node_inc"
t0=$(date +%s)
# One object per source file (src/*.cu and the N-API glue), built in parallel.
objs=()
pids=()
# src/llm/: the LLM decoder (issue #31), its N-API surface included (llm-addon.cu).
for src in src/*.cu src/llm/*.cu; do
  o="$out/$(basename "${src%.cu}").o"
  "$nvcc" "${flags[@]}" -c "$src" -o "$o" &
  pids+=($!)
  objs+=("$o")
done
"$nvcc" "${flags[@]}" -x cu -c src/addon.cpp -o "$out/addon.o" &
pids+=($!)
objs+=("$out/addon.o")
"$nvcc" "${flags[@]}" -x cu -c src/image-addon.cpp -o "$out/image-addon.o" &
pids+=($!)
objs+=("$out/image-addon.o")
for p in "${pids[@]}"; do wait "$p"; done
"$nvcc" -shared -o "$out/rtcuda.node" "${objs[@]}" \
  -L"$(dirname "$cudnn_lib")" -L"$(dirname "$lt_lib")" -l:"$(basename "$cudnn_lib")" -l:"$(basename "$lt_lib")" \
  -Xlinker -rpath,"$(dirname "$cudnn_lib")":"$(dirname "$lt_lib")" "${nvjpeg_link[@]}" -cudart static
echo "built native/$out/rtcuda.node in $(( $(date +%s) - t0 )) s"
