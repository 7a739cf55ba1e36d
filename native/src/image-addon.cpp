// rtserve native CUDA engine: the Node-API surface of the GPU image path (issue #19), added to the addon's exports
// by addon.cpp's Init (rtDefineImageExports).
//
//   imageDecoder(): handle                                   nvJPEG handles, a device pool, one stream
//   imageDecoderInfo(dec): string                            JSON: nvJPEG version, the batched backend (hardware / gpu-hybrid)
//   decodeImages(dec, items, meta, specJson, out): Promise<string>
//       items: Uint8Array[] (encoded JPEGs or raw RGB frames); meta: Int32Array, 7 per item
//       (encoded 0/1, width, height, resizeW, resizeH, offsetX, offsetY); out: the rows, host memory (empty: the rows
//       stay on the device, for benchmarks of the decode alone).
//       Resolves with the per-image statuses (JSON array: ok, width, height, backend, code, message).
//   runImages(engine, dec, batch, rows, items, meta, specJson, outputs): Promise<string>
//       the same images decoded straight into the engine's (only) input in its arena, then the engine's run.
#include <node_api.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine.h"
#include "image-decode.h"

// From addon.cpp (its helpers, shared with this file).
bool rtViewBytes(napi_env env, napi_value v, void** data, size_t* bytes);
rt::Engine* rtEngineOf(napi_env env, napi_value handle, std::atomic<int>** pending);
void rtReject(napi_env env, napi_deferred d, const std::string& msg);
napi_value rtThrow(napi_env env, const std::string& msg);
bool rtGetString(napi_env env, napi_value v, std::string* out);

namespace {


struct DecoderHolder {
  rt::ImageDecoder* decoder = nullptr;
};

void finalizeDecoder(napi_env, void* data, void*) {
  auto* h = static_cast<DecoderHolder*>(data);
  delete h->decoder;
  delete h;
}

rt::ImageDecoder* decoderOf(napi_env env, napi_value v) {
  void* p = nullptr;
  if (napi_get_value_external(env, v, &p) != napi_ok || p == nullptr) return nullptr;
  return static_cast<DecoderHolder*>(p)->decoder;
}

napi_value ImageDecoderNew(napi_env env, napi_callback_info) {
  try {
    auto* h = new DecoderHolder();
    h->decoder = new rt::ImageDecoder();
    napi_value ext;
    napi_create_external(env, h, finalizeDecoder, nullptr, &ext);
    return ext;
  } catch (const std::exception& e) {
    return rtThrow(env, std::string("imageDecoder: ") + e.what());
  }
}

napi_value ImageDecoderInfo(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  rt::ImageDecoder* d = argc < 1 ? nullptr : decoderOf(env, argv[0]);
  if (d == nullptr) return rtThrow(env, "imageDecoderInfo(decoder)");
  std::string s = d->describe();
  napi_value v;
  napi_create_string_utf8(env, s.c_str(), s.size(), &v);
  return v;
}

struct ImageWork {
  napi_async_work work = nullptr;
  napi_deferred deferred = nullptr;
  std::vector<napi_ref> refs;
  rt::ImageDecoder* decoder = nullptr;
  rt::Engine* engine = nullptr;
  std::atomic<int>* pending = nullptr;
  int batch = 0, rows = 0;
  std::vector<rt::ImageItem> items;
  rt::ImageSpecNative spec;
  void* out = nullptr;
  size_t outBytes = 0;
  std::vector<void*> outs;
  std::vector<size_t> outsBytes;
  std::string result, error;
};

void keep(napi_env env, ImageWork* w, napi_value v) {
  napi_ref r;
  napi_create_reference(env, v, 1, &r);
  w->refs.push_back(r);
}

void imageExecute(napi_env, void* data) {
  auto* w = static_cast<ImageWork*>(data);
  try {
    if (w->engine == nullptr) {
      w->result = rt::imageStatusesJson(w->decoder->decodeToHost(w->items, w->spec, w->out, w->outBytes));
      return;
    }
    std::vector<rt::ImageStatus> st;
    auto fill = [&](void* dev, size_t rowBytes) {
      if (rowBytes != w->spec.rowBytes())
        throw std::runtime_error("the engine's input row is " + std::to_string(rowBytes) + " bytes, the image spec gives " + std::to_string(w->spec.rowBytes()));
      st = w->decoder->decodeInto(w->items, w->spec, dev);
    };
    std::vector<std::vector<rt::Piece>> in(1);
    w->engine->runFilled(w->batch, w->rows, in, 0, fill, w->outs, w->outsBytes);
    w->result = rt::imageStatusesJson(st);
  } catch (const std::exception& e) {
    w->error = e.what();
  }
}

void imageComplete(napi_env env, napi_status, void* data) {
  auto* w = static_cast<ImageWork*>(data);
  for (auto r : w->refs) napi_delete_reference(env, r);
  if (w->pending) (*w->pending)--;
  if (!w->error.empty()) {
    rtReject(env, w->deferred, w->error);
  } else {
    napi_value v;
    napi_create_string_utf8(env, w->result.c_str(), w->result.size(), &v);
    napi_resolve_deferred(env, w->deferred, v);
  }
  napi_delete_async_work(env, w->work);
  delete w;
}

/** items (array of byte views) + meta (Int32Array, 7 per item) + spec JSON into `w`; an error message or "". */
std::string readImages(napi_env env, napi_value items, napi_value meta, napi_value specJson, ImageWork* w) {
  bool isArr = false;
  napi_is_array(env, items, &isArr);
  if (!isArr) return "items must be an array of Uint8Array";
  uint32_t n = 0;
  napi_get_array_length(env, items, &n);
  void* m = nullptr;
  size_t mBytes = 0;
  if (!rtViewBytes(env, meta, &m, &mBytes) || mBytes != (size_t)n * 7 * sizeof(int32_t)) return "meta must be an Int32Array of 7 values per item";
  keep(env, w, meta);
  const int32_t* mv = static_cast<const int32_t*>(m);
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    napi_get_element(env, items, i, &v);
    void* d = nullptr;
    size_t b = 0;
    if (!rtViewBytes(env, v, &d, &b)) return "item " + std::to_string(i) + " is not a byte view";
    keep(env, w, v);
    rt::ImageItem it;
    it.data = static_cast<const uint8_t*>(d);
    it.bytes = b;
    const int32_t* q = mv + (size_t)i * 7;
    it.encoded = q[0] != 0;
    it.width = q[1]; it.height = q[2]; it.resizeW = q[3]; it.resizeH = q[4]; it.offsetX = q[5]; it.offsetY = q[6];
    w->items.push_back(it);
  }
  std::string spec;
  if (!rtGetString(env, specJson, &spec)) return "specJson must be a string";
  try {
    w->spec = rt::ImageSpecNative::fromJson(spec);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

napi_value queue(napi_env env, ImageWork* w, const char* name) {
  napi_value promise, n;
  napi_create_promise(env, &w->deferred, &promise);
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &n);
  napi_create_async_work(env, nullptr, n, imageExecute, imageComplete, w, &w->work);
  napi_queue_async_work(env, w->work);
  return promise;
}

napi_value drop(napi_env env, ImageWork* w, const std::string& msg) {
  for (auto r : w->refs) napi_delete_reference(env, r);
  delete w;
  return rtThrow(env, msg);
}

napi_value DecodeImages(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 5) return rtThrow(env, "decodeImages(decoder, items, meta, specJson, out)");
  auto* w = new ImageWork();
  w->decoder = decoderOf(env, argv[0]);
  if (w->decoder == nullptr) return drop(env, w, "decodeImages: not an image decoder");
  keep(env, w, argv[0]);
  std::string err = readImages(env, argv[1], argv[2], argv[3], w);
  if (!err.empty()) return drop(env, w, "decodeImages: " + err);
  if (!rtViewBytes(env, argv[4], &w->out, &w->outBytes)) return drop(env, w, "decodeImages: out must be a typed array");
  keep(env, w, argv[4]);
  return queue(env, w, "rtcuda.decodeImages");
}

napi_value RunImages(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 8) return rtThrow(env, "runImages(engine, decoder, batch, rows, items, meta, specJson, outputs)");
  auto* w = new ImageWork();
  w->engine = rtEngineOf(env, argv[0], &w->pending);
  w->decoder = decoderOf(env, argv[1]);
  if (w->engine == nullptr || w->decoder == nullptr) return drop(env, w, "runImages: not a live engine handle and image decoder");
  keep(env, w, argv[0]);
  keep(env, w, argv[1]);
  napi_get_value_int32(env, argv[2], &w->batch);
  napi_get_value_int32(env, argv[3], &w->rows);
  std::string err = readImages(env, argv[4], argv[5], argv[6], w);
  if (!err.empty()) return drop(env, w, "runImages: " + err);
  if ((int)w->items.size() != w->rows) return drop(env, w, "runImages: rows must equal the number of images");
  bool isArr = false;
  napi_is_array(env, argv[7], &isArr);
  uint32_t n = 0;
  if (isArr) napi_get_array_length(env, argv[7], &n);
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    napi_get_element(env, argv[7], i, &v);
    void* d = nullptr;
    size_t b = 0;
    if (!rtViewBytes(env, v, &d, &b)) return drop(env, w, "runImages: outputs must be typed arrays");
    keep(env, w, v);
    w->outs.push_back(d);
    w->outsBytes.push_back(b);
  }
  if (!isArr) return drop(env, w, "runImages: outputs must be an array");
  (*w->pending)++;
  return queue(env, w, "rtcuda.runImages");
}

}  // namespace

void rtDefineImageExports(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"imageDecoder", nullptr, ImageDecoderNew, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"imageDecoderInfo", nullptr, ImageDecoderInfo, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"decodeImages", nullptr, DecodeImages, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"runImages", nullptr, RunImages, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
}
