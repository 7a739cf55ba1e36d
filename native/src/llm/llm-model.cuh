// rtserve native CUDA engine, LLM decoder (issue #31): one loaded decoder on one device. It owns the weights (FP16,
// uploaded tensor by tensor, QKV and gate/up fused at upload), the paged KV blocks (sized from free device memory), the
// per-slot sampling state, the step's pinned and device input buffers and one CUDA graph per decode batch bucket.
// The TypeScript side (src/engine/cuda/llm-engine.ts) validates steps against the geometry before they get here.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../device-resources.cuh"
#include "llm-gemm.cuh"
#include "llm-kernels.cuh"

namespace rt {
namespace llm {

struct LlmConfig {
  bool gpt2 = false;
  int vocab = 0, hidden = 0, layers = 0, heads = 0, kvHeads = 0, headDim = 0, inter = 0, maxPositions = 0;
  bool rms = true;
  float eps = 1e-6f;
  int act = MLP_SILU;
  bool qkvBias = false, oBias = false, mlpBias = false, tied = false;
  std::vector<float> invFreq;  // empty: no rotary embeddings
  int blockTokens = 16, maxRows = 64, maxStepTokens = 2048, maxContext = 4096;
  double kvFraction = 0.9;
  int64_t maxBlocks = 0;  // 0: as many as the fraction of free memory holds
  bool graphs = true;
  explicit LlmConfig(const std::string& json);
  int qkvRows() const { return (heads + 2 * kvHeads) * headDim; }
  int upRows() const { return gpt2 ? inter : 2 * inter; }
  int blocksPerSeq() const { return (maxContext + blockTokens - 1) / blockTokens; }
};

/** A weight slot: where one (possibly fused) tensor lives in the weights allocation. */
struct Slot {
  size_t off = 0;
  int64_t elems = 0;
};

/** The step's host input, one pinned buffer copied with one H2D copy (see llm-model.cu for the layout). */
struct StepLayout {
  size_t rowInts = 0, tableOff = 0, tokOff = 0, words = 0;
};

class LlmModel {
 public:
  LlmModel(const std::string& configJson, int device);
  ~LlmModel();
  /** Converts one checkpoint tensor (rows x cols of dtype, transposed when asked) into a slot at an element offset. */
  void upload(const std::string& slot, int64_t elemOffset, int dtype, int64_t rows, int64_t cols, bool transpose, const void* data,
              size_t bytes);
  /** After the last upload: activations, KV blocks, sampling state, graphs. Returns the geometry as JSON. */
  std::string finish();
  /**
   * One step. meta: [R, T, then per row slot, fresh, start, len, sample, greedy, topK, seedLo, seedHi, nBlocks,
   * then the T tokens, then each row's block ids]; params: per row temperature, topP, penalty. out: R token ids.
   */
  void step(const int32_t* meta, size_t metaLen, const float* params, size_t paramsLen, int32_t* out, size_t outLen);
  void copyBlocks(const int32_t* from, const int32_t* to, size_t n);
  /** The next `steps` steps run uncaptured with CUDA events between phases; describe() then reports ms per phase. */
  void profile(int steps);
  std::string describe();

 private:
  void enqueue(int T, int R, int splits);
  void captureGraphs();
  int splitsFor(int T, int maxCtx) const;
  __half* w(const std::string& name) const;
  __half* wOpt(const std::string& name) const;
  void layoutSlots();
  void bindLayers();
  std::string geometryJson() const;
  void fillPadRows(int from, int to, int T, int R);
  void mark(const char* phase);
  void collectProfile();

  LlmConfig cfg_;
  int device_ = 0;
  std::unique_ptr<Handles> h_;
  std::map<std::string, Slot> slots_;
  std::map<std::string, int64_t> uploaded_;
  struct LayerW {
    __half *ln1w, *ln1b, *qkvw, *qkvb, *ow, *ob, *ln2w, *ln2b, *upw, *upb, *downw, *downb;
  };
  std::vector<LayerW> layerW_;
  size_t weightBytes_ = 0;
  std::unique_ptr<DeviceBuf> weights_, staging_, work_, kv_, state_, ltWs_, input_;
  size_t stagingBytes_ = 0;
  std::unique_ptr<LtGemm> gemm_;
  int64_t totalBlocks_ = 0;
  size_t layerElems_ = 0;
  int sms_ = 132;
  // Activations (in work_).
  __half *hidden_ = nullptr, *normed_ = nullptr, *tmp_ = nullptr, *qkv_ = nullptr, *attn_ = nullptr, *mlp_ = nullptr, *act_ = nullptr,
         *logits_ = nullptr;
  float* partial_ = nullptr;
  float* invFreq_ = nullptr;
  int maxSplits_ = 16;
  // Sampling state (in state_).
  uint8_t* seen_ = nullptr;
  uint64_t *rngSeed_ = nullptr, *rngCount_ = nullptr;
  int* outTok_ = nullptr;
  // Step input: pinned host and device copies of one layout.
  StepLayout lay_;
  int32_t* pinned_ = nullptr;
  int32_t* pinnedOut_ = nullptr;
  struct Graph {
    int rows = 0;
    cudaGraphExec_t exec = nullptr;
  };
  std::vector<Graph> graphs_;
  bool finished_ = false;
  // Profiling (profile()): events recorded at phase ends during a step, summed per phase name.
  int profileLeft_ = 0, profiled_ = 0;
  bool profiling_ = false;
  std::vector<std::pair<std::string, cudaEvent_t>> marks_;
  std::vector<cudaEvent_t> eventPool_;
  std::map<std::string, double> profileMs_;
  int64_t steps_ = 0, graphSteps_ = 0;
  std::mutex mu_;
};

}  // namespace llm
}  // namespace rt
