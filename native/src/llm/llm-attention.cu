// rtserve native CUDA engine, LLM decoder: attention over the paged KV cache, one kernel for prefill and decode.
//
// Each query token attends to positions 0 .. pos[t] of its row (causal: a prompt chunk's K/V are written before this
// runs, so a chunk sees itself and everything cached before it). One CTA of 128 threads serves one (token, kvHead,
// split): its G = heads / kvHeads query heads share every K/V read (grouped-query attention). Positions are walked
// in tiles of 128 with an online softmax (FP32): a thread scores one position of the tile against the G queries, then
// every thread accumulates its (head, dim) pairs of P·V. With splits > 1 (decode of few rows: flash-decoding) the
// positions are cut in `splits` ranges whose partial (max, sum, accumulator) a second kernel combines.
#include <cfloat>

#include "llm-kernels.cuh"

namespace rt {
namespace llm {

namespace {

constexpr int kThreads = 128;
constexpr int kTile = 128;
constexpr int kMaxG = 8;
constexpr int kMaxPairs = 8;  // (head, dim) accumulators per thread: G * D <= 1024
constexpr int kMaxD = 256;

__global__ void __launch_bounds__(kThreads) attentionKernel(const __half* qkv, StepArgs a, const __half* kv, __half* out, float* partial,
                                                           int heads, int kvHeads, int D, int bt, int splits, float scale) {
  __shared__ float qs[kMaxG * kMaxD];
  __shared__ float sc[kMaxG][kTile];
  __shared__ int64_t voff[kTile];
  __shared__ float mS[kMaxG], lS[kMaxG], facS[kMaxG];
  const int t = blockIdx.x, kvh = blockIdx.y, sp = blockIdx.z, tid = threadIdx.x;
  const int G = heads / kvHeads;
  const int ld = (heads + 2 * kvHeads) * D;
  const int row = a.tokRow[t];
  const int ctx = a.pos[t] + 1;
  const int chunk = (ctx + splits - 1) / splits;
  const int begin = sp * chunk;
  const int end = min(ctx, begin + chunk);
  const int* table = a.table + (int64_t)row * a.maxBlocks;
  const __half* q = qkv + (int64_t)t * ld + (int64_t)kvh * G * D;
  for (int i = tid; i < G * D; i += kThreads) qs[i] = __half2float(q[i]);
  if (tid < G) {
    mS[tid] = -FLT_MAX;
    lS[tid] = 0.f;
  }
  float acc[kMaxPairs];
#pragma unroll
  for (int k = 0; k < kMaxPairs; k++) acc[k] = 0.f;
  __syncthreads();
  const int64_t kvHeadStride = (int64_t)bt * D;
  for (int t0 = begin; t0 < end; t0 += kTile) {
    int p = t0 + tid;
    if (p < end) {
      int blk = table[p / bt];
      int64_t base = (int64_t)blk * 2 * kvHeads * kvHeadStride + (int64_t)(p % bt) * D;
      const __half* kp = kv + base + kvh * kvHeadStride;
      voff[tid] = base + (kvHeads + kvh) * kvHeadStride;
      float s[kMaxG];
#pragma unroll
      for (int g = 0; g < kMaxG; g++) s[g] = 0.f;
      for (int d = 0; d < D; d += 8) {
        uint4 raw = *reinterpret_cast<const uint4*>(kp + d);
        const __half2* h2 = reinterpret_cast<const __half2*>(&raw);
        float kf[8];
#pragma unroll
        for (int j = 0; j < 4; j++) {
          float2 f = __half22float2(h2[j]);
          kf[2 * j] = f.x;
          kf[2 * j + 1] = f.y;
        }
#pragma unroll
        for (int g = 0; g < kMaxG; g++) {
          if (g < G) {
            const float* qg = qs + g * D + d;
#pragma unroll
            for (int j = 0; j < 8; j++) s[g] += qg[j] * kf[j];
          }
        }
      }
#pragma unroll
      for (int g = 0; g < kMaxG; g++)
        if (g < G) sc[g][tid] = s[g] * scale;
    } else {
      for (int g = 0; g < G; g++) sc[g][tid] = -FLT_MAX;
    }
    __syncthreads();
    // Warp w updates the softmax state of heads w, w + 4, ...
    const int w = tid >> 5, lane = tid & 31;
    for (int g = w; g < G; g += kThreads / 32) {
      float m = -FLT_MAX;
      for (int j = lane; j < kTile; j += 32) m = fmaxf(m, sc[g][j]);
      for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
      float mNew = fmaxf(mS[g], m);
      float sum = 0.f;
      for (int j = lane; j < kTile; j += 32) {
        float e = (t0 + j < end) ? __expf(sc[g][j] - mNew) : 0.f;
        sc[g][j] = e;
        sum += e;
      }
      for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
      if (lane == 0) {
        float f = __expf(mS[g] - mNew);
        facS[g] = f;
        lS[g] = lS[g] * f + sum;
        mS[g] = mNew;
      }
    }
    __syncthreads();
    const int n = min(kTile, end - t0);
#pragma unroll
    for (int k = 0; k < kMaxPairs; k++) {
      int pi = tid + k * kThreads;
      if (pi < G * D) {
        int g = pi / D, d = pi % D;
        float x = acc[k] * facS[g];
        for (int j = 0; j < n; j++) x += sc[g][j] * __half2float(kv[voff[j] + d]);
        acc[k] = x;
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int k = 0; k < kMaxPairs; k++) {
    int pi = tid + k * kThreads;
    if (pi >= G * D) continue;
    int g = pi / D, d = pi % D;
    int h = kvh * G + g;
    if (splits == 1) {
      out[(int64_t)t * heads * D + (int64_t)h * D + d] = __float2half(lS[g] > 0.f ? acc[k] / lS[g] : 0.f);
    } else {
      int64_t slot = ((int64_t)t * heads + h) * splits + sp;
      partial[slot * (D + 2) + d] = acc[k];
      if (d == 0) {
        partial[slot * (D + 2) + D] = mS[g];
        partial[slot * (D + 2) + D + 1] = lS[g];
      }
    }
  }
}

__global__ void combineKernel(const float* partial, __half* out, int heads, int D, int splits) {
  const int t = blockIdx.x, h = blockIdx.y;
  const float* base = partial + ((int64_t)t * heads + h) * splits * (D + 2);
  float m = -FLT_MAX;
  for (int s = 0; s < splits; s++) m = fmaxf(m, base[s * (D + 2) + D]);
  for (int d = threadIdx.x; d < D; d += blockDim.x) {
    float l = 0.f, x = 0.f;
    for (int s = 0; s < splits; s++) {
      const float* p = base + s * (D + 2);
      float ls = p[D + 1];
      if (ls <= 0.f) continue;
      float f = __expf(p[D] - m);
      l += ls * f;
      x += p[d] * f;
    }
    out[(int64_t)t * heads * D + (int64_t)h * D + d] = __float2half(l > 0.f ? x / l : 0.f);
  }
}

}  // namespace

void launchAttention(const __half* qkv, const StepArgs& a, const __half* kvLayer, __half* out, float* partial, int heads, int kvHeads,
                     int D, int bt, int splits, float scale, cudaStream_t s) {
  dim3 grid(a.T, kvHeads, splits);
  attentionKernel<<<grid, kThreads, 0, s>>>(qkv, a, kvLayer, out, partial, heads, kvHeads, D, bt, splits, scale);
  if (splits > 1) combineKernel<<<dim3(a.T, heads), D < 128 ? D : 128, 0, s>>>(partial, out, heads, D, splits);
}

}  // namespace llm
}  // namespace rt
