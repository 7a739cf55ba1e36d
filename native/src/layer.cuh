// rtserve native CUDA engine: what every layer shares: error checks, operands, the run context, the Layer base.
#pragma once
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuda-check.h"
#include "engine.h"
#include "json.h"
#include "kernels.cuh"

namespace rt {


// Error checks (CK, CKDNN, CKLT): cuda-check.h.

inline std::string fmt(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}

// ---- operands -------------------------------------------------------------------------------------------------

/** An operand: an arena range (activations) or a weights range; `valid` false for an absent optional operand. */
struct Ref {
  bool valid = false;
  bool weight = false;
  int64_t off = 0;
  int64_t bytes = 0;
};

inline Ref parseRef(const Json& j) {
  Ref r;
  if (j.kind != Json::Obj) return r;
  r.valid = true;
  if (j.has("woff")) {
    r.weight = true;
    r.off = j.i64("woff");
  } else {
    r.off = j.i64("off");
  }
  r.bytes = j.i64("bytes", 0);
  return r;
}

struct Ctx {
  cudnnHandle_t dnn = nullptr;
  cublasLtHandle_t lt = nullptr;
  cudaStream_t stream = nullptr;
  char* arena = nullptr;
  char* weights = nullptr;
  void* workspace = nullptr;
  size_t workspaceBytes = 0;
  /** Diagnostics (RTCUDA_DEBUG=split-arena): every arena slot in its own allocation, by the slot's arena offset. */
  const std::map<int64_t, char*>* slots = nullptr;
  template <typename T = __half>
  T* p(const Ref& r) const {
    if (!r.valid) return nullptr;
    if (r.weight) return reinterpret_cast<T*>(weights + r.off);
    if (slots != nullptr) return reinterpret_cast<T*>(slots->at(r.off));
    return reinterpret_cast<T*>(arena + r.off);
  }
};

inline ActSpec parseAct(const Json& j) {
  ActSpec a;
  if (j.kind != Json::Obj) return a;
  a.kind = (int)j.i64("kind", 0);
  a.p0 = (float)j.f64("p0", 0);
  a.p1 = (float)j.f64("p1", 0);
  return a;
}

inline Dims6 dims6(const std::vector<int64_t>& v) {
  Dims6 d{};
  for (int i = 0; i < kMaxRank; i++) d.d[i] = i < (int)v.size() ? v[i] : 1;
  return d;
}

// ---- layers ---------------------------------------------------------------------------------------------------

struct Layer {
  std::string name, kind;
  /** Where this layer's workspace starts inside the engine's workspace (its own slice; see EngineImpl::layoutWorkspace). */
  size_t wsOffset = 0;
  virtual ~Layer() {}
  /** Workspace this layer's tactic needs (known after construction). */
  virtual size_t workspace() const { return 0; }
  /** Called once the arena, weights and workspace exist: tactics that bake pointers build them here. */
  virtual void bind(const Ctx&) {}
  virtual void run(const Ctx& c) = 0;
  virtual std::string tacticJson() const { return "null"; }
};

/** Builds one layer from its plan JSON, with its recorded tactic (or the recorded fallback where the tactic fails here). */
std::unique_ptr<Layer> makeLayer(const Json& j, cudnnHandle_t dnn, cublasLtHandle_t lt, size_t wsLimit);

}  // namespace rt
