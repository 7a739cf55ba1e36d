// rtserve native CUDA engine, LLM decoder: the decoder's linear layers through cuBLASLt, Y[m, n] = X[m, k] · W[n, k]ᵀ
// (+ bias), FP16 in and out with FP32 accumulation. The descriptors are the engine's own (gemm-layer.cuh's LtDescs);
// the algorithm comes from cuBLASLt's heuristic, once per (m, n, k, bias) and kept, so CUDA-graph captures and
// uncaptured steps of the same shape run the same kernel. The bias pointer is set on the kept descriptor per call.
#pragma once
#include <map>
#include <memory>
#include <tuple>

#include "../gemm-layer.cuh"

namespace rt {
namespace llm {

class LtGemm {
 public:
  LtGemm(cublasLtHandle_t lt, void* workspace, size_t workspaceBytes) : lt_(lt), ws_(workspace), wsBytes_(workspaceBytes) {}

  void run(int64_t m, int64_t n, int64_t k, const __half* x, const __half* w, const __half* bias, __half* y, cudaStream_t s) {
    Entry& e = entry(m, n, k, bias != nullptr, bias);
    if (bias) CKLT(cublasLtMatmulDescSetAttribute(e.d->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
    const float one = 1.f, zero = 0.f;
    CKLT(cublasLtMatmul(lt_, e.d->op, &one, w, e.d->a, x, e.d->b, &zero, y, e.d->c, y, e.d->c, &e.algo, ws_, wsBytes_, s));
  }

 private:
  struct Entry {
    std::unique_ptr<LtDescs> d;
    cublasLtMatmulAlgo_t algo{};
  };

  static Json num(double v) {
    Json j;
    j.kind = Json::Num;
    j.num = v;
    return j;
  }

  Entry& entry(int64_t m, int64_t n, int64_t k, bool hasBias, const void* bias) {
    auto key = std::make_tuple(m, n, k, hasBias);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    Json spec;
    spec.kind = Json::Obj;
    spec.obj["m"] = num((double)m);
    spec.obj["n"] = num((double)n);
    spec.obj["k"] = num((double)k);
    if (hasBias) {
      Json ref;
      ref.kind = Json::Obj;
      ref.obj["off"] = num(0);
      spec.obj["b"] = ref;
    }
    GemmSpec gs(spec);
    Entry e;
    e.d.reset(new LtDescs(gs, bias));
    cublasLtMatmulPreference_t pref;
    CKLT(cublasLtMatmulPreferenceCreate(&pref));
    uint64_t wl = wsBytes_;
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wl, sizeof wl);
    cublasLtMatmulHeuristicResult_t res[1];
    int got = 0;
    cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt_, e.d->op, e.d->a, e.d->b, e.d->c, e.d->c, pref, 1, res, &got);
    cublasLtMatmulPreferenceDestroy(pref);
    if (st != CUBLAS_STATUS_SUCCESS || got < 1)
      throw std::runtime_error("cublasLt has no algorithm for the decoder GEMM m=" + std::to_string(m) + " n=" + std::to_string(n) +
                               " k=" + std::to_string(k));
    e.algo = res[0].algo;
    return cache_.emplace(key, std::move(e)).first->second;
  }

  cublasLtHandle_t lt_;
  void* ws_;
  size_t wsBytes_;
  std::map<std::tuple<int64_t, int64_t, int64_t, bool>, Entry> cache_;
};

}  // namespace llm
}  // namespace rt
