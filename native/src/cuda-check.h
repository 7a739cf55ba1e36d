// rtserve native: the one status check of every CUDA, cuDNN, cuBLASLt and nvJPEG call, and of kernel launches.
// A failed call throws std::runtime_error naming the call, the library's reason and where it was made:
//   "cudaMalloc(&p, n): out of memory (native/src/engine.cu:361)".
// The library-specific macros expand at their use site, so this header needs only the CUDA runtime's.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace rt {

[[noreturn]] inline void throwFailed(const char* what, const std::string& why, const char* file, int line) {
  throw std::runtime_error(std::string(what) + ": " + why + " (" + file + ":" + std::to_string(line) + ")");
}

/** Throws unless `status == ok`; `name(status)` gives the library's reason. */
template <typename Status, typename Ok, typename Name>
inline void checkStatus(Status status, Ok ok, Name name, const char* what, const char* file, int line) {
  if (status != ok) throwFailed(what, name(status), file, line);
}

inline std::string cudaStatusName(cudaError_t e) { return cudaGetErrorString(e); }

}  // namespace rt

/** A CUDA runtime call. */
#define CK(x) ::rt::checkStatus((x), cudaSuccess, ::rt::cudaStatusName, #x, __FILE__, __LINE__)
/** A cuDNN call (needs <cudnn.h> where it is used). */
#define CKDNN(x) \
  ::rt::checkStatus((x), CUDNN_STATUS_SUCCESS, [](cudnnStatus_t s_) { return std::string(cudnnGetErrorString(s_)); }, #x, __FILE__, __LINE__)
/** A cuBLAS / cuBLASLt call (needs <cublasLt.h> where it is used). */
#define CKLT(x) \
  ::rt::checkStatus((x), CUBLAS_STATUS_SUCCESS, [](cublasStatus_t s_) { return "cublas status " + std::to_string((int)s_); }, #x, __FILE__, __LINE__)
/** After a kernel launch: the launch's own error (a bad configuration), named by `what` ("convert_in"). */
#define CK_LAUNCH(what) ::rt::checkStatus(cudaGetLastError(), cudaSuccess, ::rt::cudaStatusName, what, __FILE__, __LINE__)
