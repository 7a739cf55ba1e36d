// rtserve native CUDA engine, LLM decoder: sampling on the device, one CTA per row.
//
// The repetition penalty and greedy argmax follow src/generate/sampling.ts exactly: a token the slot has seen has its
// logit divided by the penalty when positive, multiplied when negative; argmax keeps the lowest index on ties.
// Draws: logits / temperature; top-k and top-p keep the tokens at or above a threshold found by a bitwise search over
// the ordered float keys (exact up to tokens tied at the threshold, which are all kept); the token is drawn in index
// order from the kept mass with a per-slot counter-based generator (splitmix64 of seed and draw number). Draws are
// deterministic per seed, not the same draws as the CPU Sampler.
#include <cfloat>

#include "llm-kernels.cuh"

namespace rt {
namespace llm {

namespace {

constexpr int kThreads = 1024;

__global__ void slotPrepareKernel(SampleArgs a, uint8_t* seen, int vocab, uint64_t* rngSeed, uint64_t* rngCount) {
  int r = blockIdx.y;
  if (!a.fresh[r]) return;
  int slot = a.slot[r];
  uint8_t* m = seen + (int64_t)slot * vocab;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < vocab; i += gridDim.x * blockDim.x) m[i] = 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    rngSeed[slot] = ((uint64_t)(uint32_t)a.seedHi[r] << 32) | (uint32_t)a.seedLo[r];
    rngCount[slot] = 0;
  }
}

__global__ void markSeenKernel(StepArgs s, const int* rowSlot, uint8_t* seen, int vocab) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= s.T) return;
  int tok = s.tok[t];
  if (tok >= 0 && tok < vocab) seen[(int64_t)rowSlot[s.tokRow[t]] * vocab + tok] = 1;
}

__device__ __forceinline__ uint32_t orderedKey(float f) {
  uint32_t u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Shared {
  float f[32];
  int i[32];
  float bcastF;
  int bcastI;
};

__device__ float blockSumF(float v, Shared& sh) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  __syncthreads();
  if ((threadIdx.x & 31) == 0) sh.f[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = sh.f[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) sh.bcastF = v;
  }
  __syncthreads();
  return sh.bcastF;
}

__device__ int blockSumI(int v, Shared& sh) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  __syncthreads();
  if ((threadIdx.x & 31) == 0) sh.i[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = sh.i[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) sh.bcastI = v;
  }
  __syncthreads();
  return sh.bcastI;
}

/** (value, index) max with the lowest index on ties. */
__device__ void argmaxMerge(float& v, int& i, float ov, int oi) {
  if (ov > v || (ov == v && oi < i)) {
    v = ov;
    i = oi;
  }
}

__global__ void __launch_bounds__(kThreads) sampleKernel(const __half* logits, SampleArgs a, const uint8_t* seen, int vocab,
                                                        uint64_t* rngSeed, uint64_t* rngCount, int* out) {
  __shared__ Shared sh;
  __shared__ float chunkSum[kThreads];
  const int r = blockIdx.x, tid = threadIdx.x;
  const int slot = a.slot[r];
  const __half* x = logits + (int64_t)r * vocab;
  const uint8_t* m = seen + (int64_t)slot * vocab;
  const float pen = a.penalty[r];
  auto value = [&](int i) {
    float v = __half2float(x[i]);
    if (pen != 1.f && m[i]) v = v > 0.f ? v / pen : v * pen;
    return v;
  };
  float best = -INFINITY;
  int bestI = 0x7fffffff;
  for (int i = tid; i < vocab; i += kThreads) argmaxMerge(best, bestI, value(i), i);
  for (int o = 16; o > 0; o >>= 1) argmaxMerge(best, bestI, __shfl_xor_sync(0xffffffffu, best, o), __shfl_xor_sync(0xffffffffu, bestI, o));
  if ((tid & 31) == 0) {
    sh.f[tid >> 5] = best;
    sh.i[tid >> 5] = bestI;
  }
  __syncthreads();
  if (tid < 32) {
    best = sh.f[tid];
    bestI = sh.i[tid];
    for (int o = 16; o > 0; o >>= 1) argmaxMerge(best, bestI, __shfl_xor_sync(0xffffffffu, best, o), __shfl_xor_sync(0xffffffffu, bestI, o));
    if (tid == 0) {
      sh.bcastF = best;
      sh.bcastI = bestI;
    }
  }
  __syncthreads();
  best = sh.bcastF;
  bestI = sh.bcastI;
  if (a.greedy[r]) {
    if (tid == 0) out[r] = bestI < vocab ? bestI : 0;
    return;
  }
  const float invT = 1.f / a.temperature[r];
  const float mx = best * invT;
  auto y = [&](int i) { return value(i) * invT; };
  // Top-k: the largest key with at least k tokens at or above it.
  uint32_t tau = 0;
  const int k = a.topK[r];
  if (k > 0 && k < vocab) {
    uint32_t ans = 0;
    for (int bit = 31; bit >= 0; bit--) {
      uint32_t cand = ans | (1u << bit);
      int c = 0;
      for (int i = tid; i < vocab; i += kThreads) c += orderedKey(y(i)) >= cand;
      if (blockSumI(c, sh) >= k) ans = cand;
    }
    tau = ans;
  }
  float total = 0.f;
  for (int i = tid; i < vocab; i += kThreads) {
    float v = y(i);
    if (orderedKey(v) >= tau) total += __expf(v - mx);
  }
  total = blockSumF(total, sh);
  const float p = a.topP[r];
  if (p < 1.f) {
    // Top-p: the largest key whose kept mass still reaches p of the (top-k) total.
    uint32_t ans = 0;
    for (int bit = 31; bit >= 0; bit--) {
      uint32_t cand = ans | (1u << bit);
      uint32_t thr = cand > tau ? cand : tau;
      float s = 0.f;
      for (int i = tid; i < vocab; i += kThreads) {
        float v = y(i);
        if (orderedKey(v) >= thr) s += __expf(v - mx);
      }
      if (blockSumF(s, sh) >= p * total) ans = cand;
    }
    if (ans > tau) tau = ans;
  }
  // The draw, in index order: each thread owns a contiguous chunk; an exclusive scan of chunk masses finds the owner.
  const int per = (vocab + kThreads - 1) / kThreads;
  const int lo = tid * per, hi = min(vocab, lo + per);
  float mine = 0.f;
  for (int i = lo; i < hi; i++) {
    float v = y(i);
    if (orderedKey(v) >= tau) mine += __expf(v - mx);
  }
  chunkSum[tid] = mine;
  __syncthreads();
  if (tid == 0) {
    uint64_t n = rngCount[slot]++;
    double u = (double)(splitmix64(rngSeed[slot] ^ splitmix64(n)) >> 11) * (1.0 / 9007199254740992.0);
    float kept = 0.f;
    for (int j = 0; j < kThreads; j++) kept += chunkSum[j];
    float target = (float)u * kept;
    int pick = bestI;
    for (int j = 0; j < kThreads; j++) {
      if (target < chunkSum[j]) {
        int a0 = j * per, a1 = min(vocab, a0 + per);
        for (int i = a0; i < a1; i++) {
          float v = y(i);
          if (orderedKey(v) < tau) continue;
          target -= __expf(v - mx);
          pick = i;
          if (target < 0.f) break;
        }
        break;
      }
      target -= chunkSum[j];
    }
    out[r] = pick;
  }
}

}  // namespace

void launchSlotPrepare(const SampleArgs& a, uint8_t* seen, int vocab, uint64_t* rngSeed, uint64_t* rngCount, cudaStream_t s) {
  dim3 grid((vocab + 1023) / 1024 < 8 ? (vocab + 1023) / 1024 : 8, a.R);
  slotPrepareKernel<<<grid, 1024, 0, s>>>(a, seen, vocab, rngSeed, rngCount);
}

void launchMarkSeen(const StepArgs& a, const int* rowSlot, uint8_t* seen, int vocab, cudaStream_t s) {
  markSeenKernel<<<(a.T + 255) / 256, 256, 0, s>>>(a, rowSlot, seen, vocab);
}

void launchSample(const __half* logits, const SampleArgs& a, const uint8_t* seen, int vocab, uint64_t* rngSeed, uint64_t* rngCount,
                  int* out, cudaStream_t s) {
  sampleKernel<<<a.R, kThreads, 0, s>>>(logits, a, seen, vocab, rngSeed, rngCount, out);
}

}  // namespace llm
}  // namespace rt
