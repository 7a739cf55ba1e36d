// rtserve native CUDA engine, LLM decoder: loading (config, weight slots, uploads) and the memory the decoder keeps
// (activations for maxStepTokens, KV blocks from the free memory left, sampling state, the step buffers). The
// forward pass, steps and graphs are in llm-forward.cu.
#include "llm-model.cuh"

namespace rt {
namespace llm {

LlmConfig::LlmConfig(const std::string& text) {
  Json j = parseJson(text);
  gpt2 = j.s("family") == "gpt2";
  vocab = (int)j.i64("vocab");
  hidden = (int)j.i64("hidden");
  layers = (int)j.i64("layers");
  heads = (int)j.i64("heads");
  kvHeads = (int)j.i64("kvHeads");
  headDim = (int)j.i64("headDim");
  inter = (int)j.i64("inter");
  maxPositions = (int)j.i64("maxPositions");
  rms = j.s("norm", "rms") == "rms";
  eps = (float)j.f64("eps", 1e-6);
  act = (int)j.i64("act", MLP_SILU);
  qkvBias = j.i64("qkvBias", 0) != 0;
  oBias = j.i64("oBias", 0) != 0;
  mlpBias = j.i64("mlpBias", 0) != 0;
  tied = j.i64("tied", 0) != 0;
  for (auto& v : j["invFreq"].arr) invFreq.push_back((float)v.num);
  blockTokens = (int)j.i64("blockTokens", 16);
  maxRows = (int)j.i64("maxRows", 64);
  maxStepTokens = (int)j.i64("maxStepTokens", 2048);
  maxContext = (int)j.i64("maxContext", 4096);
  kvFraction = j.f64("kvFraction", 0.9);
  maxBlocks = j.i64("maxBlocks", 0);
  graphs = j.i64("graphs", 1) != 0;
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw std::runtime_error("llm config: " + what);
  };
  need(vocab > 0 && hidden > 0 && layers > 0 && heads > 0 && kvHeads > 0 && inter > 0, "sizes must be positive");
  need(heads % kvHeads == 0 && heads / kvHeads <= 8, "heads must be a multiple of kvHeads, at most 8 query heads per KV head");
  need(headDim % 8 == 0 && headDim <= 256 && (heads / kvHeads) * headDim <= 1024, "headDim must be a multiple of 8, at most 256");
  need(invFreq.empty() || (int)invFreq.size() == headDim / 2, "invFreq must hold headDim / 2 frequencies");
  need(gpt2 ? act != MLP_SILU : act == MLP_SILU, "the MLP activation does not fit the family");
  need(blockTokens > 0 && maxRows > 0 && maxStepTokens >= maxRows && maxContext > 0, "geometry must be positive, maxStepTokens >= maxRows");
  need(!gpt2 || maxContext <= maxPositions, "maxContext beyond GPT-2's learned positions");
  need(kvFraction > 0 && kvFraction < 1, "kvFraction must be in (0, 1)");
}

void LlmModel::layoutSlots() {
  const LlmConfig& c = cfg_;
  size_t off = 0;
  auto add = [&](const std::string& name, int64_t elems) {
    slots_[name] = Slot{off, elems};
    off += ((size_t)elems * 2 + 255) / 256 * 256;
  };
  add("embed", (int64_t)c.vocab * c.hidden);
  if (c.gpt2) add("pos", (int64_t)c.maxPositions * c.hidden);
  for (int l = 0; l < c.layers; l++) {
    std::string L = "L" + std::to_string(l) + ".";
    add(L + "ln1.w", c.hidden);
    if (!c.rms) add(L + "ln1.b", c.hidden);
    add(L + "qkv.w", (int64_t)c.qkvRows() * c.hidden);
    if (c.qkvBias) add(L + "qkv.b", c.qkvRows());
    add(L + "o.w", (int64_t)c.hidden * c.heads * c.headDim);
    if (c.oBias) add(L + "o.b", c.hidden);
    add(L + "ln2.w", c.hidden);
    if (!c.rms) add(L + "ln2.b", c.hidden);
    add(L + "up.w", (int64_t)c.upRows() * c.hidden);
    if (c.mlpBias) add(L + "up.b", c.upRows());
    add(L + "down.w", (int64_t)c.hidden * c.inter);
    if (c.mlpBias) add(L + "down.b", c.hidden);
  }
  add("norm.w", c.hidden);
  if (!c.rms) add("norm.b", c.hidden);
  if (!c.tied) add("lm_head", (int64_t)c.vocab * c.hidden);
  weightBytes_ = off;
}

LlmModel::LlmModel(const std::string& configJson, int device) : cfg_(configJson), device_(device) {
  CK(cudaSetDevice(device_));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, device_));
  sms_ = prop.multiProcessorCount;
  h_.reset(new Handles());
  layoutSlots();
  weights_.reset(new DeviceBuf(weightBytes_));
}

LlmModel::~LlmModel() {
  cudaSetDevice(device_);
  if (h_) cudaStreamSynchronize(h_->stream);
  for (auto& g : graphs_)
    if (g.exec) cudaGraphExecDestroy(g.exec);
  for (auto e : eventPool_) cudaEventDestroy(e);
  if (pinned_) cudaFreeHost(pinned_);
  if (pinnedOut_) cudaFreeHost(pinnedOut_);
}

__half* LlmModel::w(const std::string& name) const {
  auto it = slots_.find(name);
  if (it == slots_.end()) throw std::runtime_error("llm: no weight slot '" + name + "'");
  return reinterpret_cast<__half*>(static_cast<char*>(weights_->p) + it->second.off);
}

__half* LlmModel::wOpt(const std::string& name) const { return slots_.count(name) ? w(name) : nullptr; }

void LlmModel::upload(const std::string& slot, int64_t elemOffset, int dtype, int64_t rows, int64_t cols, bool transpose, const void* data,
                      size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) throw std::runtime_error("llm upload: the model is already finished");
  auto it = slots_.find(slot);
  if (it == slots_.end()) throw std::runtime_error("llm upload: no weight slot '" + slot + "'");
  const size_t es = dtype == DT_F32 ? 4 : 2;
  if (rows <= 0 || cols <= 0 || bytes != (size_t)(rows * cols) * es) throw std::runtime_error("llm upload '" + slot + "': byte count does not match rows x cols");
  if (elemOffset < 0 || elemOffset + rows * cols > it->second.elems) throw std::runtime_error("llm upload '" + slot + "': beyond the slot");
  CK(cudaSetDevice(device_));
  if (bytes > stagingBytes_) {
    staging_.reset();
    staging_.reset(new DeviceBuf(bytes));
    stagingBytes_ = bytes;
  }
  CK(cudaMemcpyAsync(staging_->p, data, bytes, cudaMemcpyHostToDevice, h_->stream));
  launchConvert(staging_->p, dtype, w(slot) + elemOffset, rows, cols, transpose, h_->stream);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(h_->stream));
  uploaded_[slot] += rows * cols;
}

std::string LlmModel::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) throw std::runtime_error("llm finish: called twice");
  for (auto& s : slots_)
    if (uploaded_[s.first] != s.second.elems)
      throw std::runtime_error("llm finish: weight slot '" + s.first + "' got " + std::to_string(uploaded_[s.first]) + " of " +
                               std::to_string(s.second.elems) + " values");
  CK(cudaSetDevice(device_));
  staging_.reset();
  const LlmConfig& c = cfg_;
  const int64_t T = c.maxStepTokens, Rm = c.maxRows;
  // Activations, carved from one allocation.
  size_t off = 0;
  std::vector<std::pair<void**, size_t>> parts;
  auto carve = [&](void** p, size_t bytes) {
    parts.push_back({p, off});
    off += (bytes + 255) / 256 * 256;
  };
  carve((void**)&hidden_, T * c.hidden * 2);
  carve((void**)&normed_, T * c.hidden * 2);
  carve((void**)&tmp_, T * c.hidden * 2);
  carve((void**)&qkv_, T * c.qkvRows() * 2);
  carve((void**)&attn_, T * c.heads * c.headDim * 2);
  carve((void**)&mlp_, T * c.upRows() * 2);
  carve((void**)&act_, T * c.inter * 2);
  carve((void**)&logits_, Rm * c.vocab * 2);
  carve((void**)&partial_, Rm * c.heads * maxSplits_ * (c.headDim + 2) * 4);
  carve((void**)&invFreq_, (c.invFreq.size() + 1) * 4);
  work_.reset(new DeviceBuf(off));
  for (auto& p : parts) *p.first = static_cast<char*>(work_->p) + p.second;
  if (!c.invFreq.empty()) CK(cudaMemcpy(invFreq_, c.invFreq.data(), c.invFreq.size() * 4, cudaMemcpyHostToDevice));
  // Sampling state: one extra slot for the padded rows of a graph bucket.
  size_t seenBytes = (size_t)(Rm + 1) * c.vocab;
  size_t sOff = (seenBytes + 255) / 256 * 256;
  state_.reset(new DeviceBuf(sOff + (Rm + 1) * 16 + Rm * 4 + 256));
  seen_ = static_cast<uint8_t*>(state_->p);
  rngSeed_ = reinterpret_cast<uint64_t*>(seen_ + sOff);
  rngCount_ = rngSeed_ + (Rm + 1);
  outTok_ = reinterpret_cast<int*>(rngCount_ + (Rm + 1));
  CK(cudaMemset(state_->p, 0, sOff + (Rm + 1) * 16));
  // Step buffers: rows region, then tokens, then the block table (offsets per step; see llm-forward.cu).
  lay_.rowInts = 10 * (size_t)Rm;
  lay_.words = lay_.rowInts + 3 * (size_t)T + (size_t)Rm * c.blocksPerSeq();
  CK(cudaHostAlloc((void**)&pinned_, lay_.words * 4, cudaHostAllocDefault));
  CK(cudaHostAlloc((void**)&pinnedOut_, Rm * 4 + 256, cudaHostAllocDefault));
  input_.reset(new DeviceBuf(lay_.words * 4));
  const size_t ltBytes = 32u << 20;
  ltWs_.reset(new DeviceBuf(ltBytes));
  gemm_.reset(new LtGemm(h_->lt, ltWs_->p, ltBytes, c.maxRows));
  // KV blocks: a fraction of what is free now, one extra block for padded rows.
  size_t freeB = 0, totalB = 0;
  CK(cudaMemGetInfo(&freeB, &totalB));
  const size_t blockElems = (size_t)2 * c.kvHeads * c.blockTokens * c.headDim;
  const size_t perBlock = blockElems * 2 * c.layers;
  int64_t blocks = (int64_t)((double)freeB * c.kvFraction / (double)perBlock) - 1;
  if (c.maxBlocks > 0 && blocks > c.maxBlocks) blocks = c.maxBlocks;
  if (blocks < 1) throw std::runtime_error("llm: no device memory left for KV blocks (" + std::to_string(freeB >> 20) + " MiB free)");
  totalBlocks_ = blocks;
  layerElems_ = blockElems * (size_t)(blocks + 1);
  kv_.reset(new DeviceBuf(layerElems_ * 2 * c.layers));
  bindLayers();
  finished_ = true;
  if (c.graphs) captureGraphs();
  return geometryJson();
}

void LlmModel::bindLayers() {
  for (int l = 0; l < cfg_.layers; l++) {
    std::string L = "L" + std::to_string(l) + ".";
    LayerW x;
    x.ln1w = w(L + "ln1.w");
    x.ln1b = wOpt(L + "ln1.b");
    x.qkvw = w(L + "qkv.w");
    x.qkvb = wOpt(L + "qkv.b");
    x.ow = w(L + "o.w");
    x.ob = wOpt(L + "o.b");
    x.ln2w = w(L + "ln2.w");
    x.ln2b = wOpt(L + "ln2.b");
    x.upw = w(L + "up.w");
    x.upb = wOpt(L + "up.b");
    x.downw = w(L + "down.w");
    x.downb = wOpt(L + "down.b");
    layerW_.push_back(x);
  }
}

std::string LlmModel::geometryJson() const {
  const LlmConfig& c = cfg_;
  std::string g = "[";
  for (size_t i = 0; i < graphs_.size(); i++) g += (i ? "," : "") + std::to_string(graphs_[i].rows);
  g += "]";
  return "{\"numLayers\":" + std::to_string(c.layers) + ",\"kvHeads\":" + std::to_string(c.kvHeads) +
         ",\"headDim\":" + std::to_string(c.headDim) + ",\"vocabSize\":" + std::to_string(c.vocab) +
         ",\"blockTokens\":" + std::to_string(c.blockTokens) + ",\"totalBlocks\":" + std::to_string(totalBlocks_) +
         ",\"maxRows\":" + std::to_string(c.maxRows) + ",\"maxStepTokens\":" + std::to_string(c.maxStepTokens) +
         ",\"maxContext\":" + std::to_string(c.maxContext) + ",\"weightBytes\":" + std::to_string(weightBytes_) +
         ",\"kvBytes\":" + std::to_string(layerElems_ * 2 * c.layers) + ",\"graphBuckets\":" + g + "}";
}

std::string LlmModel::describe() {
  std::lock_guard<std::mutex> lock(mu_);
  std::string prof = "{";
  for (auto& p : profileMs_) prof += (prof.size() > 1 ? ",\"" : "\"") + p.first + "\":" + fmt(profiled_ ? p.second / profiled_ : 0);
  prof += "}";
  return "{\"geometry\":" + geometryJson() + ",\"steps\":" + std::to_string(steps_) + ",\"graphSteps\":" + std::to_string(graphSteps_) +
         ",\"profiledSteps\":" + std::to_string(profiled_) + ",\"profileMsPerStep\":" + prof +
         ",\"gemmTuned\":" + (gemm_ ? gemm_->tunedJson() : std::string("[]")) + "}";
}

void LlmModel::copyBlocks(const int32_t* from, const int32_t* to, size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  CK(cudaSetDevice(device_));
  const size_t blockBytes = layerElems_ / (size_t)(totalBlocks_ + 1) * 2;
  for (size_t i = 0; i < n; i++) {
    if (from[i] < 0 || from[i] >= totalBlocks_ || to[i] < 0 || to[i] >= totalBlocks_) throw std::runtime_error("llm copyBlocks: block id out of range");
    for (int l = 0; l < cfg_.layers; l++) {
      char* base = static_cast<char*>(kv_->p) + (size_t)l * layerElems_ * 2;
      CK(cudaMemcpyAsync(base + (size_t)to[i] * blockBytes, base + (size_t)from[i] * blockBytes, blockBytes, cudaMemcpyDeviceToDevice, h_->stream));
    }
  }
  CK(cudaStreamSynchronize(h_->stream));
}

}  // namespace llm
}  // namespace rt
