// rtserve native CUDA engine: own kernels. Storage is FP16, arithmetic FP32 (the FP16 plan's contract).
#include <cfloat>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cuda-check.h"
#include "index-kernels.cuh"
#include "kernels.cuh"

namespace rt {

namespace {

constexpr int kThreads = 256;

inline unsigned blocksFor(int64_t count, int threads = kThreads) {
  int64_t b = (count + threads - 1) / threads;
  if (b < 1) b = 1;
  // Grid-stride loops cover the rest: 132 SMs x 16 resident blocks is plenty of parallelism.
  return (unsigned)(b > 65535LL * 32 ? 65535LL * 32 : b);
}

__device__ __forceinline__ float applyAct(float x, int kind, float p0, float p1) {
  switch (kind) {
    case ACT_RELU: return x > 0.f ? x : 0.f;
    case ACT_CLIP: return fminf(fmaxf(x, p0), p1);
    case ACT_SIGMOID: return 1.f / (1.f + __expf(-x));
    case ACT_TANH: return tanhf(x);
    case ACT_SILU: return x / (1.f + __expf(-x));
    case ACT_GELU_ERF: return 0.5f * x * (1.f + erff(x * 0.70710678118654752f));
    case ACT_GELU_TANH: return 0.5f * x * (1.f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
    case ACT_LEAKY: return x >= 0.f ? x : x * p0;
    case ACT_HARDSIGMOID: return fminf(fmaxf(p0 * x + p1, 0.f), 1.f);
    case ACT_HARDSWISH: return x * fminf(fmaxf(x / 6.f + 0.5f, 0.f), 1.f);
    default: return x;
  }
}

// ---- layout conversion -------------------------------------------------------------------------------------

template <typename S>
__global__ void convertInNhwc(const S* __restrict__ src, __half* __restrict__ dst, int64_t n, int64_t c, int64_t h, int64_t w,
                              int64_t cp) {
  int64_t total = n * h * w * cp;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t ch = i % cp;
    int64_t pix = i / cp;  // n*h*w index
    int64_t x = pix % w;
    int64_t y = (pix / w) % h;
    int64_t b = pix / (w * h);
    float v = ch < c ? (float)src[((b * c + ch) * h + y) * w + x] : 0.f;
    dst[i] = __float2half_rn(v);
  }
}

template <typename S>
__global__ void convertPlain(const S* __restrict__ src, __half* __restrict__ dst, int64_t total) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x)
    dst[i] = __float2half_rn((float)src[i]);
}

template <typename D>
__global__ void convertOutKernel(const __half* __restrict__ src, D* __restrict__ dst, int64_t n, int64_t c, int64_t h, int64_t w,
                                 bool fromNhwc) {
  int64_t total = n * c * h * w;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t si = i;
    if (fromNhwc) {
      int64_t x = i % w;
      int64_t y = (i / w) % h;
      int64_t ch = (i / (w * h)) % c;
      int64_t b = i / (w * h * c);
      si = ((b * h + y) * w + x) * c + ch;
    }
    dst[i] = (D)__half2float(src[si]);
  }
}

// ---- elementwise -------------------------------------------------------------------------------------------

// 8 halves (16 bytes) per thread when the count allows: arena offsets are 256-byte aligned.
__global__ void unaryVec8(const uint4* __restrict__ x, uint4* __restrict__ y, int64_t n8, int kind, float p0, float p1) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n8; i += (int64_t)gridDim.x * blockDim.x) {
    uint4 v = x[i];
    __half2* h = reinterpret_cast<__half2*>(&v);
#pragma unroll
    for (int j = 0; j < 4; j++) {
      float2 f = __half22float2(h[j]);
      h[j] = __floats2half2_rn(applyAct(f.x, kind, p0, p1), applyAct(f.y, kind, p0, p1));
    }
    y[i] = v;
  }
}

__global__ void unaryScalar(const __half* __restrict__ x, __half* __restrict__ y, int64_t n, int kind, float p0, float p1) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    y[i] = __float2half_rn(applyAct(__half2float(x[i]), kind, p0, p1));
}

__global__ void channelAffineKernel(const __half* __restrict__ x, __half* __restrict__ y, const __half* __restrict__ scale,
                                    const __half* __restrict__ shift, const __half* __restrict__ res, int64_t n, int64_t channels,
                                    int64_t inner, int kind, float p0, float p1) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t ch = (i / inner) % channels;
    float v = __half2float(x[i]);
    if (scale) v *= __half2float(scale[ch]);
    if (shift) v += __half2float(shift[ch]);
    if (res) v += __half2float(res[i]);
    y[i] = __float2half_rn(applyAct(v, kind, p0, p1));
  }
}

// Channels-last fast path (inner == 1, channels % 8 == 0): 8 channels per thread.
__global__ void channelAffineVec8(const uint4* __restrict__ x, uint4* __restrict__ y, const __half* __restrict__ scale,
                                  const __half* __restrict__ shift, const uint4* __restrict__ res, int64_t n8, int64_t c8, int kind,
                                  float p0, float p1) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n8; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t cb = (i % c8) * 8;
    uint4 v = x[i];
    uint4 r;
    if (res) r = res[i];
    __half* h = reinterpret_cast<__half*>(&v);
    const __half* rh = reinterpret_cast<const __half*>(&r);
#pragma unroll
    for (int j = 0; j < 8; j++) {
      float f = __half2float(h[j]);
      if (scale) f *= __half2float(scale[cb + j]);
      if (shift) f += __half2float(shift[cb + j]);
      if (res) f += __half2float(rh[j]);
      h[j] = __float2half_rn(applyAct(f, kind, p0, p1));
    }
    y[i] = v;
  }
}

__device__ __forceinline__ float binop(float a, float b, int op) {
  switch (op) {
    case BIN_SUB: return a - b;
    case BIN_MUL: return a * b;
    case BIN_DIV: return a / b;
    default: return a + b;
  }
}

__global__ void binaryKernel(const __half* __restrict__ a, const __half* __restrict__ b, __half* __restrict__ y, int rank, Dims6 od,
                             Dims6 sa, Dims6 sb, int64_t total, int op, int kind, float p0, float p1) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t rem = i, ia = 0, ib = 0;
    for (int d = rank - 1; d >= 0; d--) {
      int64_t idx = rem % od.d[d];
      rem /= od.d[d];
      ia += idx * sa.d[d];
      ib += idx * sb.d[d];
    }
    y[i] = __float2half_rn(applyAct(binop(__half2float(a[ia]), __half2float(b[ib]), op), kind, p0, p1));
  }
}

__global__ void binarySameVec8(const uint4* __restrict__ a, const uint4* __restrict__ b, uint4* __restrict__ y, int64_t n8, int op,
                               int kind, float p0, float p1) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n8; i += (int64_t)gridDim.x * blockDim.x) {
    uint4 va = a[i], vb = b[i];
    __half* ha = reinterpret_cast<__half*>(&va);
    const __half* hb = reinterpret_cast<const __half*>(&vb);
#pragma unroll
    for (int j = 0; j < 8; j++) ha[j] = __float2half_rn(applyAct(binop(__half2float(ha[j]), __half2float(hb[j]), op), kind, p0, p1));
    y[i] = va;
  }
}

// ---- pooling -------------------------------------------------------------------------------------------------

__global__ void pool2dKernel(const __half* __restrict__ x, __half* __restrict__ y, int64_t n, int64_t c, int64_t h, int64_t w,
                             int64_t oh, int64_t ow, int kh, int kw, int sh, int sw, int pt, int pl, int pb, int pr, int dh, int dw,
                             bool isMax, bool countIncludePad) {
  int64_t total = n * oh * ow * c;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t ch = i % c;
    int64_t ox = (i / c) % ow;
    int64_t oy = (i / (c * ow)) % oh;
    int64_t b = i / (c * ow * oh);
    float acc = isMax ? -FLT_MAX : 0.f;
    int cnt = 0;
    for (int ky = 0; ky < kh; ky++) {
      int64_t iy = oy * sh - pt + (int64_t)ky * dh;
      for (int kx = 0; kx < kw; kx++) {
        int64_t ix = ox * sw - pl + (int64_t)kx * dw;
        bool inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
        if (inside) {
          float v = __half2float(x[((b * h + iy) * w + ix) * c + ch]);
          acc = isMax ? fmaxf(acc, v) : acc + v;
          cnt++;
        } else if (countIncludePad) {
          // ONNX AveragePool count_include_pad counts pads but not positions past the padded extent
          if (iy >= -pt && iy < h + pb && ix >= -pl && ix < w + pr) cnt++;
        }
      }
    }
    float out = isMax ? acc : (cnt > 0 ? acc / (float)cnt : 0.f);
    y[i] = __float2half_rn(out);
  }
}

__global__ void gapNhwc(const __half* __restrict__ x, __half* __restrict__ y, int64_t n, int64_t hw, int64_t c, bool isMax) {
  int64_t total = n * c;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t ch = i % c, b = i / c;
    const __half* p = x + b * hw * c + ch;
    float acc = isMax ? -FLT_MAX : 0.f;
    for (int64_t j = 0; j < hw; j++) {
      float v = __half2float(p[j * c]);
      acc = isMax ? fmaxf(acc, v) : acc + v;
    }
    y[i] = __float2half_rn(isMax ? acc : acc / (float)hw);
  }
}

// plain layout: one warp per row of hw contiguous elements
__global__ void gapRows(const __half* __restrict__ x, __half* __restrict__ y, int64_t rows, int64_t hw, bool isMax) {
  int64_t warp = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  const __half* p = x + warp * hw;
  float acc = isMax ? -FLT_MAX : 0.f;
  for (int64_t j = lane; j < hw; j += 32) {
    float v = __half2float(p[j]);
    acc = isMax ? fmaxf(acc, v) : acc + v;
  }
  for (int o = 16; o > 0; o >>= 1) {
    float other = __shfl_xor_sync(0xffffffffu, acc, o);
    acc = isMax ? fmaxf(acc, other) : acc + other;
  }
  if (lane == 0) y[warp] = __float2half_rn(isMax ? acc : acc / (float)hw);
}

// ---- softmax: one warp per row ------------------------------------------------------------------------------

__global__ void softmaxKernel(const __half* __restrict__ x, __half* __restrict__ y, int64_t outer, int64_t len, int64_t inner,
                              bool logSoftmax) {
  int64_t row = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (row >= outer * inner) return;
  int64_t o = row / inner, in = row % inner;
  const __half* p = x + o * len * inner + in;
  __half* q = y + o * len * inner + in;
  float m = -FLT_MAX;
  for (int64_t j = lane; j < len; j += 32) m = fmaxf(m, __half2float(p[j * inner]));
  for (int s = 16; s > 0; s >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, s));
  float sum = 0.f;
  for (int64_t j = lane; j < len; j += 32) sum += __expf(__half2float(p[j * inner]) - m);
  for (int s = 16; s > 0; s >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, s);
  float inv = 1.f / sum, lse = logf(sum);
  for (int64_t j = lane; j < len; j += 32) {
    float v = __half2float(p[j * inner]) - m;
    q[j * inner] = __float2half_rn(logSoftmax ? v - lse : __expf(v) * inv);
  }
}

// ---- data movement ------------------------------------------------------------------------------------------

__global__ void transposeKernel(const __half* __restrict__ x, __half* __restrict__ y, int rank, Dims6 od, Dims6 is, int64_t total) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t rem = i, src = 0;
    for (int d = rank - 1; d >= 0; d--) {
      src += (rem % od.d[d]) * is.d[d];
      rem /= od.d[d];
    }
    y[i] = x[src];
  }
}

__global__ void copy2dKernel(const __half* __restrict__ x, __half* __restrict__ y, int64_t rows, int64_t rowElems, int64_t ss, int64_t ds) {
  int64_t total = rows * rowElems;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t r = i / rowElems, e = i % rowElems;
    y[r * ds + e] = x[r * ss + e];
  }
}

// ---- fallback compute ----------------------------------------------------------------------------------------

__global__ void directConvKernel(const __half* __restrict__ x, const __half* __restrict__ wt, const __half* __restrict__ bias,
                                 const __half* __restrict__ res, __half* __restrict__ y, int64_t n, int64_t c, int64_t h, int64_t wd,
                                 int64_t k, int r, int sdim, int64_t oh, int64_t ow, int pt, int pl, int sh, int sw, int dh, int dw,
                                 int groups, int kind, float p0, float p1) {
  int64_t total = n * oh * ow * k;
  int64_t cg = c / groups, kg = k / groups;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t oc = i % k;
    int64_t ox = (i / k) % ow;
    int64_t oy = (i / (k * ow)) % oh;
    int64_t b = i / (k * ow * oh);
    int64_t g = oc / kg;
    float acc = 0.f;
    const __half* wk = wt + oc * r * sdim * cg;
    for (int ky = 0; ky < r; ky++) {
      int64_t iy = oy * sh - pt + (int64_t)ky * dh;
      if (iy < 0 || iy >= h) continue;
      for (int kx = 0; kx < sdim; kx++) {
        int64_t ix = ox * sw - pl + (int64_t)kx * dw;
        if (ix < 0 || ix >= wd) continue;
        const __half* xp = x + ((b * h + iy) * wd + ix) * c + g * cg;
        const __half* wp = wk + (ky * sdim + kx) * cg;
        for (int64_t ci = 0; ci < cg; ci++) acc += __half2float(xp[ci]) * __half2float(wp[ci]);
      }
    }
    if (bias) acc += __half2float(bias[oc]);
    if (res) acc += __half2float(res[i]);
    y[i] = __float2half_rn(applyAct(acc, kind, p0, p1));
  }
}

// 16x16 tiles through shared memory; FP32 accumulation. A reference and a last-resort tactic, not a fast path.
__global__ void gemmNaiveKernel(const __half* __restrict__ a, const __half* __restrict__ bm, const __half* __restrict__ bias,
                                const __half* __restrict__ res, __half* __restrict__ y, int64_t m, int64_t n, int64_t k, int64_t sA,
                                int64_t sB, int64_t sY, bool bNK, int kind, float p0, float p1) {
  __shared__ float ta[16][17];
  __shared__ float tb[16][17];
  int64_t bi = blockIdx.z;
  const __half* A = a + bi * sA;
  const __half* B = bm + bi * sB;
  int64_t row = blockIdx.y * 16 + threadIdx.y;
  int64_t col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.f;
  for (int64_t k0 = 0; k0 < k; k0 += 16) {
    int64_t ka = k0 + threadIdx.x;
    ta[threadIdx.y][threadIdx.x] = (row < m && ka < k) ? __half2float(A[row * k + ka]) : 0.f;
    int64_t kb = k0 + threadIdx.y;
    float bv = 0.f;
    if (col < n && kb < k) bv = __half2float(bNK ? B[col * k + kb] : B[kb * n + col]);
    tb[threadIdx.y][threadIdx.x] = bv;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < 16; j++) acc += ta[threadIdx.y][j] * tb[j][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) {
    if (bias) acc += __half2float(bias[col]);
    if (res) acc += __half2float(res[bi * sY + row * n + col]);
    y[bi * sY + row * n + col] = __float2half_rn(applyAct(acc, kind, p0, p1));
  }
}

__global__ void randomFillKernel(__half* y, int64_t count, uint32_t seed, float scale) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count; i += (int64_t)gridDim.x * blockDim.x) {
    uint32_t v = (uint32_t)i * 2654435761u ^ seed;
    v ^= v >> 16; v *= 0x7feb352du; v ^= v >> 15; v *= 0x846ca68bu; v ^= v >> 16;
    y[i] = __float2half_rn(((float)(v & 0xffffff) / 16777215.f * 2.f - 1.f) * scale);
  }
}

__global__ void compareKernel(const __half* a, const __half* b, int64_t count, float* out) {
  float md = 0.f, mb = 0.f;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count; i += (int64_t)gridDim.x * blockDim.x) {
    float va = __half2float(a[i]), vb = __half2float(b[i]);
    float d = fabsf(va - vb);
    if (!(d <= 3.0e38f)) d = 3.0e38f;  // NaN or inf counts as a maximal error
    md = fmaxf(md, d);
    mb = fmaxf(mb, fabsf(vb));
  }
  for (int o = 16; o > 0; o >>= 1) {
    md = fmaxf(md, __shfl_xor_sync(0xffffffffu, md, o));
    mb = fmaxf(mb, __shfl_xor_sync(0xffffffffu, mb, o));
  }
  // floats >= 0 order like their bit patterns as unsigned ints
  if ((threadIdx.x & 31) == 0) {
    atomicMax(reinterpret_cast<unsigned*>(out), __float_as_uint(md));
    atomicMax(reinterpret_cast<unsigned*>(out) + 1, __float_as_uint(mb));
  }
}

}  // namespace

void launchConvertIn(const void* src, bool srcF32, __half* dst, int64_t n, int64_t c, int64_t h, int64_t w, int64_t cp, bool toNhwc,
                     cudaStream_t s) {
  if (toNhwc && tryConvertInNhwc8(src, srcF32, dst, n, c, h, w, cp, s)) return;
  if (toNhwc) {
    int64_t total = n * h * w * cp;
    if (srcF32) convertInNhwc<float><<<blocksFor(total), kThreads, 0, s>>>((const float*)src, dst, n, c, h, w, cp);
    else convertInNhwc<__half><<<blocksFor(total), kThreads, 0, s>>>((const __half*)src, dst, n, c, h, w, cp);
  } else {
    int64_t total = n * c * h * w;
    if (srcF32) convertPlain<float><<<blocksFor(total), kThreads, 0, s>>>((const float*)src, dst, total);
    else convertPlain<__half><<<blocksFor(total), kThreads, 0, s>>>((const __half*)src, dst, total);
  }
  CK_LAUNCH("convert_in");
}

void launchConvertOut(const __half* src, void* dst, bool dstF32, int64_t n, int64_t c, int64_t h, int64_t w, bool fromNhwc, cudaStream_t s) {
  int64_t total = n * c * h * w;
  if (dstF32) convertOutKernel<float><<<blocksFor(total), kThreads, 0, s>>>(src, (float*)dst, n, c, h, w, fromNhwc);
  else convertOutKernel<__half><<<blocksFor(total), kThreads, 0, s>>>(src, (__half*)dst, n, c, h, w, fromNhwc);
  CK_LAUNCH("convert_out");
}

void launchUnary(const __half* x, __half* y, int64_t count, ActSpec act, cudaStream_t s) {
  if (count % 8 == 0) {
    int64_t n8 = count / 8;
    unaryVec8<<<blocksFor(n8), kThreads, 0, s>>>((const uint4*)x, (uint4*)y, n8, act.kind, act.p0, act.p1);
  } else {
    unaryScalar<<<blocksFor(count), kThreads, 0, s>>>(x, y, count, act.kind, act.p0, act.p1);
  }
  CK_LAUNCH("unary");
}

void launchChannelAffine(const __half* x, __half* y, const __half* scale, const __half* shift, const __half* res, int64_t count,
                         int64_t channels, int64_t inner, ActSpec act, cudaStream_t s) {
  if (inner == 1 && channels % 8 == 0 && count % 8 == 0) {
    int64_t n8 = count / 8;
    channelAffineVec8<<<blocksFor(n8), kThreads, 0, s>>>((const uint4*)x, (uint4*)y, scale, shift, (const uint4*)res, n8, channels / 8,
                                                         act.kind, act.p0, act.p1);
  } else {
    channelAffineKernel<<<blocksFor(count), kThreads, 0, s>>>(x, y, scale, shift, res, count, channels, inner, act.kind, act.p0, act.p1);
  }
  CK_LAUNCH("channel_affine");
}

void launchBinary(const __half* a, const __half* b, __half* y, int rank, Dims6 od, Dims6 sa, Dims6 sb, int op, ActSpec act, cudaStream_t s) {
  int64_t total = 1;
  bool same = true;
  int64_t expect = 1;
  for (int d = rank - 1; d >= 0; d--) {
    total *= od.d[d];
    if (sa.d[d] != expect || sb.d[d] != expect) same = same && od.d[d] == 1;
    expect *= od.d[d];
  }
  if (same && total % 8 == 0) {
    binarySameVec8<<<blocksFor(total / 8), kThreads, 0, s>>>((const uint4*)a, (const uint4*)b, (uint4*)y, total / 8, op, act.kind, act.p0,
                                                            act.p1);
  } else {
    binaryKernel<<<blocksFor(total), kThreads, 0, s>>>(a, b, y, rank, od, sa, sb, total, op, act.kind, act.p0, act.p1);
  }
  CK_LAUNCH("binary");
}

void launchPool2d(const __half* x, __half* y, int64_t n, int64_t c, int64_t h, int64_t w, int64_t oh, int64_t ow, int kh, int kw, int sh,
                  int sw, int pt, int pl, int pb, int pr, int dh, int dw, bool isMax, bool countIncludePad, cudaStream_t s) {
  int64_t total = n * oh * ow * c;
  pool2dKernel<<<blocksFor(total), kThreads, 0, s>>>(x, y, n, c, h, w, oh, ow, kh, kw, sh, sw, pt, pl, pb, pr, dh, dw, isMax, countIncludePad);
  CK_LAUNCH("pool2d");
}

__global__ void noopKernel() {}

void launchNoop(cudaStream_t s) {
  noopKernel<<<1, 1, 0, s>>>();
  CK_LAUNCH("noop");
}

void launchGlobalAvgPool(const __half* x, __half* y, int64_t n, int64_t hw, int64_t c, bool nhwc, bool isMax, cudaStream_t s) {
  if (nhwc) {
    gapNhwc<<<blocksFor(n * c), kThreads, 0, s>>>(x, y, n, hw, c, isMax);
  } else {
    int64_t rows = n * c;
    gapRows<<<blocksFor(rows * 32), kThreads, 0, s>>>(x, y, rows, hw, isMax);
  }
  CK_LAUNCH("global_pool");
}

void launchSoftmax(const __half* x, __half* y, int64_t outer, int64_t len, int64_t inner, bool logSoftmax, cudaStream_t s) {
  int64_t rows = outer * inner;
  int64_t threads = rows * 32;
  unsigned blocks = (unsigned)((threads + kThreads - 1) / kThreads);
  softmaxKernel<<<blocks, kThreads, 0, s>>>(x, y, outer, len, inner, logSoftmax);
  CK_LAUNCH("softmax");
}

void launchTranspose(const __half* x, __half* y, int rank, Dims6 od, Dims6 is, cudaStream_t s) {
  int64_t total = 1;
  for (int d = 0; d < rank; d++) total *= od.d[d];
  transposeKernel<<<blocksFor(total), kThreads, 0, s>>>(x, y, rank, od, is, total);
  CK_LAUNCH("transpose");
}

void launchCopy2d(const __half* x, __half* y, int64_t rows, int64_t rowElems, int64_t ss, int64_t ds, cudaStream_t s) {
  if (ss == rowElems && ds == rowElems) {
    cudaMemcpyAsync(y, x, rows * rowElems * sizeof(__half), cudaMemcpyDeviceToDevice, s);
  } else if (tryCopy2dVec8(x, y, rows, rowElems, ss, ds, s)) {
    return;
  } else {
    copy2dKernel<<<blocksFor(rows * rowElems), kThreads, 0, s>>>(x, y, rows, rowElems, ss, ds);
  }
  CK_LAUNCH("copy2d");
}

void launchDirectConv(const __half* x, const __half* w, const __half* bias, const __half* res, __half* y, int64_t n, int64_t c, int64_t h,
                      int64_t wd, int64_t k, int r, int sdim, int64_t oh, int64_t ow, int pt, int pl, int sh, int sw, int dh, int dw,
                      int groups, ActSpec act, cudaStream_t s) {
  int64_t total = n * oh * ow * k;
  directConvKernel<<<blocksFor(total, 128), 128, 0, s>>>(x, w, bias, res, y, n, c, h, wd, k, r, sdim, oh, ow, pt, pl, sh, sw, dh, dw,
                                                         groups, act.kind, act.p0, act.p1);
  CK_LAUNCH("direct_conv");
}

void launchGemmNaive(const __half* a, const __half* b, const __half* bias, const __half* res, __half* y, int64_t batch, int64_t m,
                     int64_t n, int64_t k, int64_t sA, int64_t sB, int64_t sY, bool bNK, ActSpec act, cudaStream_t s) {
  dim3 block(16, 16);
  dim3 grid((unsigned)((n + 15) / 16), (unsigned)((m + 15) / 16), (unsigned)batch);
  gemmNaiveKernel<<<grid, block, 0, s>>>(a, b, bias, res, y, m, n, k, sA, sB, sY, bNK, act.kind, act.p0, act.p1);
  CK_LAUNCH("gemm_naive");
}

void launchRandomFill(__half* y, int64_t count, uint32_t seed, float scale, cudaStream_t s) {
  randomFillKernel<<<blocksFor(count), kThreads, 0, s>>>(y, count, seed, scale);
  CK_LAUNCH("random_fill");
}

void launchCompare(const __half* a, const __half* b, int64_t count, float* out, cudaStream_t s) {
  cudaMemsetAsync(out, 0, 2 * sizeof(float), s);
  compareKernel<<<blocksFor(count), kThreads, 0, s>>>(a, b, count, out);
  CK_LAUNCH("compare");
}

}  // namespace rt
