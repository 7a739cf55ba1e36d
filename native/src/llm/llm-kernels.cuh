// rtserve native CUDA engine, LLM decoder (issue #31): the decoder's own kernels. FP16 storage, FP32 arithmetic
// where transformers computes in FP32 (norm statistics, softmax, RoPE angles), FP16 rounding where it rounds.
//
// KV cache layout, one allocation for all layers: [layer][block][K|V][kvHead][blockTokens][headDim] (FP16). A token
// at position p of a row lives in block table[row * maxBlocks + p / blockTokens] at offset p % blockTokens.
#pragma once
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace rt {
namespace llm {

/** Checkpoint dtypes as uploaded (safetensors' F16, BF16, F32). */
enum Dtype : int { DT_F16 = 0, DT_BF16 = 1, DT_F32 = 2 };
/** MLP activations (hf-config.ts MlpActivation; gelu_new is transformers' NewGELUActivation, op by op in FP16). */
enum MlpAct : int { MLP_SILU = 0, MLP_GELU_ERF = 1, MLP_GELU_NEW = 2, MLP_GELU_TANH = 3 };

/** Where one step's per-token and per-row inputs live on the device (all int32 unless said). */
struct StepArgs {
  const int* tok;      // [T]
  const int* pos;      // [T]
  const int* tokRow;   // [T] the row each token belongs to
  const int* table;    // [R, maxBlocks]
  int maxBlocks;
  int T;
  int R;
};

/** src (rows x cols, row-major, dtype) → dst FP16: as is, or transposed into [cols, rows] (GPT-2's Conv1D weights). */
void launchConvert(const void* src, int dtype, __half* dst, int64_t rows, int64_t cols, bool transpose, cudaStream_t s);
/** out[t] = wte[tok[t]] (+ wpe[pos[t]] when wpe is given: GPT-2's learned positions, added in FP16). */
void launchEmbed(const int* tok, const int* pos, const __half* wte, const __half* wpe, __half* out, int T, int hidden, cudaStream_t s);
/**
 * Residual add fused with the norm: for out row i, src = gather ? gather[i] : i; when delta is given,
 * hidden[src] += delta[src] (FP16, written back); out[i] = norm(hidden[src]) · w (+ b). RMSNorm as transformers'
 * LlamaRMSNorm (FP32 statistics, normalized value rounded to FP16, then times the FP16 weight); LayerNorm in FP32,
 * rounded once.
 */
void launchAddNorm(__half* hidden, const __half* delta, const int* gather, const __half* w, const __half* b, __half* out, int rows,
                   int hidden_, float eps, bool rms, cudaStream_t s);
/**
 * qkv rows are [q (heads*D) | k (kvHeads*D) | v (kvHeads*D)]. Applies RoPE (rotate_half convention; invFreq null: none)
 * to q in place and to k, then writes k and v into the layer's KV blocks at each token's position.
 */
void launchRopeKv(__half* qkv, const StepArgs& a, const float* invFreq, __half* kvLayer, int heads, int kvHeads, int D, int bt,
                  cudaStream_t s);
/**
 * Causal attention of every token's query over its row's cached K/V (positions 0 .. pos[t]), grouped-query: one CTA per
 * (token, kvHead, split) serves the kvHead's query heads. splits > 1: flash-decoding (partials, then a combine);
 * `partial` holds T * heads * splits * (D + 2) floats. out is [T, heads*D].
 */
void launchAttention(const __half* qkv, const StepArgs& a, const __half* kvLayer, __half* out, float* partial, int heads, int kvHeads,
                     int D, int bt, int splits, float scale, cudaStream_t s);
/** gu rows [gate (I) | up (I)] → out [T, I] = silu(gate) · up (each op rounded to FP16, as torch does). */
void launchSiluMul(const __half* gu, __half* out, int T, int I, cudaStream_t s);
/** x = gelu(x) in place (erf, tanh, or NewGELU op by op). */
void launchGelu(__half* x, int64_t count, int act, cudaStream_t s);

/** Per-row sampling inputs on the device. */
struct SampleArgs {
  const int* slot;
  const int* fresh;
  const int* greedy;
  const int* topK;
  const int* seedLo;
  const int* seedHi;
  const float* temperature;
  const float* topP;
  const float* penalty;
  int R;
};
/** Slots of fresh rows: seen-token map cleared, random state seeded. */
void launchSlotPrepare(const SampleArgs& a, uint8_t* seen, int vocab, uint64_t* rngSeed, uint64_t* rngCount, cudaStream_t s);
/** Marks every token of the step as seen by its row's slot (the repetition penalty's history). */
void launchMarkSeen(const StepArgs& a, const int* rowSlot, uint8_t* seen, int vocab, cudaStream_t s);
/** One token per row from FP16 logits [R, vocab]: penalty, then argmax (lowest index on ties) or a seeded draw. */
void launchSample(const __half* logits, const SampleArgs& a, const uint8_t* seen, int vocab, uint64_t* rngSeed, uint64_t* rngCount,
                  int* out, cudaStream_t s);

}  // namespace llm
}  // namespace rt
