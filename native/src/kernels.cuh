// rtserve native CUDA engine: the engine's own kernels (FP16 storage, FP32 arithmetic).
#pragma once
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace rt {

/** Activation applied in epilogues and unary layers (the compiler uses the same numbers). */
enum Act : int {
  ACT_NONE = 0, ACT_RELU = 1, ACT_CLIP = 2, ACT_SIGMOID = 3, ACT_TANH = 4, ACT_SILU = 5, ACT_GELU_ERF = 6,
  ACT_GELU_TANH = 7, ACT_LEAKY = 8, ACT_HARDSIGMOID = 9, ACT_HARDSWISH = 10,
};
struct ActSpec { int kind = ACT_NONE; float p0 = 0.f, p1 = 0.f; };

enum BinOp : int { BIN_ADD = 0, BIN_SUB = 1, BIN_MUL = 2, BIN_DIV = 3 };

constexpr int kMaxRank = 6;
struct Dims6 { int64_t d[kMaxRank]; };

/** NCHW (plain) source in f32 or f16 → f16, NHWC with `cp` >= c channels (zero padded) or plain copy. */
void launchConvertIn(const void* src, bool srcF32, __half* dst, int64_t n, int64_t c, int64_t h, int64_t w, int64_t cp,
                     bool toNhwc, cudaStream_t s);
/** f16 NHWC (or plain) → plain NCHW f32 / f16. */
void launchConvertOut(const __half* src, void* dst, bool dstF32, int64_t n, int64_t c, int64_t h, int64_t w, bool fromNhwc,
                      cudaStream_t s);
/** y = act(x) elementwise. */
void launchUnary(const __half* x, __half* y, int64_t count, ActSpec act, cudaStream_t s);
/** y = act(x * scale[ch] + shift[ch] + res), ch = (i / inner) % channels; scale/shift/res may be null. */
void launchChannelAffine(const __half* x, __half* y, const __half* scale, const __half* shift, const __half* res,
                         int64_t count, int64_t channels, int64_t inner, ActSpec act, cudaStream_t s);
/** y = act(a op b) with numpy broadcasting expressed as per-operand strides over the output dims. */
void launchBinary(const __half* a, const __half* b, __half* y, int rank, Dims6 outDims, Dims6 sa, Dims6 sb, int op, ActSpec act,
                  cudaStream_t s);
/** Max/average pooling over NHWC. */
void launchPool2d(const __half* x, __half* y, int64_t n, int64_t c, int64_t h, int64_t w, int64_t oh, int64_t ow, int kh, int kw,
                  int sh, int sw, int pt, int pl, int pb, int pr, int dh, int dw, bool isMax, bool countIncludePad, cudaStream_t s);
/** Mean over the spatial positions: NHWC [n, hw, c] → [n, c], or plain [n*c, hw] → [n*c]. */
void launchGlobalAvgPool(const __half* x, __half* y, int64_t n, int64_t hw, int64_t c, bool nhwc, bool isMax, cudaStream_t s);
/** Softmax over `len` elements spaced `inner` apart, for outer*inner rows. */
void launchSoftmax(const __half* x, __half* y, int64_t outer, int64_t len, int64_t inner, bool logSoftmax, cudaStream_t s);
/** y[out index] = x[sum(idx[i] * inStrides[i])]: a general permutation / strided gather. */
void launchTranspose(const __half* x, __half* y, int rank, Dims6 outDims, Dims6 inStrides, cudaStream_t s);
/** rows of rowElems elements from x (stride srcStride) into y (stride dstStride); used by Concat and Slice. */
void launchCopy2d(const __half* x, __half* y, int64_t rows, int64_t rowElems, int64_t srcStride, int64_t dstStride, cudaStream_t s);
/** Direct convolution (NHWC in, KRSC weights, NHWC out) with the fused epilogue act(conv + bias + res). */
void launchDirectConv(const __half* x, const __half* w, const __half* bias, const __half* res, __half* y, int64_t n, int64_t c,
                      int64_t h, int64_t wd, int64_t k, int r, int sdim, int64_t oh, int64_t ow, int pt, int pl, int sh, int sw,
                      int dh, int dw, int groups, ActSpec act, cudaStream_t s);
/** Y[b] = act(A[b] · op(B[b]) + bias + res[b]) row-major; B is [n,k] (bNK) or [k,n]. Reference and fallback GEMM. */
void launchGemmNaive(const __half* a, const __half* b, const __half* bias, const __half* res, __half* y, int64_t batch, int64_t m,
                     int64_t n, int64_t k, int64_t strideA, int64_t strideB, int64_t strideY, bool bNK, ActSpec act, cudaStream_t s);
/** Deterministic pseudo-random fill in [-scale, scale] (tuning inputs). */
void launchRandomFill(__half* y, int64_t count, uint32_t seed, float scale, cudaStream_t s);
/** An empty one-thread kernel: a plain kernel boundary between two launches (diagnostics: RTCUDA_DEBUG=fence). */
void launchNoop(cudaStream_t s);
/** max |a - b| and max |b| over count elements, written to out[0], out[1] as floats (device memory). */
void launchCompare(const __half* a, const __half* b, int64_t count, float* out, cudaStream_t s);

}  // namespace rt
