// rtserve native CUDA engine: the Node-API surface (plain node_api.h, no node-addon-api).
//
//   deviceCount(): number                      CUDA devices this process sees (CUDA_VISIBLE_DEVICES, MIG applied)
//   deviceInfo(device?): string                JSON: device, compute capability, CUDA / cuDNN / cuBLASLt versions
//   tune(layerJson, optionsJson): string       times a layer's candidate tactics (build time, synchronous)
//   create(networkJson, weights, device?): Promise<h>   on that device (default 0): uploads weights, builds
//                                              tactics, captures a CUDA graph per batch
//   run(h, batch, rows, inputs, outputs): Promise<void>   copies in, launches, copies out (off the event loop)
//   bench(h, batch, iters): Promise<string>    GPU-only timings of one program
//   probe(h, batch, rows, inputs, layers, off, out): Promise<void>   diagnostics: a layer's output after `layers` layers
//   describe(h): string                        tactics and graph state per program
//   destroy(h): void
//   mapShm(path, offset, byteSize): ArrayBuffer    a /dev/shm object mapped shared (system shared memory, zero-copy)
//   imageDecoder, imageDecoderInfo, decodeImages, runImages    the GPU image path (image-addon.cpp, issue #19)
#include <node_api.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>
#include <cstring>
#include <string>
#include <vector>

#include "engine.h"

namespace {

struct Holder {
  rt::Engine* engine = nullptr;
  std::atomic<int> pending{0};
};

#define NAPI_CALL(env, call)                                   \
  do {                                                         \
    if ((call) != napi_ok) {                                   \
      napi_throw_error((env), "ERR_RTCUDA", "napi call failed: " #call); \
      return nullptr;                                          \
    }                                                          \
  } while (0)

napi_value throwError(napi_env env, const std::string& msg) {
  napi_throw_error(env, "ERR_RTCUDA", msg.c_str());
  return nullptr;
}

bool getString(napi_env env, napi_value v, std::string* out) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, nullptr, 0, &len) != napi_ok) return false;
  out->resize(len);
  size_t got = 0;
  if (napi_get_value_string_utf8(env, v, &(*out)[0], len + 1, &got) != napi_ok) return false;
  out->resize(got);
  return true;
}

napi_value makeString(napi_env env, const std::string& s) {
  napi_value v;
  napi_create_string_utf8(env, s.c_str(), s.size(), &v);
  return v;
}

/** Data pointer and byte length of a TypedArray / Buffer / DataView. */
bool viewBytes(napi_env env, napi_value v, void** data, size_t* bytes) {
  bool is = false;
  napi_is_typedarray(env, v, &is);
  if (is) {
    napi_typedarray_type t;
    size_t len = 0, off = 0;
    napi_value ab;
    if (napi_get_typedarray_info(env, v, &t, &len, data, &ab, &off) != napi_ok) return false;
    size_t es = 1;
    switch (t) {
      case napi_int16_array: case napi_uint16_array: es = 2; break;
      case napi_int32_array: case napi_uint32_array: case napi_float32_array: es = 4; break;
      case napi_float64_array: case napi_bigint64_array: case napi_biguint64_array: es = 8; break;
      default: es = 1;
    }
    *bytes = len * es;
    return true;
  }
  napi_is_dataview(env, v, &is);
  if (is) {
    napi_value ab;
    size_t off = 0;
    return napi_get_dataview_info(env, v, bytes, data, &ab, &off) == napi_ok;
  }
  return false;
}

Holder* getHolder(napi_env env, napi_value v) {
  void* p = nullptr;
  if (napi_get_value_external(env, v, &p) != napi_ok) return nullptr;
  return static_cast<Holder*>(p);
}

void finalizeHolder(napi_env, void* data, void*) {
  Holder* h = static_cast<Holder*>(data);
  delete h->engine;
  delete h;
}

// ---- deviceInfo / tune ---------------------------------------------------------------------------------------

napi_value DeviceCount(napi_env env, napi_callback_info) {
  napi_value n;
  napi_create_int32(env, rt::deviceCount(), &n);
  return n;
}

napi_value DeviceInfo(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  int32_t device = -1;
  if (argc >= 1 && napi_get_value_int32(env, argv[0], &device) != napi_ok) return throwError(env, "deviceInfo(device?: number)");
  try {
    return makeString(env, rt::deviceInfoJson(device));
  } catch (const std::exception& e) {
    return throwError(env, e.what());
  }
}

napi_value Tune(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  std::string layer, opts;
  if (argc < 2 || !getString(env, argv[0], &layer) || !getString(env, argv[1], &opts)) return throwError(env, "tune(layerJson, optionsJson)");
  try {
    return makeString(env, rt::tuneLayer(layer, opts));
  } catch (const std::exception& e) {
    return throwError(env, e.what());
  }
}

// ---- create (async) ---------------------------------------------------------------------------------------------

struct CreateWork {
  napi_async_work work = nullptr;
  napi_deferred deferred = nullptr;
  napi_ref weightsRef = nullptr;
  std::string json;
  const void* weights = nullptr;
  size_t weightBytes = 0;
  int device = 0;
  rt::Engine* engine = nullptr;
  std::string error;
};

void createExecute(napi_env, void* data) {
  auto* w = static_cast<CreateWork*>(data);
  try {
    w->engine = new rt::Engine(w->json, w->weights, w->weightBytes, w->device);
  } catch (const std::exception& e) {
    w->error = e.what();
  }
}

void rejectWith(napi_env env, napi_deferred d, const std::string& msg) {
  napi_value m, code, err;
  napi_create_string_utf8(env, msg.c_str(), msg.size(), &m);
  napi_create_string_utf8(env, "ERR_RTCUDA", NAPI_AUTO_LENGTH, &code);
  napi_create_error(env, code, m, &err);
  napi_reject_deferred(env, d, err);
}

void createComplete(napi_env env, napi_status, void* data) {
  auto* w = static_cast<CreateWork*>(data);
  if (w->weightsRef) napi_delete_reference(env, w->weightsRef);
  if (!w->error.empty()) {
    rejectWith(env, w->deferred, w->error);
  } else {
    auto* h = new Holder();
    h->engine = w->engine;
    napi_value ext;
    napi_create_external(env, h, finalizeHolder, nullptr, &ext);
    napi_resolve_deferred(env, w->deferred, ext);
  }
  napi_delete_async_work(env, w->work);
  delete w;
}

napi_value Create(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  auto* w = new CreateWork();
  void* data = nullptr;
  napi_valuetype deviceType = napi_undefined;
  if (argc >= 3) napi_typeof(env, argv[2], &deviceType);
  if (argc < 2 || !getString(env, argv[0], &w->json) || !viewBytes(env, argv[1], &data, &w->weightBytes) ||
      (deviceType != napi_undefined && napi_get_value_int32(env, argv[2], &w->device) != napi_ok)) {
    delete w;
    return throwError(env, "create(networkJson, weights: Uint8Array, device?: number)");
  }
  w->weights = data;
  napi_create_reference(env, argv[1], 1, &w->weightsRef);
  napi_value promise, name;
  napi_create_promise(env, &w->deferred, &promise);
  napi_create_string_utf8(env, "rtcuda.create", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, nullptr, name, createExecute, createComplete, w, &w->work);
  napi_queue_async_work(env, w->work);
  return promise;
}

// ---- run (async) ------------------------------------------------------------------------------------------------

struct RunWork {
  napi_async_work work = nullptr;
  napi_deferred deferred = nullptr;
  std::vector<napi_ref> refs;
  Holder* holder = nullptr;
  int batch = 0, rows = 0, iters = 0, layers = 0;
  int64_t probeOff = -1, fillOff = -1, fillBytes = 0;
  int fillByte = 0;
  bool isBench = false;
  std::vector<std::vector<rt::Piece>> in;
  std::vector<void*> out;
  std::vector<size_t> outBytes;
  std::string result, error;
};

void runExecute(napi_env, void* data) {
  auto* w = static_cast<RunWork*>(data);
  try {
    if (w->holder->engine == nullptr) throw std::runtime_error("the engine was destroyed");
    if (w->isBench) w->result = w->holder->engine->bench(w->batch, w->iters);
    else if (w->probeOff >= 0) w->holder->engine->probe(w->batch, w->rows, w->in, w->layers, (size_t)w->probeOff, w->out[0], w->outBytes[0],
                                                                w->fillOff, (size_t)w->fillBytes, w->fillByte);
    else w->holder->engine->run(w->batch, w->rows, w->in, w->out, w->outBytes);
  } catch (const std::exception& e) {
    w->error = e.what();
  }
}

void runComplete(napi_env env, napi_status, void* data) {
  auto* w = static_cast<RunWork*>(data);
  for (auto r : w->refs) napi_delete_reference(env, r);
  w->holder->pending--;
  if (!w->error.empty()) {
    rejectWith(env, w->deferred, w->error);
  } else {
    napi_value v;
    if (w->isBench) v = makeString(env, w->result);
    else napi_get_undefined(env, &v);
    napi_resolve_deferred(env, w->deferred, v);
  }
  napi_delete_async_work(env, w->work);
  delete w;
}

/** One typed array: its bytes, kept alive by a reference until the run completes. */
bool collectView(napi_env env, napi_value v, RunWork* w, void** d, size_t* b) {
  if (!viewBytes(env, v, d, b)) return false;
  napi_ref r;
  napi_create_reference(env, v, 1, &r);
  w->refs.push_back(r);
  return true;
}

/** Inputs: each a typed array or an array of typed arrays (a batch's pieces); outputs: typed arrays. */
bool collectViews(napi_env env, napi_value arr, RunWork* w, bool isInput) {
  bool isArr = false;
  napi_is_array(env, arr, &isArr);
  if (!isArr) return false;
  uint32_t n = 0;
  napi_get_array_length(env, arr, &n);
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    napi_get_element(env, arr, i, &v);
    void* d = nullptr;
    size_t b = 0;
    bool pieces = false;
    if (isInput) napi_is_array(env, v, &pieces);
    if (pieces) {
      std::vector<rt::Piece> list;
      uint32_t m = 0;
      napi_get_array_length(env, v, &m);
      for (uint32_t j = 0; j < m; j++) {
        napi_value pv;
        napi_get_element(env, v, j, &pv);
        if (!collectView(env, pv, w, &d, &b)) return false;
        list.push_back(rt::Piece{d, b});
      }
      w->in.push_back(std::move(list));
      continue;
    }
    if (!collectView(env, v, w, &d, &b)) return false;
    if (isInput) w->in.push_back({rt::Piece{d, b}});
    else { w->out.push_back(d); w->outBytes.push_back(b); }
  }
  return true;
}

/** Gives up a run not yet queued: its references released, `msg` thrown. */
napi_value dropRun(napi_env env, RunWork* w, const std::string& msg) {
  for (auto r : w->refs) napi_delete_reference(env, r);
  delete w;
  return throwError(env, msg);
}

napi_value queueRun(napi_env env, RunWork* w, napi_value handle) {
  napi_ref hr;
  napi_create_reference(env, handle, 1, &hr);
  w->refs.push_back(hr);
  w->holder->pending++;
  napi_value promise, name;
  napi_create_promise(env, &w->deferred, &promise);
  napi_create_string_utf8(env, w->isBench ? "rtcuda.bench" : "rtcuda.run", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, nullptr, name, runExecute, runComplete, w, &w->work);
  napi_queue_async_work(env, w->work);
  return promise;
}

/** A run of the live engine behind `handle`, its batch read from `batchArg`; nullptr when `handle` is not a live engine. */
RunWork* newRunWork(napi_env env, napi_value handle, napi_value batchArg) {
  Holder* h = getHolder(env, handle);
  if (h == nullptr || h->engine == nullptr) return nullptr;
  auto* w = new RunWork();
  w->holder = h;
  napi_get_value_int32(env, batchArg, &w->batch);
  return w;
}

napi_value Run(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  if (argc < 5) return throwError(env, "run(handle, batch, rows, inputs, outputs)");
  auto* w = newRunWork(env, argv[0], argv[1]);
  if (w == nullptr) return throwError(env, "run: not a live engine handle");
  napi_get_value_int32(env, argv[2], &w->rows);
  if (!collectViews(env, argv[3], w, true) || !collectViews(env, argv[4], w, false)) {
    return dropRun(env, w, "run: inputs must be typed arrays or arrays of them, outputs typed arrays");
  }
  return queueRun(env, w, argv[0]);
}

napi_value Probe(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value argv[10];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  if (argc < 7) return throwError(env, "probe(handle, batch, rows, inputs, layers, arenaOffset, out[, fillOffset, fillBytes, fillByte])");
  auto* w = newRunWork(env, argv[0], argv[1]);
  if (w == nullptr) return throwError(env, "probe: not a live engine handle");
  napi_get_value_int32(env, argv[2], &w->rows);
  napi_get_value_int32(env, argv[4], &w->layers);
  napi_get_value_int64(env, argv[5], &w->probeOff);
  if (argc >= 10) {
    napi_get_value_int64(env, argv[7], &w->fillOff);
    napi_get_value_int64(env, argv[8], &w->fillBytes);
    napi_get_value_int32(env, argv[9], &w->fillByte);
  }
  napi_value outs;
  napi_create_array_with_length(env, 1, &outs);
  napi_set_element(env, outs, 0, argv[6]);
  if (w->probeOff < 0 || !collectViews(env, argv[3], w, true) || !collectViews(env, outs, w, false)) {
    return dropRun(env, w, "probe: inputs must be typed arrays or arrays of them, out a typed array, the offset >= 0");
  }
  return queueRun(env, w, argv[0]);
}

napi_value Bench(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  if (argc < 3) return throwError(env, "bench(handle, batch, iters)");
  auto* w = newRunWork(env, argv[0], argv[1]);
  if (w == nullptr) return throwError(env, "bench: not a live engine handle");
  w->isBench = true;
  napi_get_value_int32(env, argv[2], &w->iters);
  return queueRun(env, w, argv[0]);
}

napi_value Describe(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  Holder* h = argc < 1 ? nullptr : getHolder(env, argv[0]);
  if (h == nullptr || h->engine == nullptr) return throwError(env, "describe: not a live engine handle");
  try {
    return makeString(env, h->engine->describe());
  } catch (const std::exception& e) {
    return throwError(env, e.what());
  }
}

napi_value Destroy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  Holder* h = argc < 1 ? nullptr : getHolder(env, argv[0]);
  if (h == nullptr) return throwError(env, "destroy: not an engine handle");
  if (h->pending > 0) return throwError(env, "destroy: runs are still in flight on this engine");
  delete h->engine;  // the engine's destructor waits for its stream
  h->engine = nullptr;
  napi_value u;
  napi_get_undefined(env, &u);
  return u;
}

// ---- mapShm: a POSIX shared memory object as an ArrayBuffer ---------------------------------------------------

struct Mapping {
  void* base;
  size_t length;
  bool registered;
};

void unmap(napi_env, void*, void* hint) {
  auto* m = static_cast<Mapping*>(hint);
  if (m->registered) rt::unregisterHostMemory(m->base);
  munmap(m->base, m->length);
  delete m;
}

/**
 * mapShm(path, offset, byteSize): ArrayBuffer over [offset, offset + byteSize) of the file at `path` (a /dev/shm object),
 * mapped shared and read-write: reads see what the client wrote, writes reach the client, nothing is copied. The
 * mapping is also page-locked for CUDA when it allows, so engine runs copy inputs in it to the GPU directly (DMA).
 * It lives until the ArrayBuffer is garbage-collected.
 */
napi_value MapShm(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr));
  std::string path;
  int64_t offset = 0, size = 0;
  if (argc < 3 || !getString(env, argv[0], &path) || napi_get_value_int64(env, argv[1], &offset) != napi_ok ||
      napi_get_value_int64(env, argv[2], &size) != napi_ok || offset < 0 || size <= 0) {
    return throwError(env, "mapShm(path, offset >= 0, byteSize > 0)");
  }
  int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return throwError(env, "mapShm: cannot open " + path + ": " + strerror(errno));
  long page = sysconf(_SC_PAGESIZE);
  size_t delta = (size_t)offset % (size_t)page;
  size_t length = (size_t)size + delta;
  void* base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset - (off_t)delta);
  int err = errno;
  close(fd);
  if (base == MAP_FAILED) return throwError(env, "mapShm: cannot map " + path + ": " + strerror(err));
  auto* m = new Mapping{base, length, rt::registerHostMemory(base, length)};
  napi_value ab;
  if (napi_create_external_arraybuffer(env, (char*)base + delta, (size_t)size, unmap, m, &ab) != napi_ok) {
    if (m->registered) rt::unregisterHostMemory(base);
    munmap(base, length);
    delete m;
    return throwError(env, "mapShm: napi_create_external_arraybuffer failed");
  }
  return ab;
}

}  // namespace

// ---- shared with image-addon.cpp (the GPU image path, issue #19) -----------------------------------------------
bool rtViewBytes(napi_env env, napi_value v, void** data, size_t* bytes) { return viewBytes(env, v, data, bytes); }
napi_value rtThrow(napi_env env, const std::string& msg) { return throwError(env, msg); }
bool rtGetString(napi_env env, napi_value v, std::string* out) { return getString(env, v, out); }
rt::Engine* rtEngineOf(napi_env env, napi_value handle, std::atomic<int>** pending) {
  Holder* h = getHolder(env, handle);
  if (h == nullptr || h->engine == nullptr) return nullptr;
  *pending = &h->pending;
  return h->engine;
}
void rtReject(napi_env env, napi_deferred d, const std::string& msg) { rejectWith(env, d, msg); }
void rtDefineImageExports(napi_env env, napi_value exports);
void rtDefineLlmExports(napi_env env, napi_value exports);  // src/llm/llm-addon.cu (issue #31)

namespace {

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"deviceCount", nullptr, DeviceCount, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"deviceInfo", nullptr, DeviceInfo, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"tune", nullptr, Tune, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"create", nullptr, Create, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"run", nullptr, Run, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"bench", nullptr, Bench, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"probe", nullptr, Probe, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"describe", nullptr, Describe, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"destroy", nullptr, Destroy, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"mapShm", nullptr, MapShm, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  rtDefineImageExports(env, exports);
  rtDefineLlmExports(env, exports);
  napi_value version;
  napi_create_string_utf8(env, "3", NAPI_AUTO_LENGTH, &version);
  napi_set_named_property(env, exports, "abiVersion", version);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
