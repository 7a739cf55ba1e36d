export { imageToTensor, imageTensorOf, rawFrameToTensor, type ImageInfo, type ImageTarget, type ImageTensor } from './image-pipeline.ts';
export { imageSpecOf, requireImageSpec, type ImageSpec } from '../config/image-spec.ts';
export { decodeImage, planResize, type DecodedImage } from './decode.ts';
export { pixelsToTensor, type PixelConversion } from './to-tensor.ts';
export { sniffImageFormat, type SniffedFormat } from './sniff.ts';
