// rtserve native CUDA engine: one convolution as the plan describes it (shapes, padding, operands, activation).
#pragma once
#include "layer.cuh"

namespace rt {

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

}  // namespace rt
