// rtserve native CUDA engine, LLM decoder: the decoder's linear layers through cuBLASLt, Y[m, n] = X[m, k] · W[n, k]ᵀ
// (+ bias), FP16 in and out with FP32 accumulation. The descriptors are the engine's own (gemm-layer.cuh's LtDescs);
// the algorithm comes from cuBLASLt's heuristic, once per (m, n, k, bias) and kept, so CUDA-graph captures and
// uncaptured steps of the same shape run the same kernel. The bias pointer is set on the kept descriptor per call.
// Skinny shapes (m <= tuneMaxM: the decode steps, where the GEMMs are weight-bandwidth bound and the heuristic's first
// pick is often not the fastest) time the heuristic's candidates on the call's own operands and keep the fastest;
// this happens on the eager run before each graph capture, never inside one.
#pragma once
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "../gemm-layer.cuh"

namespace rt {
namespace llm {

class LtGemm {
 public:
  LtGemm(cublasLtHandle_t lt, void* workspace, size_t workspaceBytes, int64_t tuneMaxM)
      : lt_(lt), ws_(workspace), wsBytes_(workspaceBytes), tuneMaxM_(tuneMaxM) {}

  void run(int64_t m, int64_t n, int64_t k, const __half* x, const __half* w, const __half* bias, __half* y, cudaStream_t s) {
    Entry& e = entry(m, n, k, bias != nullptr, bias);
    if (bias) CKLT(cublasLtMatmulDescSetAttribute(e.d->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
    if (!e.tuned) tune(e, m, x, w, y, s);
    matmul(e, e.algo, x, w, y, s);
  }

  /** Shapes timed so far and the microseconds their kept algorithm took (describe()). */
  std::string tunedJson() const {
    std::string out = "[";
    for (auto& kv : cache_) {
      if (kv.second.us <= 0) continue;
      out += (out.size() > 1 ? "," : "") + std::string("{\"m\":") + std::to_string(std::get<0>(kv.first)) + ",\"n\":" +
             std::to_string(std::get<1>(kv.first)) + ",\"k\":" + std::to_string(std::get<2>(kv.first)) + ",\"us\":" + fmt(kv.second.us) +
             ",\"candidates\":" + std::to_string(kv.second.candidates.size()) + "}";
    }
    return out + "]";
  }

 private:
  struct Entry {
    std::unique_ptr<LtDescs> d;
    cublasLtMatmulAlgo_t algo{};
    std::vector<cublasLtMatmulAlgo_t> candidates;
    bool tuned = false;
    double us = 0;
  };

  void matmul(Entry& e, const cublasLtMatmulAlgo_t& algo, const __half* x, const __half* w, __half* y, cudaStream_t s) {
    const float one = 1.f, zero = 0.f;
    CKLT(cublasLtMatmul(lt_, e.d->op, &one, w, e.d->a, x, e.d->b, &zero, y, e.d->c, y, e.d->c, &algo, ws_, wsBytes_, s));
  }

  /** Times each candidate (3 warm, 10 timed runs) and keeps the fastest; not while the stream is being captured. */
  void tune(Entry& e, int64_t m, const __half* x, const __half* w, __half* y, cudaStream_t s) {
    cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    CK(cudaStreamIsCapturing(s, &cs));
    if (cs != cudaStreamCaptureStatusNone) return;
    e.tuned = true;
    if (m > tuneMaxM_ || e.candidates.size() < 2) return;
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    float best = 1e30f;
    for (auto& algo : e.candidates) {
      for (int i = 0; i < 3; i++) matmul(e, algo, x, w, y, s);
      CK(cudaEventRecord(a, s));
      for (int i = 0; i < 10; i++) matmul(e, algo, x, w, y, s);
      CK(cudaEventRecord(b, s));
      CK(cudaEventSynchronize(b));
      float ms = 0.f;
      CK(cudaEventElapsedTime(&ms, a, b));
      if (ms < best) {
        best = ms;
        e.algo = algo;
      }
    }
    e.us = best * 100.0;  // 10 runs: ms * 1000 / 10
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }

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
    cublasLtMatmulHeuristicResult_t res[8];
    int got = 0;
    cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt_, e.d->op, e.d->a, e.d->b, e.d->c, e.d->c, pref, 8, res, &got);
    cublasLtMatmulPreferenceDestroy(pref);
    if (st != CUBLAS_STATUS_SUCCESS || got < 1)
      throw std::runtime_error("cublasLt has no algorithm for the decoder GEMM m=" + std::to_string(m) + " n=" + std::to_string(n) +
                               " k=" + std::to_string(k));
    e.algo = res[0].algo;
    for (int i = 0; i < got; i++)
      if (res[i].state == CUBLAS_STATUS_SUCCESS && res[i].workspaceSize <= wsBytes_) e.candidates.push_back(res[i].algo);
    return cache_.emplace(key, std::move(e)).first->second;
  }

  cublasLtHandle_t lt_;
  void* ws_;
  size_t wsBytes_;
  int64_t tuneMaxM_;
  std::map<std::tuple<int64_t, int64_t, int64_t, bool>, Entry> cache_;
};

}  // namespace llm
}  // namespace rt
