// The only skips allowed under CI=true: tests that need an NVIDIA GPU and the native CUDA addon, which CI machines do
// not have (scripts/device/ runs them on the GPU machine). Any other skip fails a CI run: every tool the other tests
// need is installed by .ci/run, and a test that finds one missing under CI fails instead of skipping.
/** @type {import('./summary.mjs').KnownSkip[]} */
export const GPU_ONLY_SKIPS = [
  { file: 'test/unit/engine/cuda/cuda-engine.test.ts', suite: 'CUDA engine on the GPU', why: 'needs the native CUDA engine and a GPU' },
  {
    file: 'test/unit/engine/cuda/placement.test.ts',
    suite: 'CUDA instances placed on GPUs by instance_group',
    why: 'needs the native CUDA engine and a GPU',
  },
  {
    file: 'test/unit/engine/cuda/served-order.test.ts',
    suite: 'ResNet-50 batch programs in served order on the GPU',
    why: 'needs the native CUDA engine and a GPU',
  },
  { file: 'test/unit/engine/cuda/detector.test.ts', suite: 'detectors on the CUDA engine on the GPU', why: 'needs the native CUDA engine and a GPU' },
  { file: 'test/unit/engine/cuda/compile-at-load-gpu.test.ts', suite: 'compile at load on the GPU', why: 'needs the native CUDA engine and a GPU' },
  {
    file: 'test/unit/engine/cuda/image-decoder.test.ts',
    suite: 'GPU image path on the GPU',
    why: 'needs the native CUDA engine (with nvJPEG) and a GPU',
  },
  {
    file: 'test/unit/engine/cuda/llm-engine.test.ts',
    suite: 'CUDA decoder on the GPU',
    why: 'needs the native CUDA engine (with the LLM decoder) and a GPU',
  },
];
