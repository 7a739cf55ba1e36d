// rtserve native CUDA engine: a layer from its plan JSON.
#include "conv-layer.cuh"
#include "gemm-layer.cuh"
#include "index-layers.cuh"
#include "simple-layers.cuh"

namespace rt {

std::unique_ptr<Layer> makeLayer(const Json& j, cudnnHandle_t dnn, cublasLtHandle_t lt, size_t wsLimit) {
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
  else if (!(l = makeIndexLayer(kind, j))) throw std::runtime_error("unknown layer kind '" + kind + "'");
  l->name = j.s("name");
  l->kind = kind;
  return l;
}

}  // namespace rt
