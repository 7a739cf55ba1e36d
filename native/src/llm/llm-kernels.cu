// rtserve native CUDA engine, LLM decoder: elementwise and row kernels (upload conversion, embedding, norms, RoPE and
// the KV write, activations). Attention is in llm-attention.cu, sampling in llm-sampling.cu.
#include <cuda_bf16.h>

#include "llm-kernels.cuh"

namespace rt {
namespace llm {

namespace {

__device__ __forceinline__ float loadAny(const void* src, int dtype, int64_t i) {
  if (dtype == DT_F32) return reinterpret_cast<const float*>(src)[i];
  if (dtype == DT_BF16) return __bfloat162float(reinterpret_cast<const __nv_bfloat16*>(src)[i]);
  return __half2float(reinterpret_cast<const __half*>(src)[i]);
}

__global__ void convertKernel(const void* src, int dtype, __half* dst, int64_t rows, int64_t cols, bool transpose) {
  int64_t n = rows * cols;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    if (dtype == DT_F16 && !transpose) {
      dst[i] = reinterpret_cast<const __half*>(src)[i];
      continue;
    }
    // Output index i; transposed: dst [cols, rows], element (c, r) comes from src (r, c).
    int64_t srcIdx = i;
    if (transpose) {
      int64_t c = i / rows, r = i % rows;
      srcIdx = r * cols + c;
    }
    dst[i] = __float2half(loadAny(src, dtype, srcIdx));
  }
}

__global__ void embedKernel(const int* tok, const int* pos, const __half* wte, const __half* wpe, __half* out, int hidden) {
  int t = blockIdx.x;
  const __half* e = wte + (int64_t)tok[t] * hidden;
  const __half* p = wpe ? wpe + (int64_t)pos[t] * hidden : nullptr;
  __half* o = out + (int64_t)t * hidden;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) o[i] = p ? __hadd(e[i], p[i]) : e[i];
}

__device__ __forceinline__ float blockSum(float v, float* red) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  int w = threadIdx.x >> 5, l = threadIdx.x & 31;
  __syncthreads();
  if (l == 0) red[w] = v;
  __syncthreads();
  int nw = (blockDim.x + 31) >> 5;
  v = threadIdx.x < nw ? red[threadIdx.x] : 0.f;
  if (w == 0)
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x == 0) red[32] = v;
  __syncthreads();
  return red[32];
}

__global__ void addNormKernel(__half* hidden, const __half* delta, const int* gather, const __half* w, const __half* b, __half* out,
                              int n, float eps, bool rms) {
  __shared__ float red[33];
  int i = blockIdx.x;
  int src = gather ? gather[i] : i;
  __half* h = hidden + (int64_t)src * n;
  const __half* d = delta ? delta + (int64_t)src * n : nullptr;
  float sum = 0.f, sq = 0.f;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    __half v = h[j];
    if (d) {
      v = __hadd(v, d[j]);
      h[j] = v;
    }
    float f = __half2float(v);
    sum += f;
    sq += f * f;
  }
  __half* o = out + (int64_t)i * n;
  if (rms) {
    float var = blockSum(sq, red) / (float)n;
    float r = rsqrtf(var + eps);
    for (int j = threadIdx.x; j < n; j += blockDim.x) o[j] = __hmul(w[j], __float2half(__half2float(h[j]) * r));
    return;
  }
  float mean = blockSum(sum, red) / (float)n;
  float c2 = 0.f;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    float f = __half2float(h[j]) - mean;
    c2 += f * f;
  }
  float r = rsqrtf(blockSum(c2, red) / (float)n + eps);
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    float f = (__half2float(h[j]) - mean) * r * __half2float(w[j]) + (b ? __half2float(b[j]) : 0.f);
    o[j] = __float2half(f);
  }
}

__global__ void ropeKvKernel(__half* qkv, StepArgs a, const float* invFreq, __half* kvLayer, int heads, int kvHeads, int D, int bt) {
  int t = blockIdx.x;
  int ld = (heads + 2 * kvHeads) * D;
  __half* row = qkv + (int64_t)t * ld;
  int p = a.pos[t];
  int half_ = D / 2;
  int block = a.table[(int64_t)a.tokRow[t] * a.maxBlocks + p / bt];
  int off = p % bt;
  __half* base = kvLayer + (int64_t)block * 2 * kvHeads * bt * D;
  // (heads + kvHeads) rotated heads of D/2 pairs, then kvHeads * D values of V copied.
  int rotPairs = (heads + kvHeads) * half_;
  for (int i = threadIdx.x; i < rotPairs; i += blockDim.x) {
    int h = i / half_, j = i % half_;
    __half* x = row + h * D;
    __half x1 = x[j], x2 = x[j + half_];
    __half o1 = x1, o2 = x2;
    if (invFreq) {
      float ang = __fmul_rn((float)p, invFreq[j]);
      __half c = __float2half(cosf(ang)), sn = __float2half(sinf(ang));
      o1 = __hadd(__hmul(x1, c), __hmul(__hneg(x2), sn));
      o2 = __hadd(__hmul(x2, c), __hmul(x1, sn));
    }
    if (h < heads) {
      x[j] = o1;
      x[j + half_] = o2;
    } else {
      int kh = h - heads;
      __half* k = base + ((int64_t)kh * bt + off) * D;
      k[j] = o1;
      k[j + half_] = o2;
    }
  }
  const __half* v = row + (heads + kvHeads) * D;
  for (int i = threadIdx.x; i < kvHeads * D; i += blockDim.x) {
    int kh = i / D, j = i % D;
    base[((int64_t)(kvHeads + kh) * bt + off) * D + j] = v[i];
  }
}

__global__ void siluMulKernel(const __half* gu, __half* out, int I) {
  int t = blockIdx.y;
  const __half* g = gu + (int64_t)t * 2 * I;
  const __half* u = g + I;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < I; i += gridDim.x * blockDim.x) {
    float x = __half2float(g[i]);
    __half s = __float2half(x / (1.f + expf(-x)));
    out[(int64_t)t * I + i] = __hmul(s, u[i]);
  }
}

__device__ __forceinline__ float r16(float v) { return __half2float(__float2half(v)); }

__global__ void geluKernel(__half* x, int64_t n, int act) {
  const float k = 0.7978845608028654f;  // sqrt(2 / pi)
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    float v = __half2float(x[i]);
    float y;
    if (act == MLP_GELU_ERF) {
      y = 0.5f * v * (1.f + erff(v * 0.7071067811865476f));
    } else if (act == MLP_GELU_TANH) {
      y = 0.5f * v * (1.f + tanhf(k * (v + 0.044715f * v * v * v)));
    } else {
      // transformers' NewGELUActivation on an FP16 tensor: every torch op rounds to FP16.
      float c = r16(v * v * v);
      c = r16(v + r16(0.044715f * c));
      float t = r16(tanhf(r16(k * c)));
      y = r16(0.5f * v) * r16(1.f + t);
    }
    x[i] = __float2half(y);
  }
}

int gridFor(int64_t n, int threads) {
  int64_t g = (n + threads - 1) / threads;
  return (int)(g < 1 ? 1 : g > 65535 ? 65535 : g);
}

}  // namespace

void launchConvert(const void* src, int dtype, __half* dst, int64_t rows, int64_t cols, bool transpose, cudaStream_t s) {
  convertKernel<<<gridFor(rows * cols, 256), 256, 0, s>>>(src, dtype, dst, rows, cols, transpose);
}

void launchEmbed(const int* tok, const int* pos, const __half* wte, const __half* wpe, __half* out, int T, int hidden, cudaStream_t s) {
  embedKernel<<<T, 256, 0, s>>>(tok, pos, wte, wpe, out, hidden);
}

void launchAddNorm(__half* hidden, const __half* delta, const int* gather, const __half* w, const __half* b, __half* out, int rows,
                   int hidden_, float eps, bool rms, cudaStream_t s) {
  int threads = hidden_ >= 4096 ? 1024 : hidden_ >= 1024 ? 512 : 256;
  addNormKernel<<<rows, threads, 0, s>>>(hidden, delta, gather, w, b, out, hidden_, eps, rms);
}

void launchRopeKv(__half* qkv, const StepArgs& a, const float* invFreq, __half* kvLayer, int heads, int kvHeads, int D, int bt,
                  cudaStream_t s) {
  ropeKvKernel<<<a.T, 256, 0, s>>>(qkv, a, invFreq, kvLayer, heads, kvHeads, D, bt);
}

void launchSiluMul(const __half* gu, __half* out, int T, int I, cudaStream_t s) {
  dim3 grid((I + 255) / 256, T);
  siluMulKernel<<<grid, 256, 0, s>>>(gu, out, I);
}

void launchGelu(__half* x, int64_t count, int act, cudaStream_t s) { geluKernel<<<gridFor(count, 256), 256, 0, s>>>(x, count, act); }

}  // namespace llm
}  // namespace rt
