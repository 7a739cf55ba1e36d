// rtserve native CUDA engine, LLM decoder: the forward pass of one step, the step's host side (one H2D copy of the
// packed inputs, one D2H copy of the sampled ids) and the CUDA graphs of decode-only steps, one per batch bucket.
//
// Step input layout (int32 words; R' rows and T' tokens: the step's own counts, or the bucket's for a graph):
//   rows region, 10 arrays of maxRows: slot, fresh, last token index, greedy, topK, seedLo, seedHi, temperature (f32),
//   topP (f32), penalty (f32); then tok[T'], pos[T'], tokRow[T']; then the block table [R', blocksPerSeq].
// A graph bucket's padded rows use the spare sampling slot (maxRows) and the spare KV block (totalBlocks).
#include <cmath>

#include "llm-model.cuh"

namespace rt {
namespace llm {

namespace {
enum RowArray { RA_SLOT = 0, RA_FRESH, RA_LAST, RA_GREEDY, RA_TOPK, RA_SEEDLO, RA_SEEDHI, RA_TEMP, RA_TOPP, RA_PEN };
constexpr int kRowMeta = 10;  // ints per row in the step's meta array
}  // namespace

int LlmModel::splitsFor(int T, int maxCtx) const {
  if (T > cfg_.maxRows) return 1;
  int want = (2 * sms_ + T * cfg_.kvHeads - 1) / (T * cfg_.kvHeads);
  int byLen = (maxCtx + 63) / 64;
  int s = std::min(std::min(want, byLen), maxSplits_);
  return s < 1 ? 1 : s;
}

void LlmModel::enqueue(int T, int R, int splits) {
  const LlmConfig& c = cfg_;
  cudaStream_t s = h_->stream;
  int32_t* d = static_cast<int32_t*>(input_->p);
  const int Rm = c.maxRows;
  const size_t tokOff = lay_.rowInts;
  StepArgs a{d + tokOff, d + tokOff + T, d + tokOff + 2 * T, d + tokOff + 3 * T, c.blocksPerSeq(), T, R};
  SampleArgs sa{d + RA_SLOT * Rm, d + RA_FRESH * Rm, d + RA_GREEDY * Rm, d + RA_TOPK * Rm, d + RA_SEEDLO * Rm, d + RA_SEEDHI * Rm,
                reinterpret_cast<float*>(d + RA_TEMP * Rm), reinterpret_cast<float*>(d + RA_TOPP * Rm),
                reinterpret_cast<float*>(d + RA_PEN * Rm), R};
  mark(nullptr);
  launchSlotPrepare(sa, seen_, c.vocab, rngSeed_, rngCount_, s);
  launchMarkSeen(a, sa.slot, seen_, c.vocab, s);
  launchEmbed(a.tok, a.pos, w("embed"), c.gpt2 ? w("pos") : nullptr, hidden_, T, c.hidden, s);
  mark("embed+slots");
  const int D = c.headDim;
  const float scale = 1.f / std::sqrt((float)D);
  const float* inv = c.invFreq.empty() ? nullptr : invFreq_;
  for (int l = 0; l < c.layers; l++) {
    const LayerW& x = layerW_[l];
    __half* kvl = static_cast<__half*>(kv_->p) + (size_t)l * layerElems_;
    launchAddNorm(hidden_, l == 0 ? nullptr : tmp_, nullptr, x.ln1w, x.ln1b, normed_, T, c.hidden, c.eps, c.rms, s);
    mark("norm");
    gemm_->run(T, c.qkvRows(), c.hidden, normed_, x.qkvw, x.qkvb, qkv_, s);
    mark("gemm qkv");
    launchRopeKv(qkv_, a, inv, kvl, c.heads, c.kvHeads, D, c.blockTokens, s);
    mark("rope+kv write");
    launchAttention(qkv_, a, kvl, attn_, partial_, c.heads, c.kvHeads, D, c.blockTokens, splits, scale, s);
    mark("attention");
    gemm_->run(T, c.hidden, (int64_t)c.heads * D, attn_, x.ow, x.ob, tmp_, s);
    mark("gemm o");
    launchAddNorm(hidden_, tmp_, nullptr, x.ln2w, x.ln2b, normed_, T, c.hidden, c.eps, c.rms, s);
    mark("norm");
    gemm_->run(T, c.upRows(), c.hidden, normed_, x.upw, x.upb, mlp_, s);
    mark("gemm gate/up");
    const __half* down = mlp_;
    if (c.gpt2) {
      launchGelu(mlp_, (int64_t)T * c.inter, c.act, s);
    } else {
      launchSiluMul(mlp_, act_, T, c.inter, s);
      down = act_;
    }
    mark("activation");
    gemm_->run(T, c.hidden, c.inter, down, x.downw, x.downb, tmp_, s);
    mark("gemm down");
  }
  launchAddNorm(hidden_, tmp_, d + RA_LAST * Rm, w("norm.w"), wOpt("norm.b"), normed_, R, c.hidden, c.eps, c.rms, s);
  mark("norm");
  gemm_->run(R, c.vocab, c.hidden, normed_, c.tied ? w("embed") : w("lm_head"), nullptr, logits_, s);
  mark("gemm lm head");
  launchSample(logits_, sa, seen_, c.vocab, rngSeed_, rngCount_, outTok_, s);
  mark("sampling");
  CK(cudaGetLastError());
}

void LlmModel::mark(const char* phase) {
  if (!profiling_) return;
  if (marks_.size() >= eventPool_.size()) {
    cudaEvent_t e;
    CK(cudaEventCreate(&e));
    eventPool_.push_back(e);
  }
  cudaEvent_t e = eventPool_[marks_.size()];
  CK(cudaEventRecord(e, h_->stream));
  marks_.push_back({phase ? phase : "", e});
}

/** After the profiled step's sync: each phase's time is from the mark before it to its own. */
void LlmModel::collectProfile() {
  for (size_t i = 1; i < marks_.size(); i++) {
    float ms = 0.f;
    CK(cudaEventElapsedTime(&ms, marks_[i - 1].second, marks_[i].second));
    profileMs_[marks_[i].first] += ms;
  }
  marks_.clear();
  profiled_++;
}

void LlmModel::profile(int steps) {
  std::lock_guard<std::mutex> lock(mu_);
  profileLeft_ = steps;
  profileMs_.clear();
  profiled_ = 0;
}

/** Rows from..to-1 of a step with T' = T tokens and R' = R rows: greedy, one token at position 0 of the spare block. */
void LlmModel::fillPadRows(int from, int to, int T, int R) {
  const int Rm = cfg_.maxRows;
  int32_t* p = pinned_;
  float* f = reinterpret_cast<float*>(pinned_);
  const size_t tokOff = lay_.rowInts, tableOff = tokOff + 3 * (size_t)T;
  for (int r = from; r < to; r++) {
    p[RA_SLOT * Rm + r] = Rm;
    p[RA_FRESH * Rm + r] = 0;
    p[RA_LAST * Rm + r] = r;
    p[RA_GREEDY * Rm + r] = 1;
    p[RA_TOPK * Rm + r] = 0;
    p[RA_SEEDLO * Rm + r] = 0;
    p[RA_SEEDHI * Rm + r] = 0;
    f[RA_TEMP * Rm + r] = 1.f;
    f[RA_TOPP * Rm + r] = 1.f;
    f[RA_PEN * Rm + r] = 1.f;
    p[tokOff + r] = 0;
    p[tokOff + T + r] = 0;
    p[tokOff + 2 * T + r] = r;
    p[tableOff + (size_t)r * cfg_.blocksPerSeq()] = (int32_t)totalBlocks_;
  }
  (void)R;
}

void LlmModel::captureGraphs() {
  cudaStream_t s = h_->stream;
  std::vector<int> buckets;
  for (int b = 1; b < cfg_.maxRows; b *= 2) buckets.push_back(b);
  buckets.push_back(cfg_.maxRows);
  for (int b : buckets) {
    // One eager run first, on padded rows only (loads the kernels, picks the GEMM algorithms), then the capture.
    fillPadRows(0, b, b, b);
    size_t words = lay_.rowInts + 3 * (size_t)b + (size_t)b * cfg_.blocksPerSeq();
    CK(cudaMemcpyAsync(input_->p, pinned_, words * 4, cudaMemcpyHostToDevice, s));
    int splits = splitsFor(b, cfg_.maxContext);
    enqueue(b, b, splits);
    CK(cudaStreamSynchronize(s));
    cudaGraph_t g = nullptr;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue(b, b, splits);
    } catch (...) {
      cudaStreamEndCapture(s, &g);
      if (g) cudaGraphDestroy(g);
      throw;
    }
    CK(cudaStreamEndCapture(s, &g));
    Graph gr;
    gr.rows = b;
    cudaError_t e = cudaGraphInstantiate(&gr.exec, g, 0);
    cudaGraphDestroy(g);
    CK(e);
    graphs_.push_back(gr);
  }
}

void LlmModel::step(const int32_t* meta, size_t metaLen, const float* params, size_t paramsLen, int32_t* out, size_t outLen) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!finished_) throw std::runtime_error("llm step: the model is not finished loading");
  const LlmConfig& c = cfg_;
  auto bad = [](const std::string& m) { throw std::runtime_error("llm step: " + m); };
  if (metaLen < 2) bad("meta too short");
  const int R = meta[0], T = meta[1];
  if (R < 1 || R > c.maxRows || T < R || T > c.maxStepTokens) bad("rows or tokens beyond the geometry");
  if (metaLen < 2 + (size_t)R * kRowMeta + T || paramsLen < (size_t)R * 3 || outLen < (size_t)R) bad("arrays too short");
  const int32_t* rows = meta + 2;
  const int32_t* toks = rows + (size_t)R * kRowMeta;
  bool decodeOnly = true;
  int maxCtx = 1;
  for (int r = 0; r < R; r++) {
    decodeOnly = decodeOnly && rows[r * kRowMeta + 3] == 1;
    maxCtx = std::max(maxCtx, rows[r * kRowMeta + 2] + rows[r * kRowMeta + 3]);
  }
  const Graph* graph = nullptr;
  profiling_ = profileLeft_ > 0;
  if (profiling_) profileLeft_--;
  marks_.clear();
  if (decodeOnly && !profiling_)
    for (auto& g : graphs_)
      if (g.rows >= R) {
        graph = &g;
        break;
      }
  const int Tp = graph ? graph->rows : T, Rp = graph ? graph->rows : R;
  const int Rm = c.maxRows, MB = c.blocksPerSeq();
  int32_t* p = pinned_;
  float* f = reinterpret_cast<float*>(pinned_);
  const size_t tokOff = lay_.rowInts, tableOff = tokOff + 3 * (size_t)Tp;
  const int32_t* blocks = toks + T;
  const int32_t* metaEnd = meta + metaLen;
  int tok = 0;
  for (int r = 0; r < R; r++) {
    const int32_t* m = rows + r * kRowMeta;
    const int slot = m[0], start = m[2], len = m[3], nBlocks = m[9];
    if (slot < 0 || slot >= Rm || len < 1 || start < 0 || start + len > c.maxContext || nBlocks > MB ||
        (int64_t)nBlocks * c.blockTokens < start + len || blocks + nBlocks > metaEnd)
      bad("row " + std::to_string(r) + " breaks the geometry");
    p[RA_SLOT * Rm + r] = slot;
    p[RA_FRESH * Rm + r] = m[1];
    p[RA_LAST * Rm + r] = tok + len - 1;
    p[RA_GREEDY * Rm + r] = m[5];
    p[RA_TOPK * Rm + r] = m[6];
    p[RA_SEEDLO * Rm + r] = m[7];
    p[RA_SEEDHI * Rm + r] = m[8];
    f[RA_TEMP * Rm + r] = params[r * 3];
    f[RA_TOPP * Rm + r] = params[r * 3 + 1];
    f[RA_PEN * Rm + r] = params[r * 3 + 2];
    if (tok + len > T) bad("row lengths exceed the step's token count");
    for (int i = 0; i < len; i++, tok++) {
      int id = toks[tok];
      if (id < 0 || id >= c.vocab) bad("token id out of the vocabulary");
      p[tokOff + tok] = id;
      p[tokOff + Tp + tok] = start + i;
      p[tokOff + 2 * Tp + tok] = r;
    }
    for (int b = 0; b < nBlocks; b++) {
      if (blocks[b] < 0 || blocks[b] >= totalBlocks_) bad("block id out of range");
      p[tableOff + (size_t)r * MB + b] = blocks[b];
    }
    blocks += nBlocks;
  }
  if (tok != T) bad("row lengths do not add up to the step's token count");
  if (graph) fillPadRows(R, Rp, Tp, Rp);
  CK(cudaSetDevice(device_));
  cudaStream_t s = h_->stream;
  const size_t words = tableOff + (size_t)Rp * MB;
  CK(cudaMemcpyAsync(input_->p, pinned_, words * 4, cudaMemcpyHostToDevice, s));
  if (graph) {
    CK(cudaGraphLaunch(graph->exec, s));
    graphSteps_++;
  } else {
    enqueue(Tp, Rp, splitsFor(Tp, maxCtx));
  }
  CK(cudaMemcpyAsync(pinnedOut_, outTok_, (size_t)R * 4, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  if (profiling_) collectProfile();
  profiling_ = false;
  steps_++;
  for (int r = 0; r < R; r++) out[r] = rows[r * kRowMeta + 4] ? pinnedOut_[r] : -1;
}

}  // namespace llm
}  // namespace rt
