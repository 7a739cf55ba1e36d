// rtserve native CUDA engine: kernels of the typed element-wise and indexing layers (detectors: heads, decodes,
// feature pyramids). Integers and booleans are held exactly in FP32 storage; floats in FP16.
#pragma once
#include "kernels.cuh"

namespace rt {

/** Typed element-wise operators (the compiler's EWOP, src/plan/cuda-network.ts). */
enum EwOp : int {
  EW_ADD = 0, EW_SUB = 1, EW_MUL = 2, EW_DIV = 3, EW_MOD = 4, EW_LESS = 5, EW_GREATER = 6, EW_EQUAL = 7, EW_AND = 8, EW_OR = 9,
  EW_XOR = 10, EW_NOT = 11, EW_WHERE = 12, EW_COPY = 13, EW_LE = 14, EW_GE = 15, EW_MIN = 16, EW_MAX = 17,
};
/** Storage types: 0 f16, 1 f32, 2 i32 (outputs only). */
enum StoreCode : int { ST_F16 = 0, ST_F32 = 1, ST_I32 = 2 };

/** y = op(a, b, c) over output dims with per-operand element strides; `isInt`: ONNX integer semantics. */
void launchEw(const void* a, const void* b, const void* c, void* y, int ta, int tb, int tc, int ty, int rank, Dims6 od, Dims6 sa,
              Dims6 sb, Dims6 sc, int op, bool isInt, cudaStream_t s);
/** y[i] = x[xOff + sum(idx_d * inStrides_d)] for 2- or 4-byte elements. */
void launchGather(const void* x, void* y, int elem, int rank, Dims6 od, Dims6 is, int64_t xOff, cudaStream_t s);
/** ONNX GatherElements: index dims `od`, data strides `xs`, f32 indices. */
void launchGatherElements(const void* x, const float* idx, void* y, int elem, int rank, Dims6 od, Dims6 xs, int axis, int64_t axisLen,
                          cudaStream_t s);
/** Sorted top-k of f16 rows (ties: lower index first), values f16 and indices f32. */
void launchTopK(const __half* x, __half* vals, float* inds, int64_t outer, int64_t len, int64_t inner, int64_t k, bool largest,
                cudaStream_t s);
/** NHWC resize: nearest (with ONNX's rounding modes) or bilinear, ONNX coordinate transformations. */
void launchResize(const __half* x, __half* y, int64_t n, int64_t c, int64_t h, int64_t w, int64_t oh, int64_t ow, float scaleH,
                  float scaleW, bool linear, int coord, int nearest, cudaStream_t s);
/** Constant padding over physical dims: y = x shifted by `before`, `value` outside. */
void launchPad(const void* x, void* y, int elem, int rank, Dims6 od, Dims6 id, Dims6 before, float value, cudaStream_t s);

/** Fast paths of the engine's copy and conversion layers (kernels.cu dispatches to them when they apply). */
/** copy2d when rowElems, both strides and both offsets are multiples of 8 halves (16-byte aligned pointers). */
bool tryCopy2dVec8(const __half* x, __half* y, int64_t rows, int64_t rowElems, int64_t ss, int64_t ds, cudaStream_t s);
/** NCHW f32/f16 → NHWC f16 with exactly 8 channels (3 image channels padded): one pixel (16 bytes) per thread. */
bool tryConvertInNhwc8(const void* src, bool srcF32, __half* dst, int64_t n, int64_t c, int64_t h, int64_t w, int64_t cp, cudaStream_t s);

}  // namespace rt
