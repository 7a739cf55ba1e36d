// rtserve native CUDA engine: typed element-wise and indexing kernels (see index-kernels.cuh).
#include <cfloat>
#include <cstring>
#include <stdexcept>
#include <string>

#include "index-kernels.cuh"

namespace rt {

namespace {

constexpr int kT = 256;

inline unsigned blocks(int64_t count) {
  int64_t b = (count + kT - 1) / kT;
  if (b < 1) b = 1;
  return (unsigned)(b > 65535LL * 32 ? 65535LL * 32 : b);
}

inline void check(const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
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

}  // namespace

void launchEw(const void* a, const void* b, const void* c, void* y, int ta, int tb, int tc, int ty, int rank, Dims6 od, Dims6 sa,
              Dims6 sb, Dims6 sc, int op, bool isInt, cudaStream_t s) {
  int64_t n = total(rank, od);
  ewKernel<<<blocks(n), kT, 0, s>>>(a, b, c, y, ta, tb, tc, ty, rank, od, sa, sb, sc, op, isInt, n);
  check("ew");
}

void launchGather(const void* x, void* y, int elem, int rank, Dims6 od, Dims6 is, int64_t xOff, cudaStream_t s) {
  int64_t n = total(rank, od);
  if (elem == 2) gatherKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint16_t*>(x), static_cast<uint16_t*>(y), rank, od, is, xOff, n);
  else gatherKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint32_t*>(x), static_cast<uint32_t*>(y), rank, od, is, xOff, n);
  check("gather");
}

void launchGatherElements(const void* x, const float* idx, void* y, int elem, int rank, Dims6 od, Dims6 xs, int axis, int64_t axisLen,
                          cudaStream_t s) {
  int64_t n = total(rank, od);
  if (elem == 2)
    gatherElementsKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint16_t*>(x), idx, static_cast<uint16_t*>(y), rank, od, xs, axis, axisLen, n);
  else
    gatherElementsKernel<<<blocks(n), kT, 0, s>>>(static_cast<const uint32_t*>(x), idx, static_cast<uint32_t*>(y), rank, od, xs, axis, axisLen, n);
  check("gather_elements");
}

void launchTopK(const __half* x, __half* vals, float* inds, int64_t outer, int64_t len, int64_t inner, int64_t k, bool largest,
                cudaStream_t s) {
  int64_t rows = outer * inner;
  if (rows <= 0) return;
  topkKernel<<<(unsigned)rows, kT, 0, s>>>(x, vals, inds, len, inner, k, largest);
  check("topk");
}

void launchResize(const __half* x, __half* y, int64_t n, int64_t c, int64_t h, int64_t w, int64_t oh, int64_t ow, float scaleH,
                  float scaleW, bool linear, int coord, int nearest, cudaStream_t s) {
  resizeKernel<<<blocks(n * oh * ow * c), kT, 0, s>>>(x, y, n, c, h, w, oh, ow, scaleH, scaleW, linear, coord, nearest);
  check("resize");
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
  check("pad");
}

}  // namespace rt
