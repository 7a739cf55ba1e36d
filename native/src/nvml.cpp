// rtserve GPU metrics: NVML through dlopen (native/build/rtnvml.node, built by native/build-nvml.sh).
//
//   sample(): string   JSON: {"devices":[{index, name, uuid, utilization, memoryUsed, memoryTotal, powerMilliwatts,
//                      powerLimitMilliwatts, energyMillijoules}]} or {"error": "..."} where NVML is unavailable
//
// libnvidia-ml.so.1 comes with the NVIDIA driver, not the CUDA toolkit, so it is opened at run time: the addon
// builds with a C++ compiler and Node's headers alone, loads on any Linux machine, and reports NVML's absence
// instead of failing to load. A reading NVML does not support on a device (power on some boards) is left out of
// that device's object. NVML is initialized once, on the first sample.
#include <node_api.h>

#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace {

typedef int nvmlReturn_t;  // NVML_SUCCESS = 0
typedef struct nvmlDevice_st* nvmlDevice_t;
struct nvmlUtilization_t {
  unsigned int gpu;
  unsigned int memory;
};
struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

struct Nvml {
  nvmlReturn_t (*init)();
  nvmlReturn_t (*count)(unsigned int*);
  nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t*);
  nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned int);
  nvmlReturn_t (*uuid)(nvmlDevice_t, char*, unsigned int);
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*);
  nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t*);
  nvmlReturn_t (*power)(nvmlDevice_t, unsigned int*);
  nvmlReturn_t (*powerLimit)(nvmlDevice_t, unsigned int*);
  nvmlReturn_t (*energy)(nvmlDevice_t, unsigned long long*);
  const char* (*errorString)(nvmlReturn_t);
};

std::mutex g_mutex;
Nvml g_nvml;
std::string g_error;  // why NVML is unavailable ("" once it is initialized)
bool g_tried = false;

template <typename F>
bool sym(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  if (*out != nullptr) return true;
  g_error = std::string("libnvidia-ml.so.1 has no ") + name;
  return false;
}

bool ensureNvml() {
  if (g_tried) return g_error.empty();
  g_tried = true;
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    g_error = std::string("NVML not available: ") + (why != nullptr ? why : "libnvidia-ml.so.1 not found");
    return false;
  }
  Nvml n{};
  if (!sym(lib, "nvmlInit_v2", &n.init) || !sym(lib, "nvmlDeviceGetCount_v2", &n.count) ||
      !sym(lib, "nvmlDeviceGetHandleByIndex_v2", &n.handle) || !sym(lib, "nvmlDeviceGetName", &n.name) ||
      !sym(lib, "nvmlDeviceGetUUID", &n.uuid) || !sym(lib, "nvmlDeviceGetUtilizationRates", &n.utilization) ||
      !sym(lib, "nvmlDeviceGetMemoryInfo", &n.memory) || !sym(lib, "nvmlDeviceGetPowerUsage", &n.power) ||
      !sym(lib, "nvmlDeviceGetPowerManagementLimit", &n.powerLimit) ||
      !sym(lib, "nvmlDeviceGetTotalEnergyConsumption", &n.energy) || !sym(lib, "nvmlErrorString", &n.errorString)) {
    return false;
  }
  nvmlReturn_t rc = n.init();
  if (rc != 0) {
    g_error = std::string("nvmlInit failed: ") + n.errorString(rc);
    return false;
  }
  g_nvml = n;
  return true;
}

std::string jsonString(const char* s) {
  std::string out = "\"";
  for (const char* p = s; *p != '\0'; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    if (static_cast<unsigned char>(*p) >= 0x20) out += *p;
  }
  return out + "\"";
}

std::string sampleJson() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!ensureNvml()) return "{\"error\":" + jsonString(g_error.c_str()) + "}";
  unsigned int count = 0;
  nvmlReturn_t rc = g_nvml.count(&count);
  if (rc != 0) return "{\"error\":" + jsonString((std::string("nvmlDeviceGetCount: ") + g_nvml.errorString(rc)).c_str()) + "}";
  std::string out = "{\"devices\":[";
  for (unsigned int i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    if (g_nvml.handle(i, &dev) != 0) continue;
    char name[96] = "";
    char uuid[96] = "";
    g_nvml.name(dev, name, sizeof name);
    g_nvml.uuid(dev, uuid, sizeof uuid);
    char buf[160];
    if (out.back() != '[') out += ',';
    out += "{\"index\":" + std::to_string(i) + ",\"name\":" + jsonString(name) + ",\"uuid\":" + jsonString(uuid);
    nvmlUtilization_t util{};
    if (g_nvml.utilization(dev, &util) == 0) {
      std::snprintf(buf, sizeof buf, ",\"utilization\":%.2f", util.gpu / 100.0);
      out += buf;
    }
    nvmlMemory_t mem{};
    if (g_nvml.memory(dev, &mem) == 0) out += ",\"memoryUsed\":" + std::to_string(mem.used) + ",\"memoryTotal\":" + std::to_string(mem.total);
    unsigned int mw = 0;
    if (g_nvml.power(dev, &mw) == 0) out += ",\"powerMilliwatts\":" + std::to_string(mw);
    if (g_nvml.powerLimit(dev, &mw) == 0) out += ",\"powerLimitMilliwatts\":" + std::to_string(mw);
    unsigned long long mj = 0;
    if (g_nvml.energy(dev, &mj) == 0) out += ",\"energyMillijoules\":" + std::to_string(mj);
    out += "}";
  }
  return out + "]}";
}

napi_value Sample(napi_env env, napi_callback_info) {
  std::string s = sampleJson();
  napi_value v;
  napi_create_string_utf8(env, s.c_str(), s.size(), &v);
  return v;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "sample", NAPI_AUTO_LENGTH, Sample, nullptr, &fn);
  napi_set_named_property(env, exports, "sample", fn);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
