// rtserve native CUDA engine: camera frames on the GPU (issue #19). A batch of images -- encoded JPEG (nvJPEG) or raw
// UINT8 [H, W, 3] frames -- decoded and preprocessed on the device (resize, colour order, normalization, layout,
// FP32/FP16/UINT8) straight into a device buffer: an engine's input slot in its arena, or a scratch buffer copied
// back to the host. Every image gets its own result; an image that cannot be decoded never fails the batch.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rt {

/**
 * One image of a batch: encoded bytes (JPEG) or a raw interleaved RGB frame; `width`/`height` are its size (for a JPEG,
 * as its frame header says: the decoder checks nvJPEG agrees).
 */
struct ImageItem {
  const uint8_t* data = nullptr;
  size_t bytes = 0;
  bool encoded = false;
  int width = 0, height = 0;
  /** Where the source goes in the target (the TypeScript planResize): resized size and the offset of its corner. */
  int resizeW = 0, resizeH = 0, offsetX = 0, offsetY = 0;
};

/** The model's preprocessing (its `preprocess` config, compiled by src/config/image-spec.ts). */
struct ImageSpecNative {
  int width = 0, height = 0;
  bool nchw = true, bgr = false;
  /** 0 FP32, 1 FP16, 2 UINT8. */
  int dtype = 0;
  /** 0 nearest, 1 linear, 2 cubic, 3 mitchell, 4 lanczos2, 5 lanczos3. */
  int kernel = 1;
  float scale = 1.f / 255.f;
  float mean[3] = {0, 0, 0}, std[3] = {1, 1, 1};
  float pad[3] = {0, 0, 0};
  /** Images over this many pixels are refused (the config's max_pixels). */
  int64_t maxPixels = 40000000;
  /** Bytes of one image in the destination. */
  size_t rowBytes() const { return (size_t)width * height * 3 * (dtype == 0 ? 4 : dtype == 1 ? 2 : 1); }
  static ImageSpecNative fromJson(const std::string& json);
};

/** Per image: ok, or why not ("unsupported": the caller may decode it on the CPU; "corrupt": an error for its request). */
struct ImageStatus {
  bool ok = false;
  std::string code, message, backend;
  int width = 0, height = 0;
};

struct ImageDecoderImpl;

/** nvJPEG handles (hardware backend where the GPU has one), a device pool for decoded pixels, one stream. */
class ImageDecoder {
 public:
  /** Throws when nvJPEG cannot start; in a build without nvJPEG, JPEGs report "unsupported" and raw frames work. */
  ImageDecoder();
  ~ImageDecoder();
  /**
   * Decodes and preprocesses `items` into `dst` (device memory, `items.size()` rows of spec.rowBytes()) on the
   * decoder's stream and waits for it. Rows of failed images are filled with the pad colour.
   */
  std::vector<ImageStatus> decodeInto(const std::vector<ImageItem>& items, const ImageSpecNative& spec, void* dst);
  /** Same, then copies the rows back into host memory at `host` (the tensors the CPU path would have made). */
  std::vector<ImageStatus> decodeToHost(const std::vector<ImageItem>& items, const ImageSpecNative& spec, void* host, size_t hostBytes);
  /** JSON: which nvJPEG backend the batched path uses, library version. */
  std::string describe();

 private:
  std::unique_ptr<ImageDecoderImpl> impl_;
  std::mutex mu_;
};

/** JSON array of the statuses (what the addon returns to JavaScript). */
std::string imageStatusesJson(const std::vector<ImageStatus>& s);

}  // namespace rt
