// rtserve native CUDA engine: the typed element-wise and indexing layers (ew, gather, gather_elements, topk,
// resize, pad); used by the layer factory only.
#pragma once
#include "index-kernels.cuh"
#include "layer.cuh"

namespace rt {

inline int storeCode(const std::string& t) { return t == "f16" ? ST_F16 : t == "i32" ? ST_I32 : ST_F32; }

inline int rankOf(const std::vector<int64_t>& d, const char* what) {
  if (d.empty() || d.size() > (size_t)kMaxRank) throw std::runtime_error(std::string(what) + ": rank must be 1..6");
  return (int)d.size();
}

struct EwLayer : Layer {
  Ref a, b, c, y;
  int ta, tb, tc, ty, rank, op;
  bool isInt;
  Dims6 od, sa, sb, sc;
  explicit EwLayer(const Json& j) {
    a = parseRef(j["a"]); b = parseRef(j["b"]); c = parseRef(j["c"]); y = parseRef(j["y"]);
    ta = storeCode(j.s("ta", "f16")); tb = storeCode(j.s("tb", "f16")); tc = storeCode(j.s("tc", "f16")); ty = storeCode(j.s("ty", "f16"));
    auto d = j.ints("dims");
    rank = rankOf(d, "ew");
    od = dims6(d); sa = dims6(j.ints("sa")); sb = dims6(j.ints("sb")); sc = dims6(j.ints("sc"));
    op = (int)j.i64("op"); isInt = j.i64("int", 0) != 0;
  }
  void run(const Ctx& k) override {
    launchEw(k.p<void>(a), k.p<void>(b), k.p<void>(c), k.p<void>(y), ta, tb, tc, ty, rank, od, sa, sb, sc, op, isInt, k.stream);
  }
};

struct GatherLayer : Layer {
  Ref x, y;
  int elem, rank;
  Dims6 od, is;
  int64_t xOff;
  explicit GatherLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    elem = (int)j.i64("elem", 2);
    auto d = j.ints("dims");
    rank = rankOf(d, "gather");
    od = dims6(d); is = dims6(j.ints("inStrides")); xOff = j.i64("xOff", 0);
  }
  void run(const Ctx& k) override { launchGather(k.p<void>(x), k.p<void>(y), elem, rank, od, is, xOff, k.stream); }
};

struct GatherElementsLayer : Layer {
  Ref x, idx, y;
  int elem, rank, axis;
  Dims6 od, xs;
  int64_t axisLen;
  explicit GatherElementsLayer(const Json& j) {
    x = parseRef(j["x"]); idx = parseRef(j["idx"]); y = parseRef(j["y"]);
    elem = (int)j.i64("elem", 2);
    auto d = j.ints("dims");
    rank = rankOf(d, "gather_elements");
    od = dims6(d); xs = dims6(j.ints("xStrides")); axis = (int)j.i64("axis"); axisLen = j.i64("axisLen");
  }
  void run(const Ctx& k) override {
    launchGatherElements(k.p<void>(x), k.p<float>(idx), k.p<void>(y), elem, rank, od, xs, axis, axisLen, k.stream);
  }
};

struct TopKLayer : Layer {
  Ref x, vals, inds;
  int64_t outer, len, inner, kk;
  bool largest;
  explicit TopKLayer(const Json& j) {
    x = parseRef(j["x"]); vals = parseRef(j["values"]); inds = parseRef(j["indices"]);
    outer = j.i64("outer"); len = j.i64("len"); inner = j.i64("inner", 1); kk = j.i64("k"); largest = j.i64("largest", 1) != 0;
  }
  void run(const Ctx& k) override { launchTopK(k.p(x), k.p(vals), k.p<float>(inds), outer, len, inner, kk, largest, k.stream); }
};

struct ResizeLayer : Layer {
  Ref x, y;
  int64_t n, c, h, w, oh, ow;
  float scaleH, scaleW;
  bool linear;
  int coord, nearest;
  explicit ResizeLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    n = j.i64("n"); c = j.i64("c"); h = j.i64("h"); w = j.i64("w"); oh = j.i64("oh"); ow = j.i64("ow");
    scaleH = (float)j.f64("scaleH", 1); scaleW = (float)j.f64("scaleW", 1);
    linear = j.i64("linear", 0) != 0; coord = (int)j.i64("coord", 0); nearest = (int)j.i64("nearest", 0);
  }
  void run(const Ctx& k) override { launchResize(k.p(x), k.p(y), n, c, h, w, oh, ow, scaleH, scaleW, linear, coord, nearest, k.stream); }
};

struct PadLayer : Layer {
  Ref x, y;
  int elem, rank;
  Dims6 od, id, before;
  float value;
  explicit PadLayer(const Json& j) {
    x = parseRef(j["x"]); y = parseRef(j["y"]);
    elem = (int)j.i64("elem", 2);
    auto d = j.ints("dims");
    rank = rankOf(d, "pad");
    od = dims6(d); id = dims6(j.ints("inDims")); before = dims6(j.ints("before")); value = (float)j.f64("value", 0);
  }
  void run(const Ctx& k) override { launchPad(k.p<void>(x), k.p<void>(y), elem, rank, od, id, before, value, k.stream); }
};

/** The layer for one of these kinds, or null. */
inline std::unique_ptr<Layer> makeIndexLayer(const std::string& kind, const Json& j) {
  if (kind == "ew") return std::unique_ptr<Layer>(new EwLayer(j));
  if (kind == "gather") return std::unique_ptr<Layer>(new GatherLayer(j));
  if (kind == "gather_elements") return std::unique_ptr<Layer>(new GatherElementsLayer(j));
  if (kind == "topk") return std::unique_ptr<Layer>(new TopKLayer(j));
  if (kind == "resize") return std::unique_ptr<Layer>(new ResizeLayer(j));
  if (kind == "pad") return std::unique_ptr<Layer>(new PadLayer(j));
  return nullptr;
}

}  // namespace rt
