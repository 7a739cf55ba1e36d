export { runImagePipeline, imageToTensor } from './image-pipeline.ts';
export type {
  ClassificationResult,
  DetectionResult,
  ImageInfo,
  ImagePipelineOptions,
  ImageResult,
  ImageTimings,
  TensorsResult,
} from './image-pipeline.ts';
export { inferImageRequest, isImageRequest, imageResultTensors } from './image-infer.ts';
export { imageSpecOf, requireImageSpec, type ImageSpec } from '../config/image-spec.ts';
export { decodeImage, planResize, type DecodedImage } from './decode.ts';
export { pixelsToTensor, type PixelConversion } from './to-tensor.ts';
export { sniffImageFormat, type SniffedFormat } from './sniff.ts';
