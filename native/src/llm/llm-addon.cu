// rtserve native CUDA engine: the Node-API surface of the LLM decoder (issue #31). Every call that touches the device
// runs as async work off the event loop, as the engine's run() does (addon.cpp); steps are ordered by the caller.
//
//   llmCreate(configJson, device?): Promise<h>            allocates the weights on that device
//   llmUpload(h, slot, elemOffset, dtype, rows, cols, transpose, bytes): Promise<void>   one checkpoint tensor
//   llmFinish(h): Promise<string>                         KV blocks, buffers, graphs; the geometry as JSON
//   llmStep(h, meta: Int32Array, params: Float32Array, out: Int32Array): Promise<void>
//   llmCopyBlocks(h, from: Int32Array, to: Int32Array): Promise<void>
//   llmProfile(h, steps): void                            the next steps run uncaptured, timed per phase (llmDescribe)
//   llmDescribe(h): string
//   llmDestroy(h): void                                   frees the device memory (throws while calls are in flight)
#include <node_api.h>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "llm-model.cuh"

bool rtViewBytes(napi_env env, napi_value v, void** data, size_t* bytes);
napi_value rtThrow(napi_env env, const std::string& msg);
bool rtGetString(napi_env env, napi_value v, std::string* out);
void rtReject(napi_env env, napi_deferred d, const std::string& msg);

namespace {

using rt::llm::LlmModel;

struct LlmHolder {
  LlmModel* model = nullptr;
  std::atomic<int> pending{0};
};

void finalizeLlm(napi_env, void* data, void*) {
  auto* h = static_cast<LlmHolder*>(data);
  delete h->model;
  delete h;
}

struct Work {
  napi_async_work work = nullptr;
  napi_deferred deferred = nullptr;
  std::vector<napi_ref> refs;
  LlmHolder* holder = nullptr;
  std::function<std::string()> fn;
  bool resolveString = false;
  bool resolveHandle = false;
  LlmModel* created = nullptr;
  std::string result, error;
};

void execute(napi_env, void* data) {
  auto* w = static_cast<Work*>(data);
  try {
    w->result = w->fn();
  } catch (const std::exception& e) {
    w->error = e.what();
  }
}

void complete(napi_env env, napi_status, void* data) {
  auto* w = static_cast<Work*>(data);
  for (auto r : w->refs) napi_delete_reference(env, r);
  if (w->holder) w->holder->pending--;
  if (!w->error.empty()) {
    delete w->created;
    rtReject(env, w->deferred, w->error);
  } else {
    napi_value v;
    if (w->resolveHandle) {
      auto* h = new LlmHolder();
      h->model = w->created;
      napi_create_external(env, h, finalizeLlm, nullptr, &v);
    } else if (w->resolveString) {
      napi_create_string_utf8(env, w->result.c_str(), w->result.size(), &v);
    } else {
      napi_get_undefined(env, &v);
    }
    napi_resolve_deferred(env, w->deferred, v);
  }
  napi_delete_async_work(env, w->work);
  delete w;
}

napi_value queue(napi_env env, Work* w, const char* name) {
  if (w->holder) w->holder->pending++;
  napi_value promise, n;
  napi_create_promise(env, &w->deferred, &promise);
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &n);
  napi_create_async_work(env, nullptr, n, execute, complete, w, &w->work);
  napi_queue_async_work(env, w->work);
  return promise;
}

/** Keeps `v` alive until the work completes and returns its bytes. */
bool keep(napi_env env, Work* w, napi_value v, void** data, size_t* bytes) {
  if (!rtViewBytes(env, v, data, bytes)) return false;
  napi_ref r;
  napi_create_reference(env, v, 1, &r);
  w->refs.push_back(r);
  return true;
}

napi_value drop(napi_env env, Work* w, const std::string& msg) {
  for (auto r : w->refs) napi_delete_reference(env, r);
  delete w;
  return rtThrow(env, msg);
}

/** The live model behind argv[0], with a Work bound to it (the handle kept alive); nullptr when not live. */
Work* bound(napi_env env, size_t argc, napi_value* argv) {
  if (argc < 1) return nullptr;
  void* p = nullptr;
  if (napi_get_value_external(env, argv[0], &p) != napi_ok) return nullptr;
  auto* h = static_cast<LlmHolder*>(p);
  if (h->model == nullptr) return nullptr;
  auto* w = new Work();
  w->holder = h;
  napi_ref r;
  napi_create_reference(env, argv[0], 1, &r);
  w->refs.push_back(r);
  return w;
}

napi_value Create(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  std::string json;
  int32_t device = 0;
  napi_valuetype t = napi_undefined;
  if (argc >= 2) napi_typeof(env, argv[1], &t);
  if (argc < 1 || !rtGetString(env, argv[0], &json) || (t != napi_undefined && napi_get_value_int32(env, argv[1], &device) != napi_ok))
    return rtThrow(env, "llmCreate(configJson, device?: number)");
  auto* w = new Work();
  w->resolveHandle = true;
  w->fn = [w, json, device]() {
    w->created = new LlmModel(json, device);
    return std::string();
  };
  return queue(env, w, "rtcuda.llmCreate");
}

napi_value Upload(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  Work* w = bound(env, argc, argv);
  if (w == nullptr) return rtThrow(env, "llmUpload: not a live decoder handle");
  std::string slot;
  int64_t off = 0, rows = 0, cols = 0;
  int32_t dtype = 0;
  bool transpose = false;
  void* data = nullptr;
  size_t bytes = 0;
  if (argc < 8 || !rtGetString(env, argv[1], &slot) || napi_get_value_int64(env, argv[2], &off) != napi_ok ||
      napi_get_value_int32(env, argv[3], &dtype) != napi_ok || napi_get_value_int64(env, argv[4], &rows) != napi_ok ||
      napi_get_value_int64(env, argv[5], &cols) != napi_ok || napi_get_value_bool(env, argv[6], &transpose) != napi_ok ||
      !keep(env, w, argv[7], &data, &bytes))
    return drop(env, w, "llmUpload(h, slot, elemOffset, dtype, rows, cols, transpose, bytes)");
  LlmModel* m = w->holder->model;
  w->fn = [=]() {
    m->upload(slot, off, dtype, rows, cols, transpose, data, bytes);
    return std::string();
  };
  return queue(env, w, "rtcuda.llmUpload");
}

napi_value Finish(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  Work* w = bound(env, argc, argv);
  if (w == nullptr) return rtThrow(env, "llmFinish: not a live decoder handle");
  LlmModel* m = w->holder->model;
  w->resolveString = true;
  w->fn = [m]() { return m->finish(); };
  return queue(env, w, "rtcuda.llmFinish");
}

napi_value Step(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  Work* w = bound(env, argc, argv);
  if (w == nullptr) return rtThrow(env, "llmStep: not a live decoder handle");
  void *meta = nullptr, *params = nullptr, *out = nullptr;
  size_t mb = 0, pb = 0, ob = 0;
  if (argc < 4 || !keep(env, w, argv[1], &meta, &mb) || !keep(env, w, argv[2], &params, &pb) || !keep(env, w, argv[3], &out, &ob))
    return drop(env, w, "llmStep(h, meta: Int32Array, params: Float32Array, out: Int32Array)");
  LlmModel* m = w->holder->model;
  w->fn = [=]() {
    m->step(static_cast<const int32_t*>(meta), mb / 4, static_cast<const float*>(params), pb / 4, static_cast<int32_t*>(out), ob / 4);
    return std::string();
  };
  return queue(env, w, "rtcuda.llmStep");
}

napi_value CopyBlocks(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  Work* w = bound(env, argc, argv);
  if (w == nullptr) return rtThrow(env, "llmCopyBlocks: not a live decoder handle");
  void *from = nullptr, *to = nullptr;
  size_t fb = 0, tb = 0;
  if (argc < 3 || !keep(env, w, argv[1], &from, &fb) || !keep(env, w, argv[2], &to, &tb) || fb != tb)
    return drop(env, w, "llmCopyBlocks(h, from: Int32Array, to: Int32Array) of equal lengths");
  LlmModel* m = w->holder->model;
  w->fn = [=]() {
    m->copyBlocks(static_cast<const int32_t*>(from), static_cast<const int32_t*>(to), fb / 4);
    return std::string();
  };
  return queue(env, w, "rtcuda.llmCopyBlocks");
}

LlmHolder* holderOf(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  void* p = nullptr;
  if (argc < 1 || napi_get_value_external(env, argv[0], &p) != napi_ok) return nullptr;
  return static_cast<LlmHolder*>(p);
}

napi_value Describe(napi_env env, napi_callback_info info) {
  LlmHolder* h = holderOf(env, info);
  if (h == nullptr || h->model == nullptr) return rtThrow(env, "llmDescribe: not a live decoder handle");
  try {
    std::string s = h->model->describe();
    napi_value v;
    napi_create_string_utf8(env, s.c_str(), s.size(), &v);
    return v;
  } catch (const std::exception& e) {
    return rtThrow(env, e.what());
  }
}

napi_value Profile(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  void* p = nullptr;
  int32_t steps = 0;
  if (argc < 2 || napi_get_value_external(env, argv[0], &p) != napi_ok || static_cast<LlmHolder*>(p)->model == nullptr ||
      napi_get_value_int32(env, argv[1], &steps) != napi_ok)
    return rtThrow(env, "llmProfile(h, steps: number) on a live decoder handle");
  static_cast<LlmHolder*>(p)->model->profile(steps);
  napi_value u;
  napi_get_undefined(env, &u);
  return u;
}

napi_value Destroy(napi_env env, napi_callback_info info) {
  LlmHolder* h = holderOf(env, info);
  if (h == nullptr) return rtThrow(env, "llmDestroy: not a decoder handle");
  if (h->pending > 0) return rtThrow(env, "llmDestroy: calls are still in flight on this decoder");
  delete h->model;
  h->model = nullptr;
  napi_value u;
  napi_get_undefined(env, &u);
  return u;
}

}  // namespace

void rtDefineLlmExports(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"llmCreate", nullptr, Create, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"llmUpload", nullptr, Upload, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"llmFinish", nullptr, Finish, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"llmStep", nullptr, Step, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"llmCopyBlocks", nullptr, CopyBlocks, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"llmProfile", nullptr, Profile, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"llmDescribe", nullptr, Describe, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"llmDestroy", nullptr, Destroy, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
}
