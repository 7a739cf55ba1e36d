// rtserve native CUDA engine: batched image decode (nvJPEG) for the GPU image path (issue #19).
//
// Baseline JPEGs the hardware decoder accepts (NVJPEG_BACKEND_HARDWARE, the NVJPG engines of A100/H100/H200) are
// decoded as one batch; the others (progressive, or any GPU without the engines) one by one with the default backend
// (GPU-assisted hybrid). A batch the hardware decoder refuses as a whole is retried image by image, so one bad image
// only fails itself. Raw RGB frames are copied up as they are. Then one preprocess launch writes every row.
// Built without nvJPEG (-DRTCUDA_NO_NVJPEG, native/build.sh when libnvjpeg is missing), JPEGs report "unsupported"
// and raw frames still work.
#include <cuda_runtime.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "cuda-check.h"
#include "image-decode.h"
#include "image-preprocess.cuh"
#include "json.h"

#ifndef RTCUDA_NO_NVJPEG
#include <nvjpeg.h>
#endif

namespace rt {

ImageSpecNative ImageSpecNative::fromJson(const std::string& text) {
  Json j = parseJson(text);
  ImageSpecNative s;
  s.width = (int)j.i64("width");
  s.height = (int)j.i64("height");
  s.nchw = j.s("layout", "NCHW") == "NCHW";
  s.bgr = j.s("color", "rgb") == "bgr";
  std::string dt = j.s("dtype", "FP32");
  s.dtype = dt == "FP32" ? 0 : dt == "FP16" ? 1 : dt == "UINT8" ? 2 : -1;
  if (s.dtype < 0) throw std::runtime_error("image spec: dtype must be FP32, FP16 or UINT8");
  static const char* kernels[] = {"nearest", "linear", "cubic", "mitchell", "lanczos2", "lanczos3"};
  std::string k = j.s("kernel", "linear");
  s.kernel = -1;
  for (int i = 0; i < 6; i++)
    if (k == kernels[i]) s.kernel = i;
  if (s.kernel < 0) throw std::runtime_error("image spec: unknown kernel '" + k + "'");
  s.scale = (float)j.f64("scale", 1.0 / 255.0);
  s.maxPixels = (int64_t)j.f64("maxPixels", 40000000.0);
  auto three = [&](const char* key, float* out, float dflt) {
    const Json& a = j[key];
    for (int d = 0; d < 3; d++) out[d] = a.kind == Json::Arr && a.size() > 0 ? (float)a.at(a.size() == 3 ? d : 0).num : dflt;
  };
  three("mean", s.mean, 0.f);
  three("std", s.std, 1.f);
  three("padValue", s.pad, 0.f);
  if (s.width < 1 || s.height < 1) throw std::runtime_error("image spec: width and height must be >= 1");
  return s;
}

static std::string jsonString(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if ((unsigned char)c < 0x20) o += ' ';
    else o += c;
  }
  return o + "\"";
}

std::string imageStatusesJson(const std::vector<ImageStatus>& st) {
  std::ostringstream o;
  o << "[";
  for (size_t i = 0; i < st.size(); i++) {
    const ImageStatus& s = st[i];
    if (i) o << ",";
    o << "{\"ok\":" << (s.ok ? "true" : "false") << ",\"width\":" << s.width << ",\"height\":" << s.height;
    if (!s.backend.empty()) o << ",\"backend\":" << jsonString(s.backend);
    if (!s.ok) o << ",\"code\":" << jsonString(s.code) << ",\"message\":" << jsonString(s.message);
    o << "}";
  }
  o << "]";
  return o.str();
}

#ifndef RTCUDA_NO_NVJPEG
static const char* nvjpegStatusName(nvjpegStatus_t s) {
  switch (s) {
    case NVJPEG_STATUS_SUCCESS: return "success";
    case NVJPEG_STATUS_NOT_INITIALIZED: return "not initialized";
    case NVJPEG_STATUS_INVALID_PARAMETER: return "invalid parameter";
    case NVJPEG_STATUS_BAD_JPEG: return "bad JPEG";
    case NVJPEG_STATUS_JPEG_NOT_SUPPORTED: return "JPEG not supported";
    case NVJPEG_STATUS_ALLOCATOR_FAILURE: return "allocator failure";
    case NVJPEG_STATUS_EXECUTION_FAILED: return "execution failed";
    case NVJPEG_STATUS_ARCH_MISMATCH: return "arch mismatch";
    case NVJPEG_STATUS_INTERNAL_ERROR: return "internal error";
    case NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED: return "implementation not supported";
    case NVJPEG_STATUS_INCOMPLETE_BITSTREAM: return "incomplete bitstream";
    default: return "unknown status";
  }
}
#define NVJ_CK(x) \
  ::rt::checkStatus((x), NVJPEG_STATUS_SUCCESS, [](nvjpegStatus_t s_) { return std::string("nvJPEG ") + nvjpegStatusName(s_); }, #x, __FILE__, __LINE__)
#endif

struct ImageDecoderImpl {
  cudaStream_t stream = nullptr;
  uint8_t* pool = nullptr;
  size_t poolBytes = 0;
  ImageParams* dParams = nullptr;
  ImageParams* hParams = nullptr;  // pinned
  size_t paramsCap = 0;
  void* scratch = nullptr;  // decodeToHost's device rows
  size_t scratchBytes = 0;
  char* staging = nullptr;  // decodeToHost's pinned host rows (copied out from there in parallel)
  size_t stagingBytes = 0;
#ifndef RTCUDA_NO_NVJPEG
  nvjpegHandle_t hw = nullptr, gpu = nullptr;
  nvjpegJpegState_t hwState = nullptr, gpuState = nullptr;
  nvjpegJpegStream_t parsed = nullptr;
  std::string batchedBackend = "none";
#endif

  ImageDecoderImpl(const ImageDecoderImpl&) = delete;
  ImageDecoderImpl& operator=(const ImageDecoderImpl&) = delete;
  ImageDecoderImpl() {
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
#ifndef RTCUDA_NO_NVJPEG
    NVJ_CK(nvjpegCreateEx(NVJPEG_BACKEND_DEFAULT, nullptr, nullptr, 0, &gpu));
    NVJ_CK(nvjpegJpegStateCreate(gpu, &gpuState));
    // The hardware decoder (NVJPG engines) where the GPU has them; else the GPU-assisted batched path.
    if (nvjpegCreateEx(NVJPEG_BACKEND_HARDWARE, nullptr, nullptr, 0, &hw) == NVJPEG_STATUS_SUCCESS) {
      batchedBackend = "hardware";
    } else if (nvjpegCreateEx(NVJPEG_BACKEND_GPU_HYBRID, nullptr, nullptr, 0, &hw) == NVJPEG_STATUS_SUCCESS) {
      batchedBackend = "gpu-hybrid";
    } else {
      hw = nullptr;
    }
    if (hw != nullptr) {
      NVJ_CK(nvjpegJpegStateCreate(hw, &hwState));
      NVJ_CK(nvjpegJpegStreamCreate(hw, &parsed));
    }
#endif
  }
  ~ImageDecoderImpl() {
    if (stream) cudaStreamSynchronize(stream);
#ifndef RTCUDA_NO_NVJPEG
    if (parsed) nvjpegJpegStreamDestroy(parsed);
    if (hwState) nvjpegJpegStateDestroy(hwState);
    if (hw) nvjpegDestroy(hw);
    if (gpuState) nvjpegJpegStateDestroy(gpuState);
    if (gpu) nvjpegDestroy(gpu);
#endif
    if (pool) cudaFree(pool);
    if (dParams) cudaFree(dParams);
    if (hParams) cudaFreeHost(hParams);
    if (scratch) cudaFree(scratch);
    if (staging) cudaFreeHost(staging);
    if (stream) cudaStreamDestroy(stream);
  }

  void ensurePool(size_t bytes) {
    if (bytes <= poolBytes) return;
    CK(cudaStreamSynchronize(stream));
    if (pool) CK(cudaFree(pool));
    pool = nullptr;
    poolBytes = std::max(bytes, poolBytes * 2);
    CK(cudaMalloc(&pool, poolBytes));
  }
  void ensureParams(size_t n) {
    if (n <= paramsCap) return;
    CK(cudaStreamSynchronize(stream));
    if (dParams) CK(cudaFree(dParams));
    if (hParams) CK(cudaFreeHost(hParams));
    paramsCap = std::max(n, paramsCap * 2);
    CK(cudaMalloc(&dParams, paramsCap * sizeof(ImageParams)));
    CK(cudaHostAlloc((void**)&hParams, paramsCap * sizeof(ImageParams), cudaHostAllocDefault));
  }

  std::vector<ImageStatus> decode(const std::vector<ImageItem>& items, const ImageSpecNative& spec, void* dst, int64_t maxPixels) {
    const size_t n = items.size();
    std::vector<ImageStatus> st(n);
    if (n == 0) return st;
    std::vector<size_t> at(n, 0);
    size_t total = 0;
    // Sizes first (the header only), so one pool holds the whole batch's pixels.
    for (size_t i = 0; i < n; i++) {
      const ImageItem& it = items[i];
      ImageStatus& s = st[i];
      int w = it.width, h = it.height;
      if (it.encoded) {
#ifdef RTCUDA_NO_NVJPEG
        s.code = "unsupported";
        s.message = "this build of the CUDA addon has no nvJPEG";
        continue;
#else
        int comps = 0;
        nvjpegChromaSubsampling_t css;
        int ws[NVJPEG_MAX_COMPONENT] = {0}, hs[NVJPEG_MAX_COMPONENT] = {0};
        nvjpegStatus_t r = nvjpegGetImageInfo(gpu, it.data, it.bytes, &comps, &css, ws, hs);
        if (r != NVJPEG_STATUS_SUCCESS) {
          s.code = r == NVJPEG_STATUS_JPEG_NOT_SUPPORTED ? "unsupported" : "corrupt";
          s.message = std::string("nvJPEG cannot read the JPEG header: ") + nvjpegStatusName(r);
          continue;
        }
        if ((comps != 3 && comps != 1) || css == NVJPEG_CSS_UNKNOWN) {
          s.code = "unsupported";
          s.message = "JPEG with " + std::to_string(comps) + " components (nvJPEG decodes grayscale and YCbCr)";
          continue;
        }
        if (ws[0] != w || hs[0] != h) {
          s.code = "corrupt";
          s.message = "JPEG header disagreement: " + std::to_string(ws[0]) + "x" + std::to_string(hs[0]) + " for nvJPEG, " +
                      std::to_string(w) + "x" + std::to_string(h) + " for the frame header";
          continue;
        }
#endif
      } else if (it.bytes != (size_t)w * h * 3) {
        s.code = "corrupt";
        s.message = "raw frame of " + std::to_string(w) + "x" + std::to_string(h) + "x3 holds " + std::to_string(it.bytes) + " bytes";
        continue;
      }
      if (w < 1 || h < 1) { s.code = "corrupt"; s.message = "image without size"; continue; }
      if ((int64_t)w * h > maxPixels) {
        s.code = "too-large";
        s.message = "the image is " + std::to_string(w) + "x" + std::to_string(h) + " pixels, over the limit of " + std::to_string(maxPixels);
        continue;
      }
      s.ok = true;
      s.width = w;
      s.height = h;
      at[i] = total;
      total += ((size_t)w * h * 3 + 255) / 256 * 256;
    }
    ensurePool(total);
    ensureParams(n);
    // Raw frames: copied up as they are.
    for (size_t i = 0; i < n; i++) {
      if (!st[i].ok || items[i].encoded) continue;
      CK(cudaMemcpyAsync(pool + at[i], items[i].data, items[i].bytes, cudaMemcpyHostToDevice, stream));
      st[i].backend = "raw";
    }
#ifndef RTCUDA_NO_NVJPEG
    // Planar RGB (as torchvision asks nvJPEG; every backend gives it): three planes of width x height.
    auto dest = [&](size_t i) {
      nvjpegImage_t img;
      memset(&img, 0, sizeof img);
      size_t plane = (size_t)st[i].width * st[i].height;
      for (int c = 0; c < 3; c++) {
        img.channel[c] = pool + at[i] + c * plane;
        img.pitch[c] = (size_t)st[i].width;
      }
      return img;
    };
    std::vector<size_t> batched, single;
    for (size_t i = 0; i < n; i++) {
      if (!st[i].ok || !items[i].encoded) continue;
      int unsupported = 1;
      if (hw != nullptr && nvjpegJpegStreamParseHeader(hw, items[i].data, items[i].bytes, parsed) == NVJPEG_STATUS_SUCCESS &&
          nvjpegDecodeBatchedSupported(hw, parsed, &unsupported) == NVJPEG_STATUS_SUCCESS && unsupported == 0) {
        batched.push_back(i);
      } else {
        single.push_back(i);
      }
    }
    if (!batched.empty()) {
      std::vector<const unsigned char*> data;
      std::vector<size_t> lengths;
      std::vector<nvjpegImage_t> outs;
      for (size_t i : batched) {
        data.push_back(items[i].data);
        lengths.push_back(items[i].bytes);
        outs.push_back(dest(i));
      }
      nvjpegStatus_t r = nvjpegDecodeBatchedInitialize(hw, hwState, (int)batched.size(), 1, NVJPEG_OUTPUT_RGB);
      if (r == NVJPEG_STATUS_SUCCESS) r = nvjpegDecodeBatched(hw, hwState, data.data(), lengths.data(), outs.data(), stream);
      if (r == NVJPEG_STATUS_SUCCESS) {
        for (size_t i : batched) st[i].backend = batchedBackend;
      } else {
        // One image can fail the whole call: decode them one by one, so only the bad ones fail.
        cudaGetLastError();
        single.insert(single.end(), batched.begin(), batched.end());
      }
    }
    for (size_t i : single) {
      nvjpegImage_t img = dest(i);
      nvjpegStatus_t r = nvjpegDecode(gpu, gpuState, items[i].data, items[i].bytes, NVJPEG_OUTPUT_RGB, &img, stream);
      if (r == NVJPEG_STATUS_SUCCESS) {
        st[i].backend = "gpu";
        continue;
      }
      cudaGetLastError();
      st[i].ok = false;
      st[i].code = r == NVJPEG_STATUS_JPEG_NOT_SUPPORTED || r == NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED ? "unsupported" : "corrupt";
      st[i].message = std::string("nvJPEG could not decode it: ") + nvjpegStatusName(r);
    }
#endif
    for (size_t i = 0; i < n; i++) {
      ImageParams& p = hParams[i];
      const ImageItem& it = items[i];
      p.src = pool + at[i];
      p.srcW = std::max(1, st[i].width);
      p.srcH = std::max(1, st[i].height);
      p.planar = it.encoded ? 1 : 0;
      p.pitch = it.encoded ? st[i].width : st[i].width * 3;
      p.resizeW = it.resizeW;
      p.resizeH = it.resizeH;
      p.offsetX = it.offsetX;
      p.offsetY = it.offsetY;
      p.valid = st[i].ok && it.resizeW > 0 && it.resizeH > 0 ? 1 : 0;
    }
    CK(cudaMemcpyAsync(dParams, hParams, n * sizeof(ImageParams), cudaMemcpyHostToDevice, stream));
    launchImagePreprocess(dParams, (int)n, spec, dst, stream);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(stream));
    return st;
  }
};

ImageDecoder::ImageDecoder() : impl_(new ImageDecoderImpl()) {}
ImageDecoder::~ImageDecoder() {
  std::lock_guard<std::mutex> g(mu_);
  impl_.reset();
}

std::vector<ImageStatus> ImageDecoder::decodeInto(const std::vector<ImageItem>& items, const ImageSpecNative& spec, void* dst) {
  std::lock_guard<std::mutex> g(mu_);
  CK(cudaSetDevice(0));
  return impl_->decode(items, spec, dst, spec.maxPixels);
}

std::vector<ImageStatus> ImageDecoder::decodeToHost(const std::vector<ImageItem>& items, const ImageSpecNative& spec, void* host, size_t hostBytes) {
  std::lock_guard<std::mutex> g(mu_);
  CK(cudaSetDevice(0));
  ImageDecoderImpl& d = *impl_;
  size_t need = spec.rowBytes() * items.size();
  // An empty output keeps the rows on the device (benchmarks of the decode alone).
  if (hostBytes != need && hostBytes != 0) throw std::runtime_error("decodeImages: the output holds " + std::to_string(hostBytes) + " bytes, expected " + std::to_string(need));
  if (need > d.scratchBytes) {
    CK(cudaStreamSynchronize(d.stream));
    if (d.scratch) CK(cudaFree(d.scratch));
    d.scratch = nullptr;
    d.scratchBytes = std::max(need, d.scratchBytes * 2);
    CK(cudaMalloc(&d.scratch, d.scratchBytes));
  }
  auto st = d.decode(items, spec, d.scratch, spec.maxPixels);
  if (hostBytes != 0) {
    // Into pinned memory at full DMA speed, then into the caller's (pageable) memory on a few threads.
    if (need > d.stagingBytes) {
      if (d.staging) CK(cudaFreeHost(d.staging));
      d.staging = nullptr;
      d.stagingBytes = std::max(need, d.stagingBytes * 2);
      CK(cudaHostAlloc((void**)&d.staging, d.stagingBytes, cudaHostAllocDefault));
    }
    CK(cudaMemcpyAsync(d.staging, d.scratch, need, cudaMemcpyDeviceToHost, d.stream));
    CK(cudaStreamSynchronize(d.stream));
    const size_t parts = need < (4u << 20) ? 1 : 4, chunk = (need + parts - 1) / parts;
    char* dst = static_cast<char*>(host);
    const char* src = d.staging;  // pointers only: the threads must never copy the decoder (its destructor frees it all)
    std::vector<std::thread> threads;
    for (size_t i = 1; i < parts; i++) {
      size_t from = i * chunk, n = from >= need ? 0 : std::min(chunk, need - from);
      if (n > 0) threads.emplace_back([dst, src, from, n] { memcpy(dst + from, src + from, n); });
    }
    memcpy(dst, src, std::min(chunk, need));
    for (auto& t : threads) t.join();
  }
  return st;
}

std::string ImageDecoder::describe() {
  std::lock_guard<std::mutex> g(mu_);
#ifdef RTCUDA_NO_NVJPEG
  return "{\"nvjpeg\":false,\"batchedBackend\":\"none\"}";
#else
  int major = 0, minor = 0, patch = 0;
  nvjpegGetProperty(MAJOR_VERSION, &major);
  nvjpegGetProperty(MINOR_VERSION, &minor);
  nvjpegGetProperty(PATCH_LEVEL, &patch);
  return "{\"nvjpeg\":true,\"version\":\"" + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) +
         "\",\"batchedBackend\":\"" + impl_->batchedBackend + "\"}";
#endif
}

}  // namespace rt
