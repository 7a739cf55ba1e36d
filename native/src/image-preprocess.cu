// rtserve native CUDA engine: the preprocessing kernel of the image path (issue #19).
//
// Resampling follows what libvips (sharp, the CPU path) does for a resize: a separable filter whose support grows with
// the reduction factor (antialiasing), weights normalized per output pixel, the result rounded to 8 bits before the
// normalization (so the GPU's resized pixels are comparable with the CPU path's within rounding). The same reference
// is written in TypeScript (src/preprocess/resample.ts) and checked against sharp in CI and against this kernel on the GPU.
#include <cuda_fp16.h>

#include <cmath>

#include "image-preprocess.cuh"

namespace rt {

namespace {

struct KernelSpec {
  int W, H, nchw, bgr, dtype, kernel;
  float a[3], b[3];  // per destination channel: value * a + b
  float pad[3];      // per source channel, 0..255
};

__device__ inline float sinc(float x) {
  if (fabsf(x) < 1e-6f) return 1.f;
  x *= 3.14159265358979f;
  return sinf(x) / x;
}

/** Filter value at distance x (in filter units) and its support, per kernel (0 nearest handled apart). */
__device__ inline float filterAt(int k, float x) {
  x = fabsf(x);
  switch (k) {
    case 1: return x < 1.f ? 1.f - x : 0.f;
    case 2: {  // Catmull-Rom (libvips VIPS_KERNEL_CUBIC)
      const float a = -0.5f;
      if (x < 1.f) return ((a + 2.f) * x - (a + 3.f)) * x * x + 1.f;
      if (x < 2.f) return (((x - 5.f) * x + 8.f) * x - 4.f) * a;
      return 0.f;
    }
    case 3: {  // Mitchell-Netravali B = C = 1/3
      const float B = 1.f / 3.f, C = 1.f / 3.f;
      if (x < 1.f) return ((12.f - 9.f * B - 6.f * C) * x * x * x + (-18.f + 12.f * B + 6.f * C) * x * x + (6.f - 2.f * B)) / 6.f;
      if (x < 2.f) return ((-B - 6.f * C) * x * x * x + (6.f * B + 30.f * C) * x * x + (-12.f * B - 48.f * C) * x + (8.f * B + 24.f * C)) / 6.f;
      return 0.f;
    }
    case 4: return x < 2.f ? sinc(x) * sinc(x / 2.f) : 0.f;
    default: return x < 3.f ? sinc(x) * sinc(x / 3.f) : 0.f;
  }
}

__device__ inline float supportOf(int k) { return k == 1 ? 1.f : k == 5 ? 3.f : 2.f; }

/** The taps of output coordinate `u` along an axis of `srcN` source and `dstN` resized samples. */
struct Taps {
  int lo, hi;
  float center, inv;
};
__device__ inline Taps tapsFor(int k, int u, int srcN, int dstN) {
  float scale = (float)srcN / (float)dstN;
  float fs = scale > 1.f ? scale : 1.f;
  float support = supportOf(k) * fs;
  Taps t;
  t.center = ((float)u + 0.5f) * scale;
  t.inv = 1.f / fs;
  t.lo = max(0, (int)floorf(t.center - support + 0.5f));
  t.hi = min(srcN, (int)floorf(t.center + support + 0.5f));
  if (t.hi <= t.lo) t.hi = min(srcN, t.lo + 1);
  return t;
}

__global__ void preprocessKernel(const ImageParams* __restrict__ params, KernelSpec s, void* __restrict__ dst) {
  const int n = blockIdx.y;
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= s.W * s.H) return;
  const int x = pix % s.W, y = pix / s.W;
  const ImageParams p = params[n];
  // Channel c of source pixel (i, j): interleaved (raw frames) or planar (nvJPEG's RGB output).
  const size_t cstep = p.planar ? (size_t)p.pitch * p.srcH : 1;
  const size_t xstep = p.planar ? 1 : 3;
  float rgb[3] = {s.pad[0], s.pad[1], s.pad[2]};
  const int u = x - p.offsetX, v = y - p.offsetY;
  if (p.valid && u >= 0 && v >= 0 && u < p.resizeW && v < p.resizeH) {
    if (s.kernel == 0) {
      int sx = min(p.srcW - 1, (int)floorf(((float)u + 0.5f) * (float)p.srcW / (float)p.resizeW));
      int sy = min(p.srcH - 1, (int)floorf(((float)v + 0.5f) * (float)p.srcH / (float)p.resizeH));
      const uint8_t* q = p.src + (size_t)sy * p.pitch + (size_t)sx * xstep;
      rgb[0] = q[0]; rgb[1] = q[cstep]; rgb[2] = q[2 * cstep];
    } else {
      Taps tx = tapsFor(s.kernel, u, p.srcW, p.resizeW);
      Taps ty = tapsFor(s.kernel, v, p.srcH, p.resizeH);
      float wxSum = 0.f, wySum = 0.f;
      for (int i = tx.lo; i < tx.hi; i++) wxSum += filterAt(s.kernel, ((float)i - tx.center + 0.5f) * tx.inv);
      for (int j = ty.lo; j < ty.hi; j++) wySum += filterAt(s.kernel, ((float)j - ty.center + 0.5f) * ty.inv);
      if (wxSum == 0.f) wxSum = 1.f;
      if (wySum == 0.f) wySum = 1.f;
      float acc[3] = {0.f, 0.f, 0.f};
      for (int j = ty.lo; j < ty.hi; j++) {
        float wy = filterAt(s.kernel, ((float)j - ty.center + 0.5f) * ty.inv) / wySum;
        if (wy == 0.f) continue;
        const uint8_t* row = p.src + (size_t)j * p.pitch;
        float r0 = 0.f, r1 = 0.f, r2 = 0.f;
        for (int i = tx.lo; i < tx.hi; i++) {
          float wx = filterAt(s.kernel, ((float)i - tx.center + 0.5f) * tx.inv);
          const uint8_t* q = row + (size_t)i * xstep;
          r0 += wx * q[0]; r1 += wx * q[cstep]; r2 += wx * q[2 * cstep];
        }
        acc[0] += wy * r0; acc[1] += wy * r1; acc[2] += wy * r2;
      }
      for (int c = 0; c < 3; c++) rgb[c] = acc[c] / wxSum;
    }
  }
  const size_t plane = (size_t)s.W * s.H;
  for (int c = 0; c < 3; c++) {
    // The CPU path's pixels are 8-bit: round (and clamp the filters' overshoot) before normalizing.
    float px = fminf(255.f, fmaxf(0.f, rintf(rgb[c])));
    int d = s.bgr ? 2 - c : c;
    size_t at = s.nchw ? ((size_t)n * 3 + d) * plane + pix : ((size_t)n * plane + pix) * 3 + d;
    if (s.dtype == 2) ((uint8_t*)dst)[at] = (uint8_t)px;
    else {
      float val = px * s.a[d] + s.b[d];
      if (s.dtype == 0) ((float*)dst)[at] = val;
      else ((__half*)dst)[at] = __float2half_rn(val);
    }
  }
}

}  // namespace

void launchImagePreprocess(const ImageParams* params, int n, const ImageSpecNative& spec, void* dst, cudaStream_t stream) {
  if (n <= 0) return;
  KernelSpec s;
  s.W = spec.width; s.H = spec.height; s.nchw = spec.nchw ? 1 : 0; s.bgr = spec.bgr ? 1 : 0; s.dtype = spec.dtype; s.kernel = spec.kernel;
  for (int d = 0; d < 3; d++) {
    s.a[d] = spec.scale / spec.std[d];
    s.b[d] = -spec.mean[d] / spec.std[d];
    s.pad[d] = spec.pad[d];
  }
  dim3 block(256), grid((unsigned)((spec.width * spec.height + 255) / 256), (unsigned)n);
  preprocessKernel<<<grid, block, 0, stream>>>(params, s, dst);
}

}  // namespace rt
