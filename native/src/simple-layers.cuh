// rtserve native CUDA engine: the layers that run one of our own kernels (conversions, element-wise, pooling,
// softmax, transposes, copies); used by the layer factory only.
#pragma once
#include "layer.cuh"

namespace rt {

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

}  // namespace rt
