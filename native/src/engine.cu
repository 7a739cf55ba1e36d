// rtserve native CUDA engine: layers, tactics (cuDNN legacy fused conv, cuDNN v9 graph API, cuBLASLt, own
// kernels), the tuner that times them, and the Engine that owns device memory and CUDA graphs.
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "engine.h"
#include "json.h"
#include "kernels.cuh"

namespace rt {

// ---- error checks ---------------------------------------------------------------------------------------------

#define CK(x)                                                                                          \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) throw std::runtime_error(std::string(#x) + ": " + cudaGetErrorString(e_)); \
  } while (0)
#define CKDNN(x)                                                                                          \
  do {                                                                                                    \
    cudnnStatus_t s_ = (x);                                                                               \
    if (s_ != CUDNN_STATUS_SUCCESS) throw std::runtime_error(std::string(#x) + ": " + cudnnGetErrorString(s_)); \
  } while (0)
#define CKLT(x)                                                                                            \
  do {                                                                                                     \
    cublasStatus_t s_ = (x);                                                                               \
    if (s_ != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(#x) + ": cublas status " + std::to_string((int)s_)); \
  } while (0)

static std::string fmt(double v) {
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

static Ref parseRef(const Json& j) {
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

static ActSpec parseAct(const Json& j) {
  ActSpec a;
  if (j.kind != Json::Obj) return a;
  a.kind = (int)j.i64("kind", 0);
  a.p0 = (float)j.f64("p0", 0);
  a.p1 = (float)j.f64("p1", 0);
  return a;
}

static Dims6 dims6(const std::vector<int64_t>& v) {
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

struct ConvertInLayer : Layer {
  Ref x, y;
  bool srcF32 = true, nhwc = true;
  int64_t n, c, h, w, cp;
  explicit ConvertInLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    srcF32 = j.s("srcType", "f32") == "f32";
    nhwc = j.s("layout", "nhwc") == "nhwc";
    n = j.i64("n"); c = j.i64("c"); h = j.i64("h", 1); w = j.i64("w", 1); cp = j.i64("cp", c);
  }
  void run(const Ctx& k) override { launchConvertIn(k.p<void>(x), srcF32, k.p(y), n, c, h, w, cp, nhwc, k.stream); }
};

struct ConvertOutLayer : Layer {
  Ref x, y;
  bool dstF32 = true, nhwc = true;
  int64_t n, c, h, w;
  explicit ConvertOutLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    dstF32 = j.s("dstType", "f32") == "f32";
    nhwc = j.s("layout", "plain") == "nhwc";
    n = j.i64("n"); c = j.i64("c"); h = j.i64("h", 1); w = j.i64("w", 1);
  }
  void run(const Ctx& k) override { launchConvertOut(k.p(x), k.p<void>(y), dstF32, n, c, h, w, nhwc, k.stream); }
};

struct UnaryLayer : Layer {
  Ref x, y;
  int64_t count;
  ActSpec act;
  explicit UnaryLayer(const Json& j) { x = parseRef(j["x"]); y = parseRef(j["y"]); count = j.i64("count"); act = parseAct(j["act"]); }
  void run(const Ctx& k) override { launchUnary(k.p(x), k.p(y), count, act, k.stream); }
};

struct AffineLayer : Layer {
  Ref x, y, scale, shift, res;
  int64_t count, channels, inner;
  ActSpec act;
  explicit AffineLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]); scale = parseRef(j["scale"]); shift = parseRef(j["shift"]); res = parseRef(j["z"]);
    count = j.i64("count"); channels = j.i64("channels"); inner = j.i64("inner", 1); act = parseAct(j["act"]);
  }
  void run(const Ctx& k) override {
    launchChannelAffine(k.p(x), k.p(y), k.p(scale), k.p(shift), k.p(res), count, channels, inner, act, k.stream);
  }
};

struct BinaryLayer : Layer {
  Ref a, b, y;
  int rank, op;
  Dims6 od, sa, sb;
  ActSpec act;
  explicit BinaryLayer(const Json& j) {
    a = parseRef(j["a"]); b = parseRef(j["b"]); y = parseRef(j["y"]);
    auto d = j.ints("dims");
    rank = (int)d.size();
    if (rank < 1 || rank > kMaxRank) throw std::runtime_error("binary: rank must be 1..6");
    od = dims6(d); sa = dims6(j.ints("sa")); sb = dims6(j.ints("sb"));
    op = (int)j.i64("op"); act = parseAct(j["act"]);
  }
  void run(const Ctx& k) override { launchBinary(k.p(a), k.p(b), k.p(y), rank, od, sa, sb, op, act, k.stream); }
};

struct PoolLayer : Layer {
  Ref x, y;
  int64_t n, c, h, w, oh, ow;
  int kh, kw, sh, sw, pt, pl, pb, pr, dh, dw;
  bool isMax, cip;
  explicit PoolLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    n = j.i64("n"); c = j.i64("c"); h = j.i64("h"); w = j.i64("w"); oh = j.i64("oh"); ow = j.i64("ow");
    auto k = j.ints("kernel"), s = j.ints("strides"), p = j.ints("pads"), d = j.ints("dil");
    kh = (int)k.at(0); kw = (int)k.at(1); sh = (int)s.at(0); sw = (int)s.at(1); pt = (int)p.at(0); pl = (int)p.at(1);
    pb = (int)p.at(2); pr = (int)p.at(3);
    dh = (int)d.at(0); dw = (int)d.at(1);
    isMax = j.s("mode") == "max"; cip = j.i64("countIncludePad", 0) != 0;
  }
  void run(const Ctx& k) override { launchPool2d(k.p(x), k.p(y), n, c, h, w, oh, ow, kh, kw, sh, sw, pt, pl, pb, pr, dh, dw, isMax, cip, k.stream); }
};

struct GlobalPoolLayer : Layer {
  Ref x, y;
  int64_t n, hw, c;
  bool nhwc, isMax;
  explicit GlobalPoolLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    n = j.i64("n"); hw = j.i64("hw"); c = j.i64("c"); nhwc = j.s("layout") == "nhwc"; isMax = j.s("mode") == "max";
  }
  void run(const Ctx& k) override { launchGlobalAvgPool(k.p(x), k.p(y), n, hw, c, nhwc, isMax, k.stream); }
};

struct SoftmaxLayer : Layer {
  Ref x, y;
  int64_t outer, len, inner;
  bool logSm;
  explicit SoftmaxLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    outer = j.i64("outer"); len = j.i64("len"); inner = j.i64("inner"); logSm = j.i64("log", 0) != 0;
  }
  void run(const Ctx& k) override { launchSoftmax(k.p(x), k.p(y), outer, len, inner, logSm, k.stream); }
};

struct TransposeLayer : Layer {
  Ref x, y;
  int rank;
  Dims6 od, is;
  explicit TransposeLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    auto d = j.ints("dims");
    rank = (int)d.size();
    if (rank < 1 || rank > kMaxRank) throw std::runtime_error("transpose: rank must be 1..6");
    od = dims6(d); is = dims6(j.ints("inStrides"));
  }
  void run(const Ctx& k) override { launchTranspose(k.p(x), k.p(y), rank, od, is, k.stream); }
};

struct Copy2dLayer : Layer {
  Ref x, y;
  int64_t rows, rowElems, ss, ds, srcOff, dstOff;
  explicit Copy2dLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    rows = j.i64("rows"); rowElems = j.i64("rowElems"); ss = j.i64("srcStride"); ds = j.i64("dstStride");
    srcOff = j.i64("srcOff", 0); dstOff = j.i64("dstOff", 0);
  }
  void run(const Ctx& k) override { launchCopy2d(k.p(x) + srcOff, k.p(y) + dstOff, rows, rowElems, ss, ds, k.stream); }
};

// ---- convolution ----------------------------------------------------------------------------------------------

struct ConvSpec {
  Ref x, w, b, z, y;
  int64_t n, c, h, wd, k, r, s, oh, ow;
  int64_t pt, pl, pb, pr, sh, sw, dh, dw, groups;
  ActSpec act;
  explicit ConvSpec(const Json& j) {
    x = parseRef(j["x"]); w = parseRef(j["w"]); b = parseRef(j["b"]); z = parseRef(j["z"]); y = parseRef(j["y"]);
    n = j.i64("n"); c = j.i64("c"); h = j.i64("h"); wd = j.i64("w_"); k = j.i64("k"); r = j.i64("r"); s = j.i64("s");
    oh = j.i64("oh"); ow = j.i64("ow");
    auto p = j.ints("pads"), st = j.ints("strides"), d = j.ints("dil");
    pt = p.at(0); pl = p.at(1); pb = p.at(2); pr = p.at(3); sh = st.at(0); sw = st.at(1); dh = d.at(0); dw = d.at(1);
    groups = j.i64("groups", 1);
    act = parseAct(j["act"]);
    if (!b.valid) throw std::runtime_error("conv: the compiler always provides a bias");
  }
  int64_t outElems() const { return n * oh * ow * k; }
};

/** The legacy (v7-style) descriptors: cudnnConvolutionBiasActivationForward / cudnnConvolutionForward. */
struct LegacyDescs {
  cudnnTensorDescriptor_t x = nullptr, y = nullptr, b = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnActivationDescriptor_t act = nullptr;
  LegacyDescs(const ConvSpec& s, bool relu) {
    if (s.pt != s.pb || s.pl != s.pr) throw std::runtime_error("legacy cuDNN needs symmetric padding");
    CKDNN(cudnnCreateTensorDescriptor(&x));
    CKDNN(cudnnCreateTensorDescriptor(&y));
    CKDNN(cudnnCreateTensorDescriptor(&b));
    CKDNN(cudnnCreateFilterDescriptor(&w));
    CKDNN(cudnnCreateConvolutionDescriptor(&conv));
    CKDNN(cudnnCreateActivationDescriptor(&act));
    CKDNN(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, (int)s.n, (int)s.c, (int)s.h, (int)s.wd));
    CKDNN(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, (int)s.n, (int)s.k, (int)s.oh, (int)s.ow));
    CKDNN(cudnnSetTensor4dDescriptor(b, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, (int)s.k, 1, 1));
    CKDNN(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC, (int)s.k, (int)(s.c / s.groups), (int)s.r, (int)s.s));
    CKDNN(cudnnSetConvolution2dDescriptor(conv, (int)s.pt, (int)s.pl, (int)s.sh, (int)s.sw, (int)s.dh, (int)s.dw, CUDNN_CROSS_CORRELATION,
                                          CUDNN_DATA_FLOAT));
    CKDNN(cudnnSetConvolutionGroupCount(conv, (int)s.groups));
    CKDNN(cudnnSetConvolutionMathType(conv, CUDNN_TENSOR_OP_MATH));
    CKDNN(cudnnSetActivationDescriptor(act, relu ? CUDNN_ACTIVATION_RELU : CUDNN_ACTIVATION_IDENTITY, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    int on, oc, ohh, oww;
    CKDNN(cudnnGetConvolution2dForwardOutputDim(conv, x, w, &on, &oc, &ohh, &oww));
    if (on != s.n || oc != s.k || ohh != s.oh || oww != s.ow) throw std::runtime_error("legacy cuDNN output shape differs from the plan's");
  }
  ~LegacyDescs() {
    if (x) cudnnDestroyTensorDescriptor(x);
    if (y) cudnnDestroyTensorDescriptor(y);
    if (b) cudnnDestroyTensorDescriptor(b);
    if (w) cudnnDestroyFilterDescriptor(w);
    if (conv) cudnnDestroyConvolutionDescriptor(conv);
    if (act) cudnnDestroyActivationDescriptor(act);
  }
};

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

static void setAttr(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t a, cudnnBackendAttributeType_t t, int64_t n, const void* v,
                    const char* what) {
  cudnnStatus_t s = cudnnBackendSetAttribute(d, a, t, n, v);
  if (s != CUDNN_STATUS_SUCCESS) throw std::runtime_error(std::string("cudnn graph: set ") + what + ": " + cudnnGetErrorString(s));
}
static void finalize(cudnnBackendDescriptor_t d, const char* what) {
  cudnnStatus_t s = cudnnBackendFinalize(d);
  if (s != CUDNN_STATUS_SUCCESS) throw std::runtime_error(std::string("cudnn graph: finalize ") + what + ": " + cudnnGetErrorString(s));
}

static BDp gTensor(int64_t uid, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, cudnnDataType_t dt, bool isVirtual) {
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

static BDp gPointwise(cudnnPointwiseMode_t mode, const BDp& x, const BDp& b, const BDp& y, const ActSpec* act) {
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

static bool graphSupportsAct(int kind) {
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

// ---- GEMM / MatMul through cuBLASLt --------------------------------------------------------------------------

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

static std::string algoHex(const cublasLtMatmulAlgo_t& a) {
  static const char* hx = "0123456789abcdef";
  std::string s;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(&a);
  for (size_t i = 0; i < sizeof(a); i++) {
    s += hx[p[i] >> 4];
    s += hx[p[i] & 15];
  }
  return s;
}
static cublasLtMatmulAlgo_t algoFromHex(const std::string& s) {
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

// ---- layer factory ---------------------------------------------------------------------------------------------

static std::unique_ptr<Layer> makeLayer(const Json& j, cudnnHandle_t dnn, cublasLtHandle_t lt, size_t wsLimit) {
  std::string kind = j.s("kind");
  std::unique_ptr<Layer> l;
  auto withFallback = [&](auto make) -> std::unique_ptr<Layer> {
    try {
      return make(j["tactic"]);
    } catch (const std::exception& e) {
      if (!j.has("fallback")) throw;
      fprintf(stderr, "[rtcuda] layer '%s': tactic failed here (%s); using the recorded fallback\n", j.s("name").c_str(), e.what());
      return make(j["fallback"]);
    }
  };
  if (kind == "conv") l = withFallback([&](const Json& t) { return std::unique_ptr<Layer>(new ConvLayer(j, t, dnn, wsLimit)); });
  else if (kind == "gemm") l = withFallback([&](const Json& t) { return std::unique_ptr<Layer>(new GemmLayer(j, t, lt, wsLimit)); });
  else if (kind == "convert_in") l.reset(new ConvertInLayer(j));
  else if (kind == "convert_out") l.reset(new ConvertOutLayer(j));
  else if (kind == "unary") l.reset(new UnaryLayer(j));
  else if (kind == "affine") l.reset(new AffineLayer(j));
  else if (kind == "binary") l.reset(new BinaryLayer(j));
  else if (kind == "pool") l.reset(new PoolLayer(j));
  else if (kind == "global_pool") l.reset(new GlobalPoolLayer(j));
  else if (kind == "softmax") l.reset(new SoftmaxLayer(j));
  else if (kind == "transpose") l.reset(new TransposeLayer(j));
  else if (kind == "copy2d") l.reset(new Copy2dLayer(j));
  else throw std::runtime_error("unknown layer kind '" + kind + "'");
  l->name = j.s("name");
  l->kind = kind;
  return l;
}

// ---- device info -----------------------------------------------------------------------------------------------

std::string deviceInfoJson() {
  int dev = 0, count = 0;
  CK(cudaGetDeviceCount(&count));
  if (count == 0) throw std::runtime_error("no CUDA device");
  CK(cudaGetDevice(&dev));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, dev));
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  std::ostringstream o;
  o << "{\"name\":" << jsonStr(p.name) << ",\"cc\":[" << p.major << "," << p.minor << "],\"sms\":" << p.multiProcessorCount
    << ",\"memoryBytes\":" << p.totalGlobalMem << ",\"l2Bytes\":" << p.l2CacheSize << ",\"cudaRuntime\":" << rt << ",\"cudaDriver\":" << drv
    << ",\"cudnn\":" << cudnnGetVersion() << ",\"cublasLt\":" << cublasLtGetVersion() << "}";
  return o.str();
}

// ---- tuner -----------------------------------------------------------------------------------------------------

struct DeviceBuf {
  void* p = nullptr;
  explicit DeviceBuf(size_t n) { CK(cudaMalloc(&p, n < 256 ? 256 : n)); }
  ~DeviceBuf() {
    if (p) cudaFree(p);
  }
};

struct Handles {
  cudnnHandle_t dnn = nullptr;
  cublasLtHandle_t lt = nullptr;
  cudaStream_t stream = nullptr;
  Handles() {
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CKDNN(cudnnCreate(&dnn));
    CKDNN(cudnnSetStream(dnn, stream));
    CKLT(cublasLtCreate(&lt));
  }
  ~Handles() {
    if (lt) cublasLtDestroy(lt);
    if (dnn) cudnnDestroy(dnn);
    if (stream) cudaStreamDestroy(stream);
  }
};

/** Rewrites every operand of a layer to a compact scratch layout; returns the bytes needed. */
static int64_t relayout(Json& j, const std::vector<std::string>& keys) {
  int64_t off = 0;
  for (auto& k : keys) {
    if (j.obj.count(k) == 0 || j.obj[k].kind != Json::Obj) continue;
    Json& r = j.obj[k];
    int64_t bytes = r.i64("bytes", 0);
    r.obj.erase("woff");
    Json o; o.kind = Json::Num; o.num = (double)off;
    r.obj["off"] = o;
    off += (bytes + 255) / 256 * 256;
  }
  return off;
}

static float medianOf(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.f : v[v.size() / 2];
}

std::string tuneLayer(const std::string& layerJson, const std::string& optionsJson) {
  Json j = parseJson(layerJson);
  Json opt = parseJson(optionsJson);
  const size_t wsLimit = (size_t)opt.i64("workspaceLimit", 256LL << 20);
  const int graphMax = (int)opt.i64("graphCandidates", 4);
  const int iters = (int)opt.i64("iters", 10);
  const bool verify = opt.i64("verify", 1) != 0;
  std::string kind = j.s("kind");
  if (kind != "conv" && kind != "gemm") throw std::runtime_error("tune: only conv and gemm layers have tactics");
  // One set of handles and one workspace for every tune call of the process (a build tunes hundreds of layers).
  static Handles* shared = new Handles();
  static std::unique_ptr<DeviceBuf> sharedWs;
  static size_t sharedWsBytes = 0;
  Handles& hd = *shared;
  if (!sharedWs || sharedWsBytes < wsLimit) {
    sharedWs.reset();
    sharedWs.reset(new DeviceBuf(wsLimit));
    sharedWsBytes = wsLimit;
  }
  DeviceBuf& ws = *sharedWs;
  std::vector<std::string> keys = {"x", "w", "b", "z", "y"};
  int64_t bytes = relayout(j, keys);
  DeviceBuf scratch(bytes);
  DeviceBuf refOut(j["y"].i64("bytes"));
  DeviceBuf cmp(16);
  Ctx c;
  c.dnn = hd.dnn; c.lt = hd.lt; c.stream = hd.stream; c.arena = (char*)scratch.p; c.weights = (char*)scratch.p;
  c.workspace = ws.p; c.workspaceBytes = wsLimit;
  // Inputs in [-1, 1]; weights scaled by 1/sqrt(fan-in) so outputs stay O(1) and FP16 comparisons are meaningful.
  int64_t fanIn = kind == "conv" ? (j.i64("c") / j.i64("groups", 1)) * j.i64("r") * j.i64("s") : j.i64("k");
  uint32_t seed = 1234;
  for (auto& k : keys) {
    if (!j.has(k)) continue;
    Ref r = parseRef(j[k]);
    float scale = k == "w" ? 1.f / std::sqrt((float)std::max<int64_t>(fanIn, 1)) : k == "b" ? 0.1f : 1.f;
    launchRandomFill(c.p(r), r.bytes / 2, seed++, scale, c.stream);
  }
  std::vector<std::string> notes;
  std::vector<std::string> cands;
  Ref yRef = parseRef(j["y"]);
  int64_t yElems = yRef.bytes / 2;
  if (kind == "conv") {
    ConvSpec s(j);
    cands = ConvLayer::candidates(hd.dnn, s, wsLimit, graphMax, &notes);
    if (verify) launchDirectConv(c.p(s.x), c.p(s.w), c.p(s.b), c.p(s.z), (__half*)refOut.p, s.n, s.c, s.h, s.wd, s.k, (int)s.r, (int)s.s,
                                 s.oh, s.ow, (int)s.pt, (int)s.pl, (int)s.sh, (int)s.sw, (int)s.dh, (int)s.dw, (int)s.groups, s.act, c.stream);
  } else {
    GemmSpec s(j);
    cands = GemmLayer::candidates(hd.lt, s, c.p<void>(s.b), wsLimit, &notes);
    if (verify) launchGemmNaive(c.p(s.x), c.p(s.w), c.p(s.b), c.p(s.z), (__half*)refOut.p, s.batch, s.m, s.n, s.k, s.sA, s.sB, s.sY, s.bNK,
                                s.act, c.stream);
  }
  CK(cudaStreamSynchronize(c.stream));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::ostringstream out;
  out << "{\"candidates\":[";
  std::string best, fallback;
  float bestUs = 1e30f, fallbackUs = 1e30f;
  bool first = true;
  for (auto& candStr : cands) {
    Json t = parseJson(candStr);
    std::string impl = t.s("impl");
    bool isOwn = impl == "direct" || impl == "naive";
    // Own reference kernels are timed only when nothing faster worked (they are correctness fallbacks).
    if (isOwn && !best.empty()) continue;
    std::ostringstream rec;
    rec << "{\"tactic\":" << candStr;
    auto t0 = std::chrono::steady_clock::now();
    try {
      std::unique_ptr<Layer> l = kind == "conv" ? std::unique_ptr<Layer>(new ConvLayer(j, t, hd.dnn, wsLimit))
                                                : std::unique_ptr<Layer>(new GemmLayer(j, t, hd.lt, wsLimit));
      double setupMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      l->bind(c);
      CK(cudaMemsetAsync(c.p<void>(yRef), 0, yRef.bytes, c.stream));
      l->run(c);
      CK(cudaStreamSynchronize(c.stream));
      CK(cudaGetLastError());
      float err = 0.f, mag = 0.f;
      if (verify) {
        launchCompare(c.p(yRef), (const __half*)refOut.p, yElems, (float*)cmp.p, c.stream);
        float h2[2];
        CK(cudaMemcpyAsync(h2, cmp.p, sizeof h2, cudaMemcpyDeviceToHost, c.stream));
        CK(cudaStreamSynchronize(c.stream));
        err = h2[0];
        mag = h2[1];
        if (!(err <= 4e-3f * mag + 1e-3f)) throw std::runtime_error("wrong result: max abs error " + fmt(err) + " vs max |ref| " + fmt(mag));
      }
      int n = iters;
      std::vector<float> times;
      for (int i = 0; i < 2; i++) l->run(c);
      for (int i = 0; i < n; i++) {
        CK(cudaEventRecord(e0, c.stream));
        l->run(c);
        CK(cudaEventRecord(e1, c.stream));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        times.push_back(ms * 1000.f);
        if (i == 2 && times[0] > 5000.f) break;  // slow candidates: three samples are enough
      }
      float us = medianOf(times);
      rec << ",\"ok\":true,\"us\":" << fmt(us) << ",\"ws\":" << l->workspace() << ",\"err\":" << fmt(err) << ",\"setupMs\":" << fmt(setupMs);
      if (us < bestUs) { bestUs = us; best = l->tacticJson(); }
      if (impl != "cudnn-graph" && us < fallbackUs) { fallbackUs = us; fallback = l->tacticJson(); }
    } catch (const std::exception& e) {
      cudaGetLastError();  // clear a sticky launch error from this candidate, if any
      cudaStreamSynchronize(c.stream);
      rec << ",\"ok\":false,\"why\":" << jsonStr(e.what());
    }
    rec << "}";
    out << (first ? "" : ",") << rec.str();
    first = false;
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  out << "],\"notes\":[";
  for (size_t i = 0; i < notes.size(); i++) out << (i ? "," : "") << jsonStr(notes[i]);
  out << "],\"best\":" << (best.empty() ? "null" : best) << ",\"bestUs\":" << (best.empty() ? "null" : fmt(bestUs))
      << ",\"fallback\":" << (fallback.empty() ? "null" : fallback) << "}";
  return out.str();
}

// ---- engine ----------------------------------------------------------------------------------------------------

struct IoBinding {
  std::string name;
  int64_t off = 0;       // arena offset of the raw (host-format) tensor
  int64_t rowBytes = 0;  // bytes of one batch row
  char* pinned = nullptr;
};

struct Program {
  int batch = 0;
  std::vector<std::unique_ptr<Layer>> layers;
  /** Layers whose tuned tactic was replaced at load by the memory check (JSON strings, for describe()). */
  std::vector<std::string> replaced;
  /** The load-time history check found the output depends on memory left by earlier runs. */
  bool historyDependent = false;
  /** Programmatic (PDL) edges found in the captured graph and made full dependencies (serializeProgrammaticEdges). */
  int pdlEdges = 0;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  std::string captureError;
};

/**
 * Diagnostics for compute-sanitizer and the history check (bench/cuda/history-check.ts), from the environment:
 * RTCUDA_DEBUG=opt,opt,... with
 *   split-arena      every arena slot (operand offset) in its own allocation: memcheck then sees a read past a
 *                    tensor's slot, initcheck a read of a slot's rows this run has not written
 *   no-warmup        no arena zeroing and no eager run per program at load (initcheck sees the first real run)
 *   no-graphs        eager launches only;  no-memory-check  skip the load-time memory and history checks
 *   layer-sync       synchronize the stream after every eager layer;  fence  a no-op kernel between layers
 *                    (also inside CUDA graphs): together they rule races between consecutive kernels in or out
 *   trace            operand addresses of every layer at load, each eager layer's name as it runs (stderr)
 *   only-batch=N     build only the program for batch N
 *   shared-workspace every layer of a program on one workspace, not its own slice
 *   keep-pdl         leave the programmatic (PDL) edges of the captured graphs as they are, and no eager fences
 *                    (as before the fix of issue #20: programs then race, see serializeProgrammaticEdges)
 * Never set in serving; the engine prints the options it took at load.
 */
struct DebugOptions {
  bool splitArena = false, noWarmup = false, noGraphs = false, noMemoryCheck = false, layerSync = false, fence = false, trace = false;
  bool sharedWorkspace = false, keepPdl = false;
  int onlyBatch = 0;
  std::string text;
  static DebugOptions fromEnv() {
    DebugOptions d;
    const char* v = getenv("RTCUDA_DEBUG");
    if (v == nullptr || *v == 0) return d;
    d.text = v;
    std::stringstream ss(d.text);
    std::string t;
    while (std::getline(ss, t, ',')) {
      if (t == "split-arena") d.splitArena = true;
      else if (t == "no-warmup") d.noWarmup = true;
      else if (t == "no-graphs") d.noGraphs = true;
      else if (t == "no-memory-check") d.noMemoryCheck = true;
      else if (t == "layer-sync") d.layerSync = true;
      else if (t == "fence") d.fence = true;
      else if (t == "trace") d.trace = true;
      else if (t == "shared-workspace") d.sharedWorkspace = true;
      else if (t == "keep-pdl") d.keepPdl = true;
      else if (t.rfind("only-batch=", 0) == 0) d.onlyBatch = atoi(t.c_str() + 11);
      else if (!t.empty()) throw std::runtime_error("RTCUDA_DEBUG: unknown option '" + t + "'");
    }
    fprintf(stderr, "[rtcuda] diagnostics on: RTCUDA_DEBUG=%s\n", v);
    return d;
  }
};

struct EngineImpl {
  Handles h;
  DebugOptions dbg;
  /** split-arena: the slots' own allocations, by arena offset (the arena itself is then not allocated). */
  std::map<int64_t, char*> slots;
  char* weights = nullptr;
  char* arena = nullptr;
  void* workspace = nullptr;
  size_t wsBytes = 0, arenaBytes = 0, weightBytes = 0;
  int maxBatch = 0;
  std::vector<IoBinding> inputs, outputs;
  std::vector<Program> programs;
  Ctx ctx() const {
    Ctx c;
    c.dnn = h.dnn; c.lt = h.lt; c.stream = h.stream; c.arena = arena; c.weights = weights; c.workspace = workspace; c.workspaceBytes = wsBytes;
    c.slots = dbg.splitArena ? &slots : nullptr;
    return c;
  }
  /** The context one layer runs in: its own slice of the workspace. */
  Ctx ctxFor(const Layer& l) const {
    Ctx c = ctx();
    if (!dbg.sharedWorkspace && workspace != nullptr) {
      c.workspace = (char*)workspace + l.wsOffset;
      c.workspaceBytes = l.workspace();
    }
    return c;
  }
  /**
   * Gives every layer of a program its own workspace slice (programs run one at a time and share the slices), grows
   * the allocation when needed and rebinds every layer (cuDNN graph plans bake the workspace pointer). Layers of one
   * program never share workspace: consecutive cuDNN/cuBLASLt kernels on one stream may overlap on Hopper (the next
   * one's prologue starts before the previous one ends), and with one shared workspace a layer's scratch was
   * overwritten by the next layer while still in use: ResNet-50's batch-8/16/32 programs then gave different outputs
   * for the same input depending on timing and on what earlier runs left behind (issue #20).
   */
  void layoutWorkspace() {
    size_t need = 0;
    for (auto& p : programs) {
      size_t off = 0;
      for (auto& l : p.layers) {
        size_t w = l->workspace();
        l->wsOffset = dbg.sharedWorkspace ? 0 : off;
        off = dbg.sharedWorkspace ? std::max(off, w) : off + (w + 255) / 256 * 256;
      }
      need = std::max(need, off);
    }
    if (need > wsBytes || workspace == nullptr) {
      CK(cudaStreamSynchronize(h.stream));
      if (workspace) CK(cudaFree(workspace));
      workspace = nullptr;
      wsBytes = need;
      if (need > 0) CK(cudaMalloc(&workspace, need));
    }
    for (auto& p : programs)
      for (auto& l : p.layers) l->bind(ctxFor(*l));
  }
  /** Device address of an arena offset (an input's or output's binding). */
  char* at(int64_t off) const { return dbg.splitArena ? slots.at(off) : arena + off; }
  /** One layer, with the diagnostics' trace, fence and per-layer synchronization. */
  void runLayer(Layer& l, int batch, size_t i) {
    if (dbg.trace) fprintf(stderr, "[rtcuda-trace] batch %d layer %zu %s\n", batch, i, l.name.c_str());
    Ctx c = ctxFor(l);
    l.run(c);
    // Eagerly, a plain kernel after every layer: the next library kernel cannot overlap this one (see
    // serializeProgrammaticEdges; inside a graph the edges themselves are made full dependencies instead).
    if (dbg.fence || (!capturing && !dbg.keepPdl)) launchNoop(c.stream);
    if (dbg.layerSync && !capturing) {
      cudaError_t err = cudaStreamSynchronize(c.stream);
      if (err != cudaSuccess) throw std::runtime_error("batch " + std::to_string(batch) + " layer '" + l.name + "': " + cudaGetErrorString(err));
    }
  }
  bool capturing = false;
  Program& program(int batch) {
    for (auto& p : programs)
      if (p.batch == batch) return p;
    throw std::runtime_error("no program for batch size " + std::to_string(batch));
  }
  void launch(Program& p) {
    if (p.exec != nullptr) {
      CK(cudaGraphLaunch(p.exec, h.stream));
    } else {
      for (size_t i = 0; i < p.layers.size(); i++) runLayer(*p.layers[i], p.batch, i);
    }
  }
  ~EngineImpl() {
    if (h.stream) cudaStreamSynchronize(h.stream);
    for (auto& p : programs) {
      if (p.exec) cudaGraphExecDestroy(p.exec);
      if (p.graph) cudaGraphDestroy(p.graph);
      p.layers.clear();
    }
    for (auto* io : {&inputs, &outputs})
      for (auto& b : *io)
        if (b.pinned) cudaFreeHost(b.pinned);
    if (workspace) cudaFree(workspace);
    for (auto& sl : slots) cudaFree(sl.second);
    if (arena) cudaFree(arena);
    if (weights) cudaFree(weights);
  }
};

/** One host copy: `bytes` from `src` to `dst`. */
struct Seg {
  char* dst;
  const char* src;
  size_t bytes;
};

/**
 * Copies every segment. One thread copies ~6 GB/s: large batches (150 MB of FP32 images at batch 256) are split into
 * byte ranges of the segments laid end to end, one thread each, whatever the segments' boundaries.
 */
static void parallelCopySegs(const std::vector<Seg>& segs) {
  size_t bytes = 0;
  for (const Seg& g : segs) bytes += g.bytes;
  const size_t chunk = 8u << 20;
  auto copyRange = [&segs](size_t from, size_t to) {
    size_t at = 0;
    for (const Seg& g : segs) {
      size_t a = std::max(from, at), b = std::min(to, at + g.bytes);
      if (a < b) memcpy(g.dst + (a - at), g.src + (a - at), b - a);
      at += g.bytes;
      if (at >= to) break;
    }
  };
  if (bytes <= chunk) {
    copyRange(0, bytes);
    return;
  }
  size_t parts = std::min<size_t>(8, (bytes + chunk - 1) / chunk);
  size_t per = (bytes + parts - 1) / parts;
  std::vector<std::thread> ts;
  for (size_t i = 1; i < parts; i++) {
    size_t o = i * per;
    if (o >= bytes) break;
    ts.emplace_back(copyRange, o, std::min(bytes, o + per));
  }
  copyRange(0, std::min(per, bytes));
  for (auto& t : ts) t.join();
}

static void parallelCopy(void* dst, const void* src, size_t bytes) {
  parallelCopySegs({Seg{(char*)dst, (const char*)src, bytes}});
}

// Host memory registered with CUDA (page-locked in place: mapped shared memory regions), by start address.
static std::mutex gRegisteredMu;
static std::map<uintptr_t, size_t> gRegistered;

bool registerHostMemory(void* p, size_t bytes) {
  if (cudaSetDevice(0) != cudaSuccess) return false;
  if (cudaHostRegister(p, bytes, cudaHostRegisterPortable) != cudaSuccess) {
    cudaGetLastError();  // a failed registration is not sticky; clear it so later calls do not report it
    return false;
  }
  std::lock_guard<std::mutex> g(gRegisteredMu);
  gRegistered[(uintptr_t)p] = bytes;
  return true;
}

void unregisterHostMemory(void* p) {
  {
    std::lock_guard<std::mutex> g(gRegisteredMu);
    if (gRegistered.erase((uintptr_t)p) == 0) return;
  }
  cudaHostUnregister(p);
  cudaGetLastError();
}

/** True when [p, p + bytes) lies inside one registered range: the GPU can copy it directly (DMA, no staging). */
static bool isRegistered(const void* p, size_t bytes) {
  std::lock_guard<std::mutex> g(gRegisteredMu);
  auto it = gRegistered.upper_bound((uintptr_t)p);
  if (it == gRegistered.begin()) return false;
  --it;
  return (uintptr_t)p + bytes <= it->first + it->second;
}

/** The arena operands of one conv/gemm layer, and the size of each operand's slot (its bytes at the largest batch). */
struct LayerMemory {
  Ref x, z, y;
  int64_t xSlot = 0, zSlot = 0;
};

/**
 * Whether a layer's output depends on memory the layer was not given: its output range before it writes it, the rest
 * of its inputs' slots past this batch's rows (slots are planned at the largest batch), or the workspace. A safeguard:
 * the ResNet-50 drift it was written for turned out to be a race between consecutive layers (see
 * serializeProgrammaticEdges), not such a read. The layer runs twice on the same random inputs with that memory set to two different byte values; a safe layer gives
 * the same output both times.
 */
static bool readsUngivenMemory(EngineImpl& e, Layer& l, const LayerMemory& m, void* saved, float* cmp, std::string* why) {
  Ctx c = e.ctxFor(l);
  cudaStream_t st = e.h.stream;
  char* a = e.arena;
  uint32_t seed = 4242;
  for (const Ref* r : {&m.x, &m.z}) {
    if (r->valid && !r->weight && r->bytes >= 2) launchRandomFill((__half*)(a + r->off), r->bytes / 2, seed++, 1.f, st);
  }
  auto fill = [&](int byte) {
    if (e.workspace != nullptr && e.wsBytes > 0) CK(cudaMemsetAsync(e.workspace, byte, e.wsBytes, st));
    CK(cudaMemsetAsync(a + m.y.off, byte, (size_t)m.y.bytes, st));
    if (m.x.valid && !m.x.weight && m.xSlot > m.x.bytes) CK(cudaMemsetAsync(a + m.x.off + m.x.bytes, byte, (size_t)(m.xSlot - m.x.bytes), st));
    if (m.z.valid && !m.z.weight && m.zSlot > m.z.bytes) CK(cudaMemsetAsync(a + m.z.off + m.z.bytes, byte, (size_t)(m.zSlot - m.z.bytes), st));
  };
  fill(0x00);
  l.run(c);
  CK(cudaMemcpyAsync(saved, a + m.y.off, (size_t)m.y.bytes, cudaMemcpyDeviceToDevice, st));
  fill(0x3c);
  l.run(c);
  launchCompare((const __half*)(a + m.y.off), (const __half*)saved, m.y.bytes / 2, cmp, st);
  float h2[2];
  CK(cudaMemcpyAsync(h2, cmp, sizeof h2, cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  if (h2[0] <= 1e-3f * h2[1] + 1e-4f) return false;
  *why = "output changed by " + fmt(h2[0]) + " (max |output| " + fmt(h2[1]) + ")";
  return true;
}

/**
 * Makes every programmatic dependent launch (PDL) edge of a captured graph a full dependency; returns how many it
 * changed. On Hopper, cuDNN's and cuBLASLt's kernels are launched with programmatic stream serialization: the next
 * kernel on the stream may start before the previous one has finished, and is trusted to wait
 * (griddepcontrol.wait) before it touches what the previous one writes or reads. Between the engine's consecutive
 * layers that trust does not hold: ResNet-50's batch-8/16/32 programs gave different outputs for the same input
 * from run to run (by up to 2.7e-1), depending on timing and on what earlier runs had left in the arena (issue #20).
 * A synchronization or a plain kernel between layers removed it; a private workspace per layer and a separate
 * allocation per arena slot did not, and compute-sanitizer memcheck found no access outside any allocation.
 */
#if CUDART_VERSION >= 13000
#define RT_GRAPH_GET_EDGES cudaGraphGetEdges
#define RT_GRAPH_REMOVE_DEPS cudaGraphRemoveDependencies
#define RT_GRAPH_ADD_DEPS cudaGraphAddDependencies
#elif CUDART_VERSION >= 12030
#define RT_GRAPH_GET_EDGES cudaGraphGetEdges_v2
#define RT_GRAPH_REMOVE_DEPS cudaGraphRemoveDependencies_v2
#define RT_GRAPH_ADD_DEPS cudaGraphAddDependencies_v2
#endif
static int serializeProgrammaticEdges(cudaGraph_t g) {
#ifdef RT_GRAPH_GET_EDGES
  size_t n = 0;
  CK(RT_GRAPH_GET_EDGES(g, nullptr, nullptr, nullptr, &n));
  if (n == 0) return 0;
  std::vector<cudaGraphNode_t> from(n), to(n);
  std::vector<cudaGraphEdgeData> data(n);
  CK(RT_GRAPH_GET_EDGES(g, from.data(), to.data(), data.data(), &n));
  int changed = 0;
  for (size_t i = 0; i < n; i++) {
    if (data[i].type == cudaGraphDependencyTypeDefault && data[i].from_port == 0) continue;
    CK(RT_GRAPH_REMOVE_DEPS(g, &from[i], &to[i], &data[i], 1));
    cudaGraphEdgeData full;
    memset(&full, 0, sizeof full);  // default type, port 0: full completion with memory visibility
    if (RT_GRAPH_ADD_DEPS(g, &from[i], &to[i], &full, 1) != cudaSuccess) cudaGetLastError();  // already there
    changed++;
  }
  return changed;
#else
  (void)g;  // before CUDA 12.3 graphs carry no edge types to rewrite
  return 0;
#endif
}

Engine::Engine(const std::string& networkJson, const void* weightsHost, size_t weightBytes) : impl_(new EngineImpl()) {
  Json net = parseJson(networkJson);
  EngineImpl& e = *impl_;
  e.dbg = DebugOptions::fromEnv();
  e.arenaBytes = (size_t)net.i64("arenaBytes");
  e.weightBytes = weightBytes;
  e.maxBatch = (int)net.i64("maxBatch");
  const size_t wsLimit = (size_t)net.i64("workspaceLimit", 256LL << 20);
  CK(cudaMalloc(&e.weights, std::max<size_t>(weightBytes, 256)));
  if (weightBytes > 0) CK(cudaMemcpy(e.weights, weightsHost, weightBytes, cudaMemcpyHostToDevice));
  if (!e.dbg.splitArena) {
    CK(cudaMalloc(&e.arena, std::max<size_t>(e.arenaBytes, 256)));
    if (!e.dbg.noWarmup) CK(cudaMemset(e.arena, 0, e.arenaBytes));
  }
  for (auto* spec : {&net["inputs"], &net["outputs"]}) {
    for (auto& io : spec->arr) {
      IoBinding b;
      b.name = io.s("name");
      b.off = io.i64("off");
      b.rowBytes = io.i64("rowBytes");
      CK(cudaHostAlloc((void**)&b.pinned, std::max<size_t>(b.rowBytes * e.maxBatch, 256), cudaHostAllocDefault));
      (spec == &net["inputs"] ? e.inputs : e.outputs).push_back(b);
    }
  }
  std::vector<const Json*> layerJson;  // per program, per layer (programs in order, layers in order)
  for (auto& pj : net["programs"].arr) {
    Program p;
    p.batch = (int)pj.i64("batch");
    if (e.dbg.onlyBatch > 0 && p.batch != e.dbg.onlyBatch) continue;
    for (auto& lj : pj["layers"].arr) {
      p.layers.push_back(makeLayer(lj, e.h.dnn, e.h.lt, wsLimit));
      layerJson.push_back(&lj);
    }
    e.programs.push_back(std::move(p));
  }
  if (e.dbg.splitArena) {
    // Each operand offset of the programs built gets its own allocation, as large as its largest use there.
    std::map<int64_t, int64_t> sizes;
    auto note = [&](int64_t off, int64_t bytes) { sizes[off] = std::max(sizes[off], bytes); };
    for (auto* io : {&e.inputs, &e.outputs})
      for (auto& b : *io) note(b.off, b.rowBytes * e.maxBatch);
    for (const Json* lj : layerJson)
      for (auto& kv : lj->obj)
        if (kv.second.kind == Json::Obj && kv.second.has("off") && !kv.second.has("woff")) note(kv.second.i64("off"), kv.second.i64("bytes", 0));
    for (auto& sz : sizes) {
      char* q = nullptr;
      CK(cudaMalloc(&q, (size_t)std::max<int64_t>(sz.second, 256)));
      if (!e.dbg.noWarmup) CK(cudaMemset(q, 0, (size_t)sz.second));
      e.slots[sz.first] = q;
      if (e.dbg.trace) fprintf(stderr, "[rtcuda-trace] slot off %lld bytes %lld at %p\n", (long long)sz.first, (long long)sz.second, (void*)q);
    }
  }
  if (e.dbg.trace) {
    fprintf(stderr, "[rtcuda-trace] arena %p (%zu bytes), weights %p (%zu bytes), workspace %p (%zu bytes)\n", (void*)e.arena, e.arenaBytes,
            (void*)e.weights, weightBytes, e.workspace, e.wsBytes);
    size_t at = 0;
    for (auto& p : e.programs) {
      for (size_t i = 0; i < p.layers.size(); i++, at++) {
        std::string ops;
        for (auto& kv : layerJson[at]->obj) {
          if (kv.second.kind != Json::Obj || !kv.second.has("bytes")) continue;
          bool w = kv.second.has("woff");
          int64_t off = w ? kv.second.i64("woff") : kv.second.i64("off");
          char buf[160];
          snprintf(buf, sizeof buf, " %s=%p+%lld%s", kv.first.c_str(), (void*)(w ? e.weights + off : e.at(off)), (long long)kv.second.i64("bytes"), w ? "(w)" : "");
          ops += buf;
        }
        fprintf(stderr, "[rtcuda-trace] batch %d layer %zu %s %s tactic %s:%s\n", p.batch, i, p.layers[i]->kind.c_str(), p.layers[i]->name.c_str(),
                p.layers[i]->tacticJson().c_str(), ops.c_str());
      }
    }
  }
  e.layoutWorkspace();
  if (e.dbg.trace) fprintf(stderr, "[rtcuda-trace] workspace %p (%zu bytes)\n", e.workspace, e.wsBytes);
  // One eager run per program first: lazy module loading and cuDNN's first-use work stay out of the capture.
  for (auto& p : e.programs) {
    if (e.dbg.noWarmup) break;
    for (size_t i = 0; i < p.layers.size(); i++) e.runLayer(*p.layers[i], p.batch, i);
    CK(cudaStreamSynchronize(e.h.stream));
  }

  // The memory check (readsUngivenMemory) for every cuDNN-graph conv of every program; a layer that fails it gets
  // its recorded fallback tactic (legacy cuDNN / cuBLASLt), checked the same way.
  if (net.i64("memoryCheck", 1) != 0 && !e.dbg.noMemoryCheck && !e.dbg.splitArena && !e.dbg.noWarmup) {
    std::map<size_t, std::pair<int64_t, int64_t>> slots;  // layer index -> largest x and z bytes over programs
    size_t at = 0;
    for (auto& p : e.programs) {
      for (size_t i = 0; i < p.layers.size(); i++, at++) {
        const Json& lj = *layerJson[at];
        auto& sl = slots[i];
        if (lj.has("x")) sl.first = std::max(sl.first, parseRef(lj["x"]).bytes);
        if (lj.has("z")) sl.second = std::max(sl.second, parseRef(lj["z"]).bytes);
      }
    }
    size_t maxY = 256;
    for (const Json* lj : layerJson)
      if (lj->has("y")) maxY = std::max(maxY, (size_t)parseRef((*lj)["y"]).bytes);
    DeviceBuf saved(maxY), cmp(16);
    at = 0;
    for (auto& p : e.programs) {
      for (size_t i = 0; i < p.layers.size(); i++, at++) {
        const Json& lj = *layerJson[at];
        Layer& l = *p.layers[i];
        if (l.kind != "conv" || !lj.has("tactic") || lj["tactic"].kind != Json::Obj || lj["tactic"].s("impl") != "cudnn-graph") continue;
        if (l.tacticJson().find("cudnn-graph") == std::string::npos) continue;  // already on its fallback
        LayerMemory m;
        m.x = parseRef(lj["x"]);
        m.z = parseRef(lj["z"]);
        m.y = parseRef(lj["y"]);
        m.xSlot = slots[i].first;
        m.zSlot = slots[i].second;
        std::string why;
        if (!readsUngivenMemory(e, l, m, saved.p, (float*)cmp.p, &why)) continue;
        std::string from = l.tacticJson();
        if (!lj.has("fallback") || lj["fallback"].kind != Json::Obj) {
          fprintf(stderr, "[rtcuda] batch %d layer '%s': tactic %s reads memory it was not given (%s) and has no fallback\n", p.batch, l.name.c_str(), from.c_str(), why.c_str());
          p.replaced.push_back("{\"layer\":" + jsonStr(l.name) + ",\"from\":" + from + ",\"to\":null,\"why\":" + jsonStr(why) + "}");
          continue;
        }
        std::unique_ptr<Layer> nl(new ConvLayer(lj, lj["fallback"], e.h.dnn, wsLimit));
        std::unique_ptr<Layer> old = std::move(p.layers[i]);
        p.layers[i] = std::move(nl);
        e.layoutWorkspace();  // the fallback's workspace may differ: slices are laid out again, every layer rebound
        Layer* fl = p.layers[i].get();
        fl->name = old->name;
        fl->kind = old->kind;
        std::string still;
        bool bad = readsUngivenMemory(e, *fl, m, saved.p, (float*)cmp.p, &still);
        fprintf(stderr, "[rtcuda] batch %d layer '%s': tactic %s reads memory it was not given (%s); using the fallback %s%s\n", p.batch, old->name.c_str(),
                from.c_str(), why.c_str(), fl->tacticJson().c_str(), bad ? (" (which also does: " + still + ")").c_str() : "");
        p.replaced.push_back("{\"layer\":" + jsonStr(old->name) + ",\"from\":" + from + ",\"to\":" + fl->tacticJson() + ",\"why\":" + jsonStr(why) +
                             ",\"fallbackAlsoFails\":" + (bad ? "true" : "false") + "}");
      }
    }
    for (auto& p : e.programs) {
      for (size_t i = 0; i < p.layers.size(); i++) e.runLayer(*p.layers[i], p.batch, i);
      CK(cudaStreamSynchronize(e.h.stream));
    }
    // Whole programs: the same input after the arena and workspace were left holding two different byte values.
    // A program whose output differs depends on what earlier runs left behind (the per-layer check missed it).
    if (!e.outputs.empty() && !e.inputs.empty()) {
      DeviceBuf out0((size_t)e.outputs[0].rowBytes * e.maxBatch);
      for (auto& p : e.programs) {
        size_t outBytes = (size_t)e.outputs[0].rowBytes * p.batch;
        auto runWith = [&](int byte) {
          CK(cudaMemsetAsync(e.arena, byte, e.arenaBytes, e.h.stream));
          if (e.workspace != nullptr && e.wsBytes > 0) CK(cudaMemsetAsync(e.workspace, byte, e.wsBytes, e.h.stream));
          for (auto& in : e.inputs) CK(cudaMemsetAsync(e.arena + in.off, 0x3e, (size_t)in.rowBytes * p.batch, e.h.stream));
          for (size_t i = 0; i < p.layers.size(); i++) e.runLayer(*p.layers[i], p.batch, i);
        };
        runWith(0x00);
        CK(cudaMemcpyAsync(out0.p, e.arena + e.outputs[0].off, outBytes, cudaMemcpyDeviceToDevice, e.h.stream));
        runWith(0x3c);
        launchCompare((const __half*)(e.arena + e.outputs[0].off), (const __half*)out0.p, (int64_t)(outBytes / 2), (float*)cmp.p, e.h.stream);
        float h2[2];
        CK(cudaMemcpyAsync(h2, cmp.p, sizeof h2, cudaMemcpyDeviceToHost, e.h.stream));
        CK(cudaStreamSynchronize(e.h.stream));
        p.historyDependent = !(h2[0] == 0.f);
        if (p.historyDependent) fprintf(stderr, "[rtcuda] batch %d: the program's output depends on what earlier runs left in memory (%s)\n", p.batch, fmt(h2[0]).c_str());
      }
      CK(cudaMemsetAsync(e.arena, 0, e.arenaBytes, e.h.stream));
      CK(cudaStreamSynchronize(e.h.stream));
    }
  }
  const bool useGraphs = net.i64("cudaGraphs", 1) != 0 && !e.dbg.noGraphs;
  for (auto& p : e.programs) {
    if (!useGraphs) break;
    try {
      CK(cudaStreamBeginCapture(e.h.stream, cudaStreamCaptureModeThreadLocal));
      e.capturing = true;
      try {
        for (size_t i = 0; i < p.layers.size(); i++) e.runLayer(*p.layers[i], p.batch, i);
      } catch (...) {
        e.capturing = false;
        cudaGraph_t g = nullptr;
        cudaStreamEndCapture(e.h.stream, &g);
        if (g) cudaGraphDestroy(g);
        throw;
      }
      e.capturing = false;
      CK(cudaStreamEndCapture(e.h.stream, &p.graph));
      if (!e.dbg.keepPdl) p.pdlEdges = serializeProgrammaticEdges(p.graph);
      CK(cudaGraphInstantiate(&p.exec, p.graph, 0));
      CK(cudaGraphLaunch(p.exec, e.h.stream));
      CK(cudaStreamSynchronize(e.h.stream));
    } catch (const std::exception& ex) {
      cudaGetLastError();
      p.captureError = ex.what();
      if (p.exec) { cudaGraphExecDestroy(p.exec); p.exec = nullptr; }
      fprintf(stderr, "[rtcuda] batch %d: CUDA graph capture failed (%s); running eagerly\n", p.batch, ex.what());
    }
  }
}

Engine::~Engine() {
  std::lock_guard<std::mutex> g(mu_);
  impl_.reset();
}

/**
 * Queues the copies of `rows` rows of every input into the arena. Pieces in registered memory (mapped shared
 * memory) are copied by the GPU straight from there; the others are gathered into the input's pinned buffer at their
 * place in the batch (in parallel, one pass), then copied up in runs of adjacent staged pieces.
 */
static void copyInputs(EngineImpl& e, int rows, const std::vector<std::vector<Piece>>& in) {
  std::vector<Seg> staged;
  struct Up { size_t at; const void* src; size_t bytes; };
  std::vector<std::vector<Up>> ups(in.size());
  for (size_t i = 0; i < in.size(); i++) {
    size_t n = (size_t)e.inputs[i].rowBytes * rows, got = 0;
    for (const Piece& piece : in[i]) got += piece.bytes;
    if (got != n) throw std::runtime_error("input '" + e.inputs[i].name + "' has " + std::to_string(got) + " bytes, expected " + std::to_string(n));
    char* pinned = (char*)e.inputs[i].pinned;
    size_t at = 0;
    for (const Piece& piece : in[i]) {
      if (piece.bytes == 0) continue;
      if (isRegistered(piece.data, piece.bytes)) {
        ups[i].push_back(Up{at, piece.data, piece.bytes});
      } else {
        staged.push_back(Seg{pinned + at, (const char*)piece.data, piece.bytes});
        if (!ups[i].empty() && ups[i].back().src == pinned + ups[i].back().at && ups[i].back().at + ups[i].back().bytes == at) ups[i].back().bytes += piece.bytes;
        else ups[i].push_back(Up{at, pinned + at, piece.bytes});
      }
      at += piece.bytes;
    }
  }
  parallelCopySegs(staged);
  for (size_t i = 0; i < in.size(); i++) {
    for (const Up& u : ups[i]) CK(cudaMemcpyAsync(e.at(e.inputs[i].off) + u.at, u.src, u.bytes, cudaMemcpyHostToDevice, e.h.stream));
  }
}

void Engine::probe(int batch, int rows, const std::vector<std::vector<Piece>>& in, int layers, size_t off, void* out, size_t bytes,
                   int64_t fillOff, size_t fillBytes, int fillByte) {
  std::lock_guard<std::mutex> g(mu_);
  EngineImpl& e = *impl_;
  if (rows < 1 || rows > batch) throw std::runtime_error("rows must be in [1, batch]");
  if (in.size() != e.inputs.size()) throw std::runtime_error("wrong number of inputs");
  Program& p = e.program(batch);
  if (layers < 0 || (size_t)layers > p.layers.size()) throw std::runtime_error("probe: layer count out of range");
  if (off + bytes > e.arenaBytes) throw std::runtime_error("probe: range outside the arena");
  if (fillOff >= 0 && (size_t)fillOff + fillBytes > e.arenaBytes) throw std::runtime_error("probe: fill range outside the arena");
  if (e.dbg.splitArena) throw std::runtime_error("probe: not with RTCUDA_DEBUG=split-arena");
  CK(cudaSetDevice(0));
  copyInputs(e, rows, in);
  for (int i = 0; i < layers; i++) {
    // The fill lands just before the last layer runs: what that layer reads of memory it has not been given shows.
    if (i == layers - 1 && fillOff >= 0) CK(cudaMemsetAsync(e.arena + fillOff, fillByte, fillBytes, e.h.stream));
    e.runLayer(*p.layers[(size_t)i], batch, (size_t)i);
  }
  CK(cudaStreamSynchronize(e.h.stream));
  CK(cudaMemcpy(out, e.arena + off, bytes, cudaMemcpyDeviceToHost));
}

void Engine::run(int batch, int rows, const std::vector<std::vector<Piece>>& in, const std::vector<void*>& out,
                 const std::vector<size_t>& outBytes) {
  std::lock_guard<std::mutex> g(mu_);
  EngineImpl& e = *impl_;
  if (rows < 1 || rows > batch) throw std::runtime_error("rows must be in [1, batch]");
  if (in.size() != e.inputs.size() || out.size() != e.outputs.size()) throw std::runtime_error("wrong number of inputs or outputs");
  Program& p = e.program(batch);
  CK(cudaSetDevice(0));
  copyInputs(e, rows, in);
  e.launch(p);
  for (size_t i = 0; i < out.size(); i++) {
    size_t n = (size_t)e.outputs[i].rowBytes * rows;
    if (outBytes[i] != n) throw std::runtime_error("output '" + e.outputs[i].name + "' buffer has the wrong size");
    CK(cudaMemcpyAsync(e.outputs[i].pinned, e.at(e.outputs[i].off), n, cudaMemcpyDeviceToHost, e.h.stream));
  }
  CK(cudaStreamSynchronize(e.h.stream));
  for (size_t i = 0; i < out.size(); i++) parallelCopy(out[i], e.outputs[i].pinned, outBytes[i]);
}

std::string Engine::bench(int batch, int iters) {
  std::lock_guard<std::mutex> g(mu_);
  EngineImpl& e = *impl_;
  Program& p = e.program(batch);
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 5; i++) e.launch(p);
  CK(cudaStreamSynchronize(e.h.stream));
  std::vector<float> lat;
  for (int i = 0; i < iters; i++) {
    CK(cudaEventRecord(a, e.h.stream));
    e.launch(p);
    CK(cudaEventRecord(b, e.h.stream));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    lat.push_back(ms * 1000.f);
  }
  // Back-to-back launches: the steady-state time per batch when the GPU never waits for the host.
  CK(cudaEventRecord(a, e.h.stream));
  for (int i = 0; i < iters; i++) e.launch(p);
  CK(cudaEventRecord(b, e.h.stream));
  CK(cudaEventSynchronize(b));
  float total;
  CK(cudaEventElapsedTime(&total, a, b));
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::ostringstream o;
  o << "{\"batch\":" << batch << ",\"graph\":" << (p.exec ? "true" : "false") << ",\"latencyUs\":[";
  for (size_t i = 0; i < lat.size(); i++) o << (i ? "," : "") << fmt(lat[i]);
  o << "],\"throughputUsPerBatch\":" << fmt(total * 1000.0 / iters) << "}";
  return o.str();
}

std::string Engine::describe() {
  std::lock_guard<std::mutex> g(mu_);
  EngineImpl& e = *impl_;
  std::ostringstream o;
  o << "{\"arenaBytes\":" << e.arenaBytes << ",\"weightBytes\":" << e.weightBytes << ",\"workspaceBytes\":" << e.wsBytes << ",\"programs\":[";
  for (size_t i = 0; i < e.programs.size(); i++) {
    auto& p = e.programs[i];
    o << (i ? "," : "") << "{\"batch\":" << p.batch << ",\"graph\":" << (p.exec ? "true" : "false")
      << ",\"captureError\":" << jsonStr(p.captureError) << ",\"layers\":" << p.layers.size() << ",\"historyDependent\":" << (p.historyDependent ? "true" : "false") << ",\"pdlEdges\":" << p.pdlEdges << ",\"replaced\":[";
    for (size_t r = 0; r < p.replaced.size(); r++) o << (r ? "," : "") << p.replaced[r];
    o << "],\"tactics\":[";
    bool first = true;
    for (auto& l : p.layers) {
      if (l->kind != "conv" && l->kind != "gemm") continue;
      o << (first ? "" : ",") << "{\"name\":" << jsonStr(l->name) << ",\"tactic\":" << l->tacticJson() << "}";
      first = false;
    }
    o << "]}";
  }
  o << "]}";
  return o.str();
}

}  // namespace rt
