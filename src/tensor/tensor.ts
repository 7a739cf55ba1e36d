import type { DataType, TensorData } from './datatype.ts';

/** A named, typed, shaped tensor: what every layer of rtserve passes around. */
export interface Tensor {
  readonly name: string;
  readonly datatype: DataType;
  readonly shape: readonly number[];
  readonly data: TensorData;
}

/** Metadata of one tensor as KServe v2 reports it (`-1` marks a dynamic dimension). */
export interface TensorMetadata {
  readonly name: string;
  readonly datatype: DataType;
  readonly shape: readonly number[];
}
