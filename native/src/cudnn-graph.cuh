// rtserve native CUDA engine: cuDNN's v9 backend ("graph") API: a fused convolution as one operation graph and
// its heuristic engine configurations.
#pragma once
#include "conv-spec.cuh"

namespace rt {

// -- cuDNN v9 backend ("graph") API: conv → +bias → [+residual] → [activation] as one operation graph.

struct BD {
  cudnnBackendDescriptor_t d = nullptr;
  explicit BD(cudnnBackendDescriptorType_t t) { CKDNN(cudnnBackendCreateDescriptor(t, &d)); }
  ~BD() {
    if (d) cudnnBackendDestroyDescriptor(d);
  }
  BD(const BD&) = delete;
  BD& operator=(const BD&) = delete;
};
using BDp = std::shared_ptr<BD>;

inline void setAttr(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t a, cudnnBackendAttributeType_t t, int64_t n, const void* v,
                    const char* what) {
  cudnnStatus_t s = cudnnBackendSetAttribute(d, a, t, n, v);
  if (s != CUDNN_STATUS_SUCCESS) throw std::runtime_error(std::string("cudnn graph: set ") + what + ": " + cudnnGetErrorString(s));
}
inline void finalize(cudnnBackendDescriptor_t d, const char* what) {
  cudnnStatus_t s = cudnnBackendFinalize(d);
  if (s != CUDNN_STATUS_SUCCESS) throw std::runtime_error(std::string("cudnn graph: finalize ") + what + ": " + cudnnGetErrorString(s));
}

inline BDp gTensor(int64_t uid, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, cudnnDataType_t dt, bool isVirtual) {
  auto t = std::make_shared<BD>(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  int64_t align = 16;
  setAttr(t->d, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &dt, "tensor type");
  setAttr(t->d, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, (int64_t)dims.size(), dims.data(), "tensor dims");
  setAttr(t->d, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, (int64_t)strides.size(), strides.data(), "tensor strides");
  setAttr(t->d, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid, "tensor uid");
  setAttr(t->d, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &align, "tensor alignment");
  bool v = isVirtual;
  setAttr(t->d, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &v, "tensor virtual");
  finalize(t->d, "tensor");
  return t;
}

inline BDp gPointwise(cudnnPointwiseMode_t mode, const BDp& x, const BDp& b, const BDp& y, const ActSpec* act) {
  auto pw = std::make_shared<BD>(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
  cudnnDataType_t prec = CUDNN_DATA_FLOAT;
  setAttr(pw->d, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode, "pointwise mode");
  setAttr(pw->d, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &prec, "pointwise precision");
  if (act != nullptr && act->kind == ACT_CLIP) {
    double lo = act->p0, hi = act->p1;
    setAttr(pw->d, CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, CUDNN_TYPE_DOUBLE, 1, &lo, "relu lower clip");
    setAttr(pw->d, CUDNN_ATTR_POINTWISE_RELU_UPPER_CLIP, CUDNN_TYPE_DOUBLE, 1, &hi, "relu upper clip");
  }
  if (act != nullptr && act->kind == ACT_LEAKY) {
    double slope = act->p0, zero = 0.0;
    setAttr(pw->d, CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, CUDNN_TYPE_DOUBLE, 1, &zero, "relu lower clip");
    setAttr(pw->d, CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE, CUDNN_TYPE_DOUBLE, 1, &slope, "relu slope");
  }
  if (act != nullptr && act->kind == ACT_SILU) {
    double beta = 1.0;
    setAttr(pw->d, CUDNN_ATTR_POINTWISE_SWISH_BETA, CUDNN_TYPE_DOUBLE, 1, &beta, "swish beta");
  }
  finalize(pw->d, "pointwise");
  auto op = std::make_shared<BD>(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
  setAttr(op->d, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &pw->d, "pointwise desc");
  setAttr(op->d, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x->d, "pointwise x");
  if (b) setAttr(op->d, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b->d, "pointwise b");
  setAttr(op->d, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y->d, "pointwise y");
  finalize(op->d, "pointwise op");
  return op;
}

inline bool graphSupportsAct(int kind) {
  return kind == ACT_NONE || kind == ACT_RELU || kind == ACT_CLIP || kind == ACT_SIGMOID || kind == ACT_TANH || kind == ACT_SILU ||
         kind == ACT_GELU_ERF || kind == ACT_GELU_TANH || kind == ACT_LEAKY;
}

enum : int64_t { UID_X = 1, UID_W = 2, UID_B = 3, UID_Z = 4, UID_Y = 5 };

/** The operation graph of one fused convolution, and its heuristic engine configurations. */
struct ConvGraph {
  std::vector<BDp> keep;  // descriptors that must outlive the graph
  BDp opGraph;
  std::vector<BDp> configs;
  ConvGraph(cudnnHandle_t h, const ConvSpec& s) {
    if (!graphSupportsAct(s.act.kind)) throw std::runtime_error("activation not expressible in the cuDNN graph");
    const int64_t cg = s.c / s.groups;
    auto nhwc = [](int64_t n, int64_t c, int64_t hh, int64_t ww) { return std::vector<int64_t>{c * hh * ww, 1, ww * c, c}; };
    (void)n_unused(s);
    auto x = gTensor(UID_X, {s.n, s.c, s.h, s.wd}, nhwc(s.n, s.c, s.h, s.wd), CUDNN_DATA_HALF, false);
    auto w = gTensor(UID_W, {s.k, cg, s.r, s.s}, nhwc(s.k, cg, s.r, s.s), CUDNN_DATA_HALF, false);
    auto b = gTensor(UID_B, {1, s.k, 1, 1}, {s.k, 1, s.k, s.k}, CUDNN_DATA_HALF, false);
    auto yShape = std::vector<int64_t>{s.n, s.k, s.oh, s.ow};
    auto yStr = nhwc(s.n, s.k, s.oh, s.ow);
    bool hasZ = s.z.valid, hasAct = s.act.kind != ACT_NONE;
    auto y = gTensor(UID_Y, yShape, yStr, CUDNN_DATA_HALF, false);
    auto vConv = gTensor(101, yShape, yStr, CUDNN_DATA_FLOAT, true);
    auto vBias = (hasZ || hasAct) ? gTensor(102, yShape, yStr, CUDNN_DATA_FLOAT, true) : y;
    keep = {x, w, b, y, vConv, vBias};

    auto cd = std::make_shared<BD>(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
    cudnnDataType_t comp = CUDNN_DATA_FLOAT;
    cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
    int64_t dims = 2;
    int64_t dil[2] = {s.dh, s.dw}, str[2] = {s.sh, s.sw}, pre[2] = {s.pt, s.pl}, post[2] = {s.pb, s.pr};
    setAttr(cd->d, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &comp, "conv comp type");
    setAttr(cd->d, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode, "conv mode");
    setAttr(cd->d, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &dims, "conv spatial dims");
    setAttr(cd->d, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, dil, "conv dilations");
    setAttr(cd->d, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, str, "conv strides");
    setAttr(cd->d, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, pre, "conv pre paddings");
    setAttr(cd->d, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, post, "conv post paddings");
    finalize(cd->d, "convolution");
    keep.push_back(cd);

    auto conv = std::make_shared<BD>(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    float alpha = 1.f, beta = 0.f;
    setAttr(conv->d, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x->d, "conv x");
    setAttr(conv->d, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w->d, "conv w");
    setAttr(conv->d, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &vConv->d, "conv y");
    setAttr(conv->d, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cd->d, "conv desc");
    setAttr(conv->d, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha, "conv alpha");
    setAttr(conv->d, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta, "conv beta");
    finalize(conv->d, "conv op");
    std::vector<BDp> ops = {conv};
    ops.push_back(gPointwise(CUDNN_POINTWISE_ADD, vConv, b, vBias, nullptr));
    BDp cur = vBias;
    if (hasZ) {
      auto z = gTensor(UID_Z, yShape, yStr, CUDNN_DATA_HALF, false);
      auto vRes = hasAct ? gTensor(103, yShape, yStr, CUDNN_DATA_FLOAT, true) : y;
      keep.push_back(z);
      keep.push_back(vRes);
      ops.push_back(gPointwise(CUDNN_POINTWISE_ADD, cur, z, vRes, nullptr));
      cur = vRes;
    }
    if (hasAct) {
      cudnnPointwiseMode_t m = CUDNN_POINTWISE_RELU_FWD;
      switch (s.act.kind) {
        case ACT_SIGMOID: m = CUDNN_POINTWISE_SIGMOID_FWD; break;
        case ACT_TANH: m = CUDNN_POINTWISE_TANH_FWD; break;
        case ACT_SILU: m = CUDNN_POINTWISE_SWISH_FWD; break;
        case ACT_GELU_ERF: m = CUDNN_POINTWISE_GELU_FWD; break;
        case ACT_GELU_TANH: m = CUDNN_POINTWISE_GELU_APPROX_TANH_FWD; break;
        default: m = CUDNN_POINTWISE_RELU_FWD;
      }
      ops.push_back(gPointwise(m, cur, nullptr, y, &s.act));
    }
    for (auto& o : ops) keep.push_back(o);

    opGraph = std::make_shared<BD>(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    std::vector<cudnnBackendDescriptor_t> raw;
    for (auto& o : ops) raw.push_back(o->d);
    setAttr(opGraph->d, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, (int64_t)raw.size(), raw.data(), "graph ops");
    setAttr(opGraph->d, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &h, "graph handle");
    finalize(opGraph->d, "operation graph");

    auto heur = std::make_shared<BD>(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    cudnnBackendHeurMode_t hm = CUDNN_HEUR_MODE_A;
    setAttr(heur->d, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &opGraph->d, "heur graph");
    setAttr(heur->d, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &hm, "heur mode");
    finalize(heur->d, "heuristics");
    int64_t count = 0;
    CKDNN(cudnnBackendGetAttribute(heur->d, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr));
    if (count <= 0) throw std::runtime_error("cudnn graph: heuristics returned no engine");
    std::vector<cudnnBackendDescriptor_t> cfgRaw;
    for (int64_t i = 0; i < count; i++) {
      auto c = std::make_shared<BD>(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
      configs.push_back(c);
      cfgRaw.push_back(c->d);
    }
    int64_t got = 0;
    CKDNN(cudnnBackendGetAttribute(heur->d, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &got, cfgRaw.data()));
    configs.resize((size_t)std::min(got, count));
    keep.push_back(heur);
  }
  static int n_unused(const ConvSpec&) { return 0; }

  /** The engine's global index and whether it compiles at run time (NVRTC). */
  static void engineInfo(const BDp& cfg, int64_t* globalIndex, bool* runtimeCompiled, bool* reducedPrecision = nullptr) {
    BD eng(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
    int64_t n = 0;
    *globalIndex = -1;
    *runtimeCompiled = false;
    if (reducedPrecision) *reducedPrecision = false;
    if (cudnnBackendGetAttribute(cfg->d, CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &eng.d) != CUDNN_STATUS_SUCCESS)
      return;
    cudnnBackendGetAttribute(eng.d, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &n, globalIndex);
    cudnnBackendBehaviorNote_t notes[16];
    int64_t nn = 0;
    if (cudnnBackendGetAttribute(eng.d, CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE, 16, &nn, notes) == CUDNN_STATUS_SUCCESS) {
      for (int64_t i = 0; i < nn && i < 16; i++)
        if (notes[i] == CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION) *runtimeCompiled = true;
    }
    // FP16 storage with FP32 accumulation is the plan's contract: engines that accumulate or convert in lower
    // precision (FP16 reductions, Winograd, FFT) lose it over a deep network even when each layer looks close.
    cudnnBackendNumericalNote_t num[16];
    nn = 0;
    if (reducedPrecision &&
        cudnnBackendGetAttribute(eng.d, CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE, 16, &nn, num) == CUDNN_STATUS_SUCCESS) {
      for (int64_t i = 0; i < nn && i < 16; i++)
        if (num[i] == CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION || num[i] == CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS ||
            num[i] == CUDNN_NUMERICAL_NOTE_FFT || num[i] == CUDNN_NUMERICAL_NOTE_WINOGRAD || num[i] == CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_4x4 ||
            num[i] == CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_6x6 || num[i] == CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_13x13)
          *reducedPrecision = true;
    }
  }

  static BDp makePlan(cudnnHandle_t h, const BDp& cfg, int64_t* wsBytes) {
    auto plan = std::make_shared<BD>(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    setAttr(plan->d, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &h, "plan handle");
    setAttr(plan->d, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg->d, "plan config");
    finalize(plan->d, "execution plan");
    int64_t n = 0;
    *wsBytes = 0;
    CKDNN(cudnnBackendGetAttribute(plan->d, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &n, wsBytes));
    return plan;
  }
};

}  // namespace rt
