// rtserve native CUDA engine: the convolution layer and its tactics (cuDNN fused, cuDNN conv + our epilogue,
// cuDNN graph, our direct kernel).
#pragma once
#include "cudnn-graph.cuh"
#include "cudnn-legacy.cuh"

namespace rt {

enum ConvImpl { CONV_FUSED = 0, CONV_EPI = 1, CONV_GRAPH = 2, CONV_DIRECT = 3 };

struct ConvLayer : Layer {
  ConvSpec s;
  int impl = CONV_DIRECT;
  int algo = 0;
  int64_t graphIdx = -1, graphEngine = -1;
  size_t ws = 0;
  std::unique_ptr<LegacyDescs> legacy;
  std::unique_ptr<ConvGraph> graph;
  BDp plan, varPack;
  std::string tacticStr;

  ConvLayer(const Json& j, const Json& tactic, cudnnHandle_t h, size_t wsLimit) : s(j) {
    std::string t = tactic.s("impl", "direct");
    if (t == "cudnn-fused" || t == "cudnn-conv") {
      impl = t == "cudnn-fused" ? CONV_FUSED : CONV_EPI;
      algo = (int)tactic.i64("algo", 0);
      if (impl == CONV_FUSED && !(s.act.kind == ACT_RELU || s.act.kind == ACT_NONE))
        throw std::runtime_error("cudnn-fused supports relu or no activation only");
      if (impl == CONV_FUSED && s.act.kind == ACT_NONE && algo != CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM)
        throw std::runtime_error("cudnn-fused without activation needs IMPLICIT_PRECOMP_GEMM");
      legacy.reset(new LegacyDescs(s, impl == CONV_FUSED && s.act.kind == ACT_RELU));
      CKDNN(cudnnGetConvolutionForwardWorkspaceSize(h, legacy->x, legacy->w, legacy->conv, legacy->y, (cudnnConvolutionFwdAlgo_t)algo, &ws));
      tacticStr = "{\"impl\":\"" + t + "\",\"algo\":" + std::to_string(algo) + "}";
    } else if (t == "cudnn-graph") {
      impl = CONV_GRAPH;
      graph.reset(new ConvGraph(h, s));
      int64_t idx = tactic.i64("idx", 0), eng = tactic.i64("engine", -1);
      // Prefer the recorded heuristic rank when it still names the same engine; else look the engine up.
      int64_t pick = -1;
      if (idx >= 0 && idx < (int64_t)graph->configs.size()) {
        int64_t gi; bool rc;
        ConvGraph::engineInfo(graph->configs[idx], &gi, &rc);
        if (eng < 0 || gi == eng) pick = idx;
      }
      for (int64_t i = 0; pick < 0 && i < (int64_t)graph->configs.size(); i++) {
        int64_t gi; bool rc;
        ConvGraph::engineInfo(graph->configs[i], &gi, &rc);
        if (gi == eng) pick = i;
      }
      if (pick < 0) throw std::runtime_error("cudnn graph: engine " + std::to_string(eng) + " is not offered for this layer here");
      int64_t wsb = 0;
      plan = ConvGraph::makePlan(h, graph->configs[pick], &wsb);
      ws = (size_t)wsb;
      graphIdx = pick;
      graphEngine = eng;
      tacticStr = "{\"impl\":\"cudnn-graph\",\"idx\":" + std::to_string(pick) + ",\"engine\":" + std::to_string(eng) + "}";
    } else if (t == "direct") {
      impl = CONV_DIRECT;
      tacticStr = "{\"impl\":\"direct\"}";
    } else {
      throw std::runtime_error("conv: unknown tactic '" + t + "'");
    }
    if (ws > wsLimit) throw std::runtime_error("conv tactic needs " + std::to_string(ws) + " bytes of workspace, over the limit");
  }
  size_t workspace() const override { return ws; }
  void bind(const Ctx& c) override {
    if (impl != CONV_GRAPH) return;
    varPack = std::make_shared<BD>(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    std::vector<int64_t> uids = {UID_X, UID_W, UID_B, UID_Y};
    std::vector<void*> ptrs = {c.p<void>(s.x), c.p<void>(s.w), c.p<void>(s.b), c.p<void>(s.y)};
    if (s.z.valid) {
      uids.push_back(UID_Z);
      ptrs.push_back(c.p<void>(s.z));
    }
    void* wsp = c.workspace;
    setAttr(varPack->d, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, (int64_t)uids.size(), uids.data(), "variant uids");
    setAttr(varPack->d, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, (int64_t)ptrs.size(), ptrs.data(), "variant pointers");
    setAttr(varPack->d, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &wsp, "variant workspace");
    finalize(varPack->d, "variant pack");
  }
  void run(const Ctx& c) override {
    const float one = 1.f, zero = 0.f;
    switch (impl) {
      case CONV_FUSED: {
        float alpha2 = s.z.valid ? 1.f : 0.f;
        void* z = s.z.valid ? c.p<void>(s.z) : c.p<void>(s.y);
        CKDNN(cudnnConvolutionBiasActivationForward(c.dnn, &one, legacy->x, c.p<void>(s.x), legacy->w, c.p<void>(s.w), legacy->conv,
                                                    (cudnnConvolutionFwdAlgo_t)algo, c.workspace, ws, &alpha2, legacy->y, z, legacy->b,
                                                    c.p<void>(s.b), legacy->act, legacy->y, c.p<void>(s.y)));
        break;
      }
      case CONV_EPI:
        CKDNN(cudnnConvolutionForward(c.dnn, &one, legacy->x, c.p<void>(s.x), legacy->w, c.p<void>(s.w), legacy->conv,
                                      (cudnnConvolutionFwdAlgo_t)algo, c.workspace, ws, &zero, legacy->y, c.p<void>(s.y)));
        launchChannelAffine(c.p(s.y), c.p(s.y), nullptr, c.p(s.b), c.p(s.z), s.outElems(), s.k, 1, s.act, c.stream);
        break;
      case CONV_GRAPH:
        CKDNN(cudnnBackendExecute(c.dnn, plan->d, varPack->d));
        break;
      default:
        launchDirectConv(c.p(s.x), c.p(s.w), c.p(s.b), c.p(s.z), c.p(s.y), s.n, s.c, s.h, s.wd, s.k, (int)s.r, (int)s.s, s.oh, s.ow,
                         (int)s.pt, (int)s.pl, (int)s.sh, (int)s.sw, (int)s.dh, (int)s.dw, (int)s.groups, s.act, c.stream);
    }
  }
  std::string tacticJson() const override { return tacticStr; }

  /** Candidate tactics for this layer on this device. */
  static std::vector<std::string> candidates(cudnnHandle_t h, const ConvSpec& s, size_t wsLimit, int graphMax, std::vector<std::string>* notes) {
    std::vector<std::string> out;
    try {
      LegacyDescs d(s, false);
      cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
      int got = 0;
      CKDNN(cudnnGetConvolutionForwardAlgorithm_v7(h, d.x, d.w, d.conv, d.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
      for (int i = 0; i < got; i++) {
        if (perf[i].status != CUDNN_STATUS_SUCCESS || perf[i].memory > wsLimit) continue;
        int a = (int)perf[i].algo;
        if (a == CUDNN_CONVOLUTION_FWD_ALGO_FFT || a == CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING || a == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD ||
            a == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED)
          continue;  // lower-precision transforms (see engineInfo)
        bool fusedOk = s.act.kind == ACT_RELU || (s.act.kind == ACT_NONE && a == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
        if (fusedOk) out.push_back("{\"impl\":\"cudnn-fused\",\"algo\":" + std::to_string(a) + "}");
        out.push_back("{\"impl\":\"cudnn-conv\",\"algo\":" + std::to_string(a) + "}");
      }
    } catch (const std::exception& e) {
      notes->push_back(std::string("legacy: ") + e.what());
    }
    if (graphMax > 0) {
      try {
        ConvGraph g(h, s);
        int taken = 0;
        for (size_t i = 0; i < g.configs.size() && taken < graphMax; i++) {
          int64_t gi; bool rc, reduced;
          ConvGraph::engineInfo(g.configs[i], &gi, &rc, &reduced);
          if (reduced) {
            notes->push_back("graph engine " + std::to_string(gi) + " skipped: reduced-precision numerics");
            continue;
          }
          out.push_back("{\"impl\":\"cudnn-graph\",\"idx\":" + std::to_string(i) + ",\"engine\":" + std::to_string(gi) +
                        ",\"nvrtc\":" + (rc ? "true" : "false") + "}");
          taken++;
        }
      } catch (const std::exception& e) {
        notes->push_back(std::string("graph: ") + e.what());
      }
    }
    out.push_back("{\"impl\":\"direct\"}");
    return out;
  }
};

}  // namespace rt
