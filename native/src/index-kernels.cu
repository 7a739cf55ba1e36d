// rtserve native CUDA engine: typed element-wise and indexing kernels (see index-kernels.cuh).
#include <cfloat>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cuda-check.h"
#include "index-kernels.cuh"

namespace rt {

namespace {

constexpr int kT = 256;

inline unsigned blocks(int64_t count) {
  int64_t b = (count + kT - 1) / kT;
  if (b < 1) b = 1;
  return (unsigned)(b > 65535LL * 32 ? 65535LL * 32 : b);
}

inline int64_t total(int rank, const Dims6& d) {
  int64_t t = 1;
  for (int i = 0; i < rank; i++) t *= d.d[i];
  return t;
}

__device__ __forceinline__ float load(const void* p, int t, int64_t i) {
  if (p == nullptr) return 0.f;
  if (t == ST_F16) return __half2float(static_cast<const __half*>(p)[i]);
  if (t == ST_I32) return (float)static_cast<const int32_t*>(p)[i];
  return static_cast<const float*>(p)[i];
}

__device__ __forceinline__ float ewOp(int op, float a, float b, float c, bool isInt) {
  switch (op) {
    case EW_ADD: return a + b;
    case EW_SUB: return a - b;
    case EW_MUL: return a * b;
    case EW_DIV: return isInt ? (b == 0.f ? 0.f : truncf(a / b)) : a / b;
    case EW_MOD: {
      if (!isInt) return fmodf(a, b);
      if (b == 0.f) return 0.f;
      float r = fmodf(a, b);
      return (r != 0.f && ((r < 0.f) != (b < 0.f))) ? r + b : r;
    }
    case EW_LESS: return a < b ? 1.f : 0.f;
    case EW_GREATER: return a > b ? 1.f : 0.f;
    case EW_LE: return a <= b ? 1.f : 0.f;
    case EW_GE: return a >= b ? 1.f : 0.f;
    case EW_EQUAL: return a == b ? 1.f : 0.f;
    case EW_AND: return (a != 0.f && b != 0.f) ? 1.f : 0.f;
    case EW_OR: return (a != 0.f || b != 0.f) ? 1.f : 0.f;
    case EW_XOR: return ((a != 0.f) != (b != 0.f)) ? 1.f : 0.f;
    case EW_NOT: return a == 0.f ? 1.f : 0.f;
    case EW_WHERE: return a != 0.f ? b : c;
    case EW_MIN: return fminf(a, b);
    case EW_MAX: return fmaxf(a, b);
    default: return isInt ? truncf(a) : a;
  }
}

__global__ void ewKernel(const void* a, const void* b, const void* c, void* y, int ta, int tb, int tc, int ty, int rank, Dims6 od,
                         Dims6 sa, Dims6 sb, Dims6 sc, int op, bool isInt, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t rem = i, ia = 0, ib = 0, ic = 0;
    for (int d = rank - 1; d >= 0; d--) {
      int64_t idx = rem % od.d[d];
      rem /= od.d[d];
      ia += idx * sa.d[d];
      ib += idx * sb.d[d];
      ic += idx * sc.d[d];
    }
    float v = ewOp(op, load(a, ta, ia), load(b, tb, ib), load(c, tc, ic), isInt);
    if (ty == ST_F16) static_cast<__half*>(y)[i] = __float2half_rn(v);
    else if (ty == ST_I32) static_cast<int32_t*>(y)[i] = (int32_t)truncf(v);
    else static_cast<float*>(y)[i] = v;
  }
}

template <typename T>
__global__ void gatherKernel(const T* __restrict__ x, T* __restrict__ y, int rank, Dims6 od, Dims6 is, int64_t xOff, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t rem = i, src = xOff;
    for (int d = rank - 1; d >= 0; d--) {
      src += (rem % od.d[d]) * is.d[d];
      rem /= od.d[d];
    }
    y[i] = x[src];
  }
}

// 32-bit index math (64-bit division is several times slower on the GPU) when every offset fits.
template <typename T>
__global__ void gatherKernel32(const T* __restrict__ x, T* __restrict__ y, int rank, Dims6 od, Dims6 is, uint32_t xOff, uint32_t n) {
  uint32_t dd[kMaxRank], ss[kMaxRank];
#pragma unroll
  for (int d = 0; d < kMaxRank; d++) {
    dd[d] = (uint32_t)od.d[d];
    ss[d] = (uint32_t)is.d[d];
  }
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    uint32_t rem = i, src = xOff;
    for (int d = rank - 1; d >= 0; d--) {
      uint32_t q = rem / dd[d];
      src += (rem - q * dd[d]) * ss[d];
      rem = q;
    }
    y[i] = x[src];
  }
}

template <typename T>
__global__ void gatherElementsKernel(const T* __restrict__ x, const float* __restrict__ idx, T* __restrict__ y, int rank, Dims6 od,
                                     Dims6 xs, int axis, int64_t axisLen, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t rem = i, src = 0;
    for (int d = rank - 1; d >= 0; d--) {
      int64_t c = rem % od.d[d];
      rem /= od.d[d];
      if (d == axis) {
        c = (int64_t)idx[i];
        if (c < 0) c += axisLen;
        c = c < 0 ? 0 : (c >= axisLen ? axisLen - 1 : c);
      }
      src += c * xs.d[d];
    }
    y[i] = x[src];
  }
}

// One block per row; round r picks the best element strictly after round r-1's in the order (value, then index).
__global__ void topkKernel(const __half* __restrict__ x, __half* __restrict__ vals, float* __restrict__ inds, int64_t len, int64_t inner,
                           int64_t k, bool largest) {
  __shared__ float sv[kT];
  __shared__ int64_t si[kT];
  int64_t row = blockIdx.x;
  int64_t o = row / inner, in = row % inner;
  const __half* base = x + o * len * inner + in;
  float pv = 0.f;
  int64_t pi = -1;
  for (int64_t r = 0; r < k; r++) {
    float bv = 0.f;
    int64_t bi = -1;
    for (int64_t j = threadIdx.x; j < len; j += blockDim.x) {
      float v = __half2float(base[j * inner]);
      if (v != v) continue;
      bool after = pi < 0 || (largest ? (v < pv || (v == pv && j > pi)) : (v > pv || (v == pv && j > pi)));
      if (!after) continue;
      bool better = bi < 0 || (largest ? (v > bv || (v == bv && j < bi)) : (v < bv || (v == bv && j < bi)));
      if (better) { bv = v; bi = j; }
    }
    sv[threadIdx.x] = bv;
    si[threadIdx.x] = bi;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) {
        float v = sv[threadIdx.x + s];
        int64_t j = si[threadIdx.x + s];
        float cv = sv[threadIdx.x];
        int64_t cj = si[threadIdx.x];
        bool better = j >= 0 && (cj < 0 || (largest ? (v > cv || (v == cv && j < cj)) : (v < cv || (v == cv && j < cj))));
        if (better) { sv[threadIdx.x] = v; si[threadIdx.x] = j; }
      }
      __syncthreads();
    }
    pv = sv[0];
    pi = si[0];
    if (threadIdx.x == 0) {
      int64_t oi = (o * k + r) * inner + in;
      vals[oi] = __float2half_rn(pi < 0 ? 0.f : pv);
      inds[oi] = (float)(pi < 0 ? 0 : pi);
    }
    __syncthreads();
    if (pi < 0) pi = len;  // nothing left: later rounds find nothing either
  }
}

__device__ __forceinline__ float srcCoord(int64_t o, float scale, int64_t inLen, int64_t outLen, int coord) {
  switch (coord) {
    case 1: return (float)o / scale;
    case 2: return outLen == 1 ? 0.f : (float)o * (float)(inLen - 1) / (float)(outLen - 1);
    case 3: return outLen == 1 ? 0.f : ((float)o + 0.5f) / scale - 0.5f;
    default: return ((float)o + 0.5f) / scale - 0.5f;
  }
}

__device__ __forceinline__ int64_t nearestIdx(float v, int64_t len, int mode) {
  float f = floorf(v);
  float r;
  if (mode == 2) r = f;
  else if (mode == 3) r = ceilf(v);
  else if (v - f == 0.5f) r = mode == 1 ? f + 1.f : f;
  else r = rintf(v);
  int64_t i = (int64_t)r;
  return i < 0 ? 0 : (i >= len ? len - 1 : i);
}

__global__ void resizeKernel(const __half* __restrict__ x, __half* __restrict__ y, int64_t n, int64_t c, int64_t h, int64_t w, int64_t oh,
                             int64_t ow, float scaleH, float scaleW, bool linear, int coord, int nearest) {
  int64_t tot = n * oh * ow * c;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < tot; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t ch = i % c;
    int64_t ox = (i / c) % ow;
    int64_t oy = (i / (c * ow)) % oh;
    int64_t b = i / (c * ow * oh);
    float sy = srcCoord(oy, scaleH, h, oh, coord);
    float sx = srcCoord(ox, scaleW, w, ow, coord);
    const __half* xb = x + b * h * w * c + ch;
    float v;
    if (!linear) {
      v = __half2float(xb[(nearestIdx(sy, h, nearest) * w + nearestIdx(sx, w, nearest)) * c]);
    } else {
      float cy = fminf(fmaxf(sy, 0.f), (float)(h - 1));
      float cx = fminf(fmaxf(sx, 0.f), (float)(w - 1));
      int64_t y0 = (int64_t)floorf(cy), x0 = (int64_t)floorf(cx);
      int64_t y1 = y0 + 1 < h ? y0 + 1 : h - 1, x1 = x0 + 1 < w ? x0 + 1 : w - 1;
      float fy = cy - (float)y0, fx = cx - (float)x0;
      float a = __half2float(xb[(y0 * w + x0) * c]), bb = __half2float(xb[(y0 * w + x1) * c]);
      float cc = __half2float(xb[(y1 * w + x0) * c]), d = __half2float(xb[(y1 * w + x1) * c]);
      v = (1.f - fy) * ((1.f - fx) * a + fx * bb) + fy * ((1.f - fx) * cc + fx * d);
    }
    y[i] = __float2half_rn(v);
  }
}

// 8 channels (16 bytes) per thread, 32-bit index math: c % 8 == 0 and the tensors under 2^31 elements.
__global__ void resizeVec8(const uint4* __restrict__ x, uint4* __restrict__ y, uint32_t n, uint32_t c8, uint32_t h, uint32_t w, uint32_t oh,
                           uint32_t ow, float scaleH, float scaleW, bool linear, int coord, int nearest) {
  uint32_t tot = n * oh * ow * c8;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < tot; i += gridDim.x * blockDim.x) {
    uint32_t ch = i % c8, pix = i / c8;
    uint32_t ox = pix % ow, t = pix / ow;
    uint32_t oy = t % oh, b = t / oh;
    float sy = srcCoord(oy, scaleH, h, oh, coord);
    float sx = srcCoord(ox, scaleW, w, ow, coord);
    const uint4* xb = x + (size_t)b * h * w * c8 + ch;
    if (!linear) {
      y[i] = xb[((uint32_t)nearestIdx(sy, h, nearest) * w + (uint32_t)nearestIdx(sx, w, nearest)) * c8];
      continue;
    }
    float cy = fminf(fmaxf(sy, 0.f), (float)(h - 1));
    float cx = fminf(fmaxf(sx, 0.f), (float)(w - 1));
    uint32_t y0 = (uint32_t)floorf(cy), x0 = (uint32_t)floorf(cx);
    uint32_t y1 = y0 + 1 < h ? y0 + 1 : h - 1, x1 = x0 + 1 < w ? x0 + 1 : w - 1;
    float fy = cy - (float)y0, fx = cx - (float)x0;
    uint4 q[4] = {xb[(y0 * w + x0) * c8], xb[(y0 * w + x1) * c8], xb[(y1 * w + x0) * c8], xb[(y1 * w + x1) * c8]};
    const __half* a = reinterpret_cast<const __half*>(&q[0]);
    const __half* bb = reinterpret_cast<const __half*>(&q[1]);
    const __half* cc = reinterpret_cast<const __half*>(&q[2]);
    const __half* d = reinterpret_cast<const __half*>(&q[3]);
    __align__(16) __half o[8];
#pragma unroll
    for (int j = 0; j < 8; j++)
      o[j] = __float2half_rn((1.f - fy) * ((1.f - fx) * __half2float(a[j]) + fx * __half2float(bb[j])) +
                             fy * ((1.f - fx) * __half2float(cc[j]) + fx * __half2float(d[j])));
    y[i] = *reinterpret_cast<uint4*>(o);
  }
}

template <typename T>
__global__ void padKernel(const T* __restrict__ x, T* __restrict__ y, int rank, Dims6 od, Dims6 id, Dims6 before, T fill, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t rem = i, src = 0, mul = 1;
    bool inside = true;
    for (int d = rank - 1; d >= 0; d--) {
      int64_t c = rem % od.d[d] - before.d[d];
      rem /= od.d[d];
      if (c < 0 || c >= id.d[d]) inside = false;
      src += c * mul;
      mul *= id.d[d];
    }
    y[i] = inside ? x[src] : fill;
  }
}

__global__ void copy2dVec8(const uint4* __restrict__ x, uint4* __restrict__ y, uint32_t rows, uint32_t re8, uint32_t ss8, uint32_t ds8) {
  uint32_t total = rows * re8;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += gridDim.x * blockDim.x) {
    uint32_t r = i / re8, e = i - r * re8;
    y[(size_t)r * ds8 + e] = x[(size_t)r * ss8 + e];
  }
}

template <typename S>
__global__ void convertInNhwc8(const S* __restrict__ src, uint4* __restrict__ dst, uint32_t n, uint32_t c, uint32_t hw) {
  uint32_t total = n * hw;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += gridDim.x * blockDim.x) {
    uint32_t b = i / hw, p = i - b * hw;
    const S* s = src + (size_t)b * c * hw + p;
    __align__(16) __half v[8];
#pragma unroll
    for (uint32_t ch = 0; ch < 8; ch++) v[ch] = __float2half_rn(ch < c ? (float)s[(size_t)ch * hw] : 0.f);
    dst[i] = *reinterpret_cast<uint4*>(v);
  }
}

}  // namespace

bool tryCopy2dVec8(const __half* x, __half* y, int64_t rows, int64_t rowElems, int64_t ss, int64_t ds, cudaStream_t s) {
  if (rowElems % 8 || ss % 8 || ds % 8 || (reinterpret_cast<uintptr_t>(x) & 15) || (reinterpret_cast<uintptr_t>(y) & 15)) return false;
  if (rows * (rowElems / 8) >= (1LL << 31) || rows * ss >= (1LL << 34) || rows * ds >= (1LL << 34)) return false;
  uint32_t total = (uint32_t)(rows * (rowElems / 8));
  copy2dVec8<<<blocks(total), kT, 0, s>>>(reinterpret_cast<const uint4*>(x), reinterpret_cast<uint4*>(y), (uint32_t)rows, (uint32_t)(rowElems / 8),
                                          (uint32_t)(ss / 8), (uint32_t)(ds / 8));
  CK_LAUNCH("copy2d");
  return true;
}

bool tryConvertInNhwc8(const void* src, bool srcF32, __half* dst, int64_t n, int64_t c, int64_t h, int64_t w, int64_t cp, cudaStream_t s) {
  if (cp != 8 || c > 8 || (reinterpret_cast<uintptr_t>(dst) & 15) || n * c * h * w >= (1LL << 31)) return false;
  uint32_t total = (uint32_t)(n * h * w);
  if (srcF32) convertInNhwc8<float><<<blocks(total), kT, 0, s>>>((const float*)src, reinterpret_cast<uint4*>(dst), (uint32_t)n, (uint32_t)c, (uint32_t)(h * w));
  else convertInNhwc8<__half><<<blocks(total), kT, 0, s>>>((const __half*)src, reinterpret_cast<uint4*>(dst), (uint32_t)n, (uint32_t)c, (uint32_t)(h * w));
  CK_LAUNCH("convert_in");
  return true;
}

void launchEw(const void* a, const void* b, const void* c, void* y, int ta, int tb, int tc, int ty, int rank, Dims6 od, Dims6 sa,
              Dims6 sb, Dims6 sc, int op, bool isInt, cudaStream_t s) {
  int64_t n = total(rank, od);
  ewKernel<<<blocks(n), kT, 0, s>>>(a, b, c, y, ta, tb, tc, ty, rank, od, sa, sb, sc, op, isInt, n);
  CK_LAUNCH("ew");
}

void launchGather(const void* x, void* y, int elem, int rank, Dims6 od, Dims6 is, int64_t xOff, cudaStream_t s) {
  int64_t n = total(rank, od);
  int64_t maxSrc = xOff;
  bool nonNegative = xOff >= 0;
  for (int d = 0; d < rank; d++) {
    maxSrc += (od.d[d] - 1) * is.d[d];
    nonNegative = nonNegative && is.d[d] >= 0;
  }
  if (nonNegative && n < (1LL << 31) && maxSrc < (1LL << 31)) {
    if (elem == 2)
      gatherKernel32<<<blocks(n), kT, 0, s>>>(static_cast<const uint16_t*>(x), static_cast<uint16_t*>(y), rank, od, is, (uint32_t)xOff, (uint32_t)n);
    else
      gatherKernel32<<<blocks(n), kT, 0, s>>>(static_cast<const uint32_t*>(x), static_cast<uint32_t*>(y), rank, od, is, (uint32_t)xOff, (uint32_t)n);
    CK_LAUNCH("gather");
    return;
  }
  if (elem == 2) gatherKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint16_t*>(x), static_cast<uint16_t*>(y), rank, od, is, xOff, n);
  else gatherKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint32_t*>(x), static_cast<uint32_t*>(y), rank, od, is, xOff, n);
  CK_LAUNCH("gather");
}

void launchGatherElements(const void* x, const float* idx, void* y, int elem, int rank, Dims6 od, Dims6 xs, int axis, int64_t axisLen,
                          cudaStream_t s) {
  int64_t n = total(rank, od);
  if (elem == 2)
    gatherElementsKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint16_t*>(x), idx, static_cast<uint16_t*>(y), rank, od, xs, axis, axisLen, n);
  else
    gatherElementsKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint32_t*>(x), idx, static_cast<uint32_t*>(y), rank, od, xs, axis, axisLen, n);
  CK_LAUNCH("gather_elements");
}

void launchTopK(const __half* x, __half* vals, float* inds, int64_t outer, int64_t len, int64_t inner, int64_t k, bool largest,
                cudaStream_t s) {
  int64_t rows = outer * inner;
  if (rows <= 0) return;
  topkKernel<<<(unsigned)rows, kT, 0, s>>>(x, vals, inds, len, inner, k, largest);
  CK_LAUNCH("topk");
}

void launchResize(const __half* x, __half* y, int64_t n, int64_t c, int64_t h, int64_t w, int64_t oh, int64_t ow, float scaleH,
                  float scaleW, bool linear, int coord, int nearest, cudaStream_t s) {
  if (c % 8 == 0 && n * c * (oh * ow > h * w ? oh * ow : h * w) < (1LL << 31)) {
    uint32_t tot = (uint32_t)(n * oh * ow * (c / 8));
    resizeVec8<<<blocks(tot), kT, 0, s>>>(reinterpret_cast<const uint4*>(x), reinterpret_cast<uint4*>(y), (uint32_t)n, (uint32_t)(c / 8),
                                          (uint32_t)h, (uint32_t)w, (uint32_t)oh, (uint32_t)ow, scaleH, scaleW, linear, coord, nearest);
    CK_LAUNCH("resize");
    return;
  }
  resizeKernel<<<blocks(n * oh * ow * c), kT, 0, s>>>(x, y, n, c, h, w, oh, ow, scaleH, scaleW, linear, coord, nearest);
  CK_LAUNCH("resize");
}

void launchPad(const void* x, void* y, int elem, int rank, Dims6 od, Dims6 id, Dims6 before, float value, cudaStream_t s) {
  int64_t n = total(rank, od);
  if (elem == 2) {
    __half hv = __float2half_rn(value);
    uint16_t fill = *reinterpret_cast<uint16_t*>(&hv);
    padKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint16_t*>(x), static_cast<uint16_t*>(y), rank, od, id, before, fill, n);
  } else {
    uint32_t fill;
    memcpy(&fill, &value, 4);
    padKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint32_t*>(x), static_cast<uint32_t*>(y), rank, od, id, before, fill, n);
  }
  CK_LAUNCH("pad");
}

}  // namespace rt
