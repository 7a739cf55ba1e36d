// rtserve native CUDA engine: the preprocessing kernel of the image path (issue #19): decoded RGB pixels -> the
// model's input rows (resize with the CPU path's filters, pad, crop, colour order, normalization, layout, dtype).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "image-decode.h"

namespace rt {

/** One image of a preprocess launch (device-side copy of what the host planned). */
struct ImageParams {
  const uint8_t* src;  // interleaved RGB (`pitch` bytes per row), or planar R, G, B planes of `pitch` x srcH each
  int srcW, srcH, pitch;
  int planar;
  int resizeW, resizeH, offsetX, offsetY;
  int valid;  // 0: the row is filled with the pad colour (an image that failed)
};

/** Launches the preprocess kernel for `n` images (params in device memory) into `dst` on `stream`. */
void launchImagePreprocess(const ImageParams* params, int n, const ImageSpecNative& spec, void* dst, cudaStream_t stream);

}  // namespace rt
