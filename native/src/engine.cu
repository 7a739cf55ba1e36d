// rtserve native CUDA engine: the Engine that owns device memory, the arena, CUDA graphs per batch program,
// input/output copies and the load-time checks.
#include "conv-layer.cuh"
#include "device-resources.cuh"

namespace rt {

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

/** The instance's device made current on this thread; the EngineImpl's handles and stream are created on it. */
static EngineImpl* onDevice(int device) {
  int count = deviceCount();
  if (device < 0 || device >= count) {
    throw std::runtime_error("no CUDA device " + std::to_string(device) + " (" + std::to_string(count) + " visible to this process)");
  }
  CK(cudaSetDevice(device));
  return new EngineImpl();
}

Engine::Engine(const std::string& networkJson, const void* weightsHost, size_t weightBytes, int device)
    : device_(device), impl_(onDevice(device)) {
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
  cudaSetDevice(device_);
  impl_.reset();
}

/**
 * Queues the copies of `rows` rows of every input into the arena. Pieces in registered memory (mapped shared
 * memory) are copied by the GPU straight from there; the others are gathered into the input's pinned buffer at their
 * place in the batch (in parallel, one pass), then copied up in runs of adjacent staged pieces.
 */
static void copyInputs(EngineImpl& e, int rows, const std::vector<std::vector<Piece>>& in, int skip = -1) {
  std::vector<Seg> staged;
  struct Up { size_t at; const void* src; size_t bytes; };
  std::vector<std::vector<Up>> ups(in.size());
  for (size_t i = 0; i < in.size(); i++) {
    if ((int)i == skip) continue;  // written on the device (runFilled)
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
  CK(cudaSetDevice(device_));
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
  runFilled(batch, rows, in, -1, nullptr, out, outBytes);
}

void Engine::runFilled(int batch, int rows, const std::vector<std::vector<Piece>>& in, int filled, const std::function<void(void*, size_t)>& fill,
                       const std::vector<void*>& out, const std::vector<size_t>& outBytes) {
  std::lock_guard<std::mutex> g(mu_);
  EngineImpl& e = *impl_;
  if (rows < 1 || rows > batch) throw std::runtime_error("rows must be in [1, batch]");
  if (in.size() != e.inputs.size() || out.size() != e.outputs.size()) throw std::runtime_error("wrong number of inputs or outputs");
  if (filled >= (int)e.inputs.size()) throw std::runtime_error("runFilled: no input " + std::to_string(filled));
  Program& p = e.program(batch);
  CK(cudaSetDevice(device_));
  copyInputs(e, rows, in, filled);
  // The fill runs on its own stream and has finished when it returns: the launch below sees its writes.
  if (filled >= 0) fill(e.at(e.inputs[(size_t)filled].off), (size_t)e.inputs[(size_t)filled].rowBytes);
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
  CK(cudaSetDevice(device_));
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
  std::ostringstream o;
  o << "{\"batch\":" << batch << ",\"graph\":" << (p.exec ? "true" : "false") << ",\"latencyUs\":[";
  for (size_t i = 0; i < lat.size(); i++) o << (i ? "," : "") << fmt(lat[i]);
  o << "],\"throughputUsPerBatch\":" << fmt(total * 1000.0 / iters);
  // RTCUDA_PROFILE=1: each layer run eagerly between CUDA events, median of 5 (where the time goes)
  const char* prof = getenv("RTCUDA_PROFILE");
  if (prof != nullptr && *prof == '1') {
    o << ",\"layers\":[";
    for (size_t i = 0; i < p.layers.size(); i++) {
      std::vector<float> t;
      for (int r = 0; r < 5; r++) {
        CK(cudaEventRecord(a, e.h.stream));
        e.runLayer(*p.layers[i], batch, i);
        CK(cudaEventRecord(b, e.h.stream));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 1000.f);
      }
      std::sort(t.begin(), t.end());
      o << (i ? "," : "") << "{\"name\":" << jsonStr(p.layers[i]->name) << ",\"kind\":" << jsonStr(p.layers[i]->kind) << ",\"us\":" << fmt(t[2]) << "}";
    }
    o << "]";
  }
  o << "}";
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return o.str();
}

std::string Engine::describe() {
  std::lock_guard<std::mutex> g(mu_);
  EngineImpl& e = *impl_;
  std::ostringstream o;
  o << "{\"device\":" << device_ << ",\"arenaBytes\":" << e.arenaBytes << ",\"weightBytes\":" << e.weightBytes << ",\"workspaceBytes\":" << e.wsBytes << ",\"programs\":[";
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
