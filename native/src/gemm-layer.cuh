// rtserve native CUDA engine: GEMM / MatMul through cuBLASLt (epilogue bias and activation), and our naive kernel.
#pragma once
#include "layer.cuh"

namespace rt {

/**
 * Y[b] (m x n, row-major) = act(X[b] (m x k) · op(B[b]) + bias + Z[b]). B is [n,k] (weights, `bNK`) or [k,n].
 * Row-major Y = X·Bᵀ is column-major Yᵀ = B·Xᵀ, so cuBLASLt sees A := B, B := X and writes an n x m matrix.
 */
struct GemmSpec {
  Ref x, w, b, z, y;
  int64_t batch = 1, m, n, k, sA = 0, sB = 0, sY = 0;
  bool bNK = true;
  ActSpec act;
  explicit GemmSpec(const Json& j) {
    x = parseRef(j["x"]); w = parseRef(j["w"]); b = parseRef(j["b"]); z = parseRef(j["z"]); y = parseRef(j["y"]);
    batch = j.i64("batch", 1); m = j.i64("m"); n = j.i64("n"); k = j.i64("k");
    sA = j.i64("strideA", m * k); sB = j.i64("strideB", 0); sY = j.i64("strideY", m * n);
    bNK = j.i64("bNK", 1) != 0;
    act = parseAct(j["act"]);
  }
};

inline std::string algoHex(const cublasLtMatmulAlgo_t& a) {
  static const char* hx = "0123456789abcdef";
  std::string s;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(&a);
  for (size_t i = 0; i < sizeof(a); i++) {
    s += hx[p[i] >> 4];
    s += hx[p[i] & 15];
  }
  return s;
}
inline cublasLtMatmulAlgo_t algoFromHex(const std::string& s) {
  cublasLtMatmulAlgo_t a;
  if (s.size() != sizeof(a) * 2) throw std::runtime_error("cublasLt algo string has the wrong length");
  unsigned char* p = reinterpret_cast<unsigned char*>(&a);
  for (size_t i = 0; i < sizeof(a); i++) p[i] = (unsigned char)strtoul(s.substr(i * 2, 2).c_str(), nullptr, 16);
  return a;
}

struct LtDescs {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  bool epilogueAct = false;  // the activation runs inside the epilogue
  LtDescs(const GemmSpec& s, const void* biasPtr) {
    CKLT(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t ta = s.bNK ? CUBLAS_OP_T : CUBLAS_OP_N, tb = CUBLAS_OP_N;
    CKLT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    CKLT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
    bool hasBias = s.b.valid;
    if (s.act.kind == ACT_RELU) { epi = hasBias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU; epilogueAct = true; }
    else if (s.act.kind == ACT_GELU_TANH) { epi = hasBias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU; epilogueAct = true; }
    else if (hasBias) epi = CUBLASLT_EPILOGUE_BIAS;
    if (s.act.kind == ACT_NONE) epilogueAct = true;
    CKLT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    if (hasBias) {
      cudaDataType_t bt = CUDA_R_16F;
      CKLT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt, sizeof bt));
      CKLT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &biasPtr, sizeof biasPtr));
    }
    // A := B operand. [n,k] row-major is k x n column-major (ld k) used transposed; [k,n] row-major is n x k (ld n).
    if (s.bNK) CKLT(cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, (uint64_t)s.k, (uint64_t)s.n, s.k));
    else CKLT(cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, (uint64_t)s.n, (uint64_t)s.k, s.n));
    CKLT(cublasLtMatrixLayoutCreate(&b, CUDA_R_16F, (uint64_t)s.k, (uint64_t)s.m, s.k));
    CKLT(cublasLtMatrixLayoutCreate(&c, CUDA_R_16F, (uint64_t)s.n, (uint64_t)s.m, s.n));
    if (s.batch > 1) {
      int32_t bc = (int32_t)s.batch;
      int64_t sa = s.sB, sb = s.sA, sc = s.sY;
      for (auto* l : {&a, &b, &c}) CKLT(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof bc));
      CKLT(cublasLtMatrixLayoutSetAttribute(a, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sa, sizeof sa));
      CKLT(cublasLtMatrixLayoutSetAttribute(b, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sb, sizeof sb));
      CKLT(cublasLtMatrixLayoutSetAttribute(c, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &sc, sizeof sc));
    }
  }
  ~LtDescs() {
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (c) cublasLtMatrixLayoutDestroy(c);
    if (op) cublasLtMatmulDescDestroy(op);
  }
};

struct GemmLayer : Layer {
  GemmSpec s;
  bool useLt = false;
  cublasLtMatmulAlgo_t algo{};
  size_t ws = 0;
  std::unique_ptr<LtDescs> d;
  std::string tacticStr;
  GemmLayer(const Json& j, const Json& tactic, cublasLtHandle_t lt, size_t wsLimit) : s(j) {
    std::string t = tactic.s("impl", "naive");
    if (t == "cublaslt") {
      useLt = true;
      algo = algoFromHex(tactic.s("algo"));
      ws = (size_t)tactic.i64("ws", 0);
      if (ws > wsLimit) throw std::runtime_error("gemm tactic workspace over the limit");
      tacticStr = "{\"impl\":\"cublaslt\",\"algo\":\"" + tactic.s("algo") + "\",\"ws\":" + std::to_string(ws) + "}";
      (void)lt;
    } else if (t == "naive") {
      tacticStr = "{\"impl\":\"naive\"}";
    } else {
      throw std::runtime_error("gemm: unknown tactic '" + t + "'");
    }
  }
  size_t workspace() const override { return ws; }
  void bind(const Ctx& c) override {
    if (!useLt) return;
    d.reset(new LtDescs(s, c.p<void>(s.b)));
    cublasLtMatmulHeuristicResult_t check{};
    cublasStatus_t st = cublasLtMatmulAlgoCheck(c.lt, d->op, d->a, d->b, d->c, d->c, &algo, &check);
    if (st != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasLt: the recorded algorithm does not fit this device/library");
    if (check.workspaceSize > c.workspaceBytes) throw std::runtime_error("cublasLt: algorithm needs more workspace than reserved");
  }
  void run(const Ctx& c) override {
    if (useLt) {
      const float one = 1.f;
      const float beta = s.z.valid ? 1.f : 0.f;
      const void* cPtr = s.z.valid ? c.p<void>(s.z) : c.p<void>(s.y);
      CKLT(cublasLtMatmul(c.lt, d->op, &one, c.p<void>(s.w), d->a, c.p<void>(s.x), d->b, &beta, cPtr, d->c, c.p<void>(s.y), d->c, &algo,
                          c.workspace, c.workspaceBytes, c.stream));
      if (!d->epilogueAct) launchUnary(c.p(s.y), c.p(s.y), s.batch * s.m * s.n, s.act, c.stream);
    } else {
      launchGemmNaive(c.p(s.x), c.p(s.w), c.p(s.b), c.p(s.z), c.p(s.y), s.batch, s.m, s.n, s.k, s.sA, s.sB, s.sY, s.bNK, s.act, c.stream);
    }
  }
  std::string tacticJson() const override { return tacticStr; }

  static std::vector<std::string> candidates(cublasLtHandle_t lt, const GemmSpec& s, const void* biasPtr, size_t wsLimit,
                                             std::vector<std::string>* notes) {
    std::vector<std::string> out;
    try {
      LtDescs d(s, biasPtr);
      cublasLtMatmulPreference_t pref;
      CKLT(cublasLtMatmulPreferenceCreate(&pref));
      uint64_t wl = wsLimit;
      cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wl, sizeof wl);
      cublasLtMatmulHeuristicResult_t res[8];
      int got = 0;
      cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt, d.op, d.a, d.b, d.c, d.c, pref, 8, res, &got);
      cublasLtMatmulPreferenceDestroy(pref);
      if (st != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("heuristic status " + std::to_string((int)st));
      for (int i = 0; i < got; i++) {
        if (res[i].state != CUBLAS_STATUS_SUCCESS) continue;
        out.push_back("{\"impl\":\"cublaslt\",\"algo\":\"" + algoHex(res[i].algo) + "\",\"ws\":" + std::to_string(res[i].workspaceSize) + "}");
      }
    } catch (const std::exception& e) {
      notes->push_back(std::string("cublaslt: ") + e.what());
    }
    out.push_back("{\"impl\":\"naive\"}");
    return out;
  }
};

}  // namespace rt
