export { classify, softmax, sigmoid, type Activation, type ClassScore, type ClassifyOptions } from './classification.ts';
export { nonMaxSuppression, postprocessDetections, type BoxFormat, type Candidates, type Detection, type DetectionOptions } from './detection.ts';
export { boxIou, boxToSource, type BoxXyxy, type ImageTransform } from './geometry.ts';
export { meanAveragePrecision, type GroundTruth, type ScoredBox } from './average-precision.ts';
export { numericValues } from './numeric.ts';
