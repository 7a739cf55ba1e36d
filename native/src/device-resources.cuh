// rtserve native CUDA engine: RAII holders of device memory and of the cuDNN / cuBLASLt handles and stream.
#pragma once
#include "layer.cuh"

namespace rt {

struct DeviceBuf {
  void* p = nullptr;
  explicit DeviceBuf(size_t n) { CK(cudaMalloc(&p, n < 256 ? 256 : n)); }
  ~DeviceBuf() {
    if (p) cudaFree(p);
  }
};

struct Handles {
  cudnnHandle_t dnn = nullptr;
  cublasLtHandle_t lt = nullptr;
  cudaStream_t stream = nullptr;
  Handles() {
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CKDNN(cudnnCreate(&dnn));
    CKDNN(cudnnSetStream(dnn, stream));
    CKLT(cublasLtCreate(&lt));
  }
  ~Handles() {
    if (lt) cublasLtDestroy(lt);
    if (dnn) cudnnDestroy(dnn);
    if (stream) cudaStreamDestroy(stream);
  }
};

}  // namespace rt
