// rtserve native CUDA engine: network construction, per-layer tactics, tuning, CUDA graphs.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rt {

/** How many CUDA devices this process sees (CUDA_VISIBLE_DEVICES and MIG instances applied by the runtime). */
int deviceCount();

/**
 * Device, driver and library versions of one device (what a plan records as the device it was tuned on);
 * `device` < 0: the calling thread's current device.
 */
std::string deviceInfoJson(int device = -1);

/**
 * Times every candidate tactic of one batch-concrete layer (conv, gemm, matmul) on random data, checks each
 * against the engine's reference kernel and returns JSON: {candidates:[{tactic,ok,us,ws,err,why}], best, fallback}.
 */
std::string tuneLayer(const std::string& layerJson, const std::string& optionsJson);

struct EngineImpl;

/**
 * Page-locks host memory in place (cudaHostRegister), so runs copy pieces inside it to the GPU directly, without
 * staging them in the engine's pinned buffers. False when CUDA refuses (the memory then works as any other).
 */
bool registerHostMemory(void* p, size_t bytes);
void unregisterHostMemory(void* p);

/** A run's input as the requests' pieces, copied back to back (the batch is never joined on the event loop). */
struct Piece {
  const void* data;
  size_t bytes;
};

/**
 * One loaded plan instance on one device: weights uploaded once, one arena, one stream, a CUDA graph per batch
 * program. Every call makes the instance's device current on the calling thread first (runs come from any libuv
 * worker thread), so instances on different devices share nothing but the process.
 */
class Engine {
 public:
  Engine(const std::string& networkJson, const void* weights, size_t weightBytes, int device = 0);
  ~Engine();
  /**
   * Copies `rows` rows of each input in (each input given as one or more pieces, back to back), runs the program for
   * `batch`, copies `rows` rows of each output out.
   */
  void run(int batch, int rows, const std::vector<std::vector<Piece>>& in, const std::vector<void*>& out, const std::vector<size_t>& outBytes);
  /**
   * Like run(), but input `filled` is not copied from the host: `fill(deviceAddress, rowBytes)` writes its `rows` rows
   * on the device (the image path of issue #19: decoded and preprocessed straight into the arena) before the launch.
   */
  void runFilled(int batch, int rows, const std::vector<std::vector<Piece>>& in, int filled, const std::function<void(void*, size_t)>& fill,
                 const std::vector<void*>& out, const std::vector<size_t>& outBytes);
  /**
   * Diagnostics: copies the inputs in, runs the first `layers` layers of the program for `batch` eagerly and copies
   * `bytes` of the arena at `off` (a layer's output) to `out`. With `fillOff` >= 0, `fillBytes` of the arena there are
   * set to `fillByte` just before the last of those layers runs.
   */
  void probe(int batch, int rows, const std::vector<std::vector<Piece>>& in, int layers, size_t off, void* out, size_t bytes,
             int64_t fillOff = -1, size_t fillBytes = 0, int fillByte = 0);
  /** GPU-only timings of the program for `batch` (no copies): JSON {latencyUs:[...], throughputUsPerBatch}. */
  std::string bench(int batch, int iters);
  /** Which tactics each program uses, whether its graph was captured, workspace and arena sizes. */
  std::string describe();
  int device() const { return device_; }

 private:
  int device_ = 0;
  std::unique_ptr<EngineImpl> impl_;
  std::mutex mu_;
};

}  // namespace rt
