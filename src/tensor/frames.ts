/**
 * Encoded frames that travel to the engine undecoded (docs/image.md "Frames on the engine's device"): the image layer
 * reads a JPEG's header on the CPU and says where its resized pixels go in the model's input row; the request then
 * carries the JPEG bytes as a BYTES element of the image input, and an engine that decodes on its device (the CUDA
 * engine's nvJPEG path) writes the decoded, resized, normalized rows straight into its own input memory. The
 * scheduler batches such requests as it batches tensors. This is the one definition of that contract.
 */

/** A frame's size and where its resized pixels land in the target row (preprocess/decode.ts planResize). */
export interface FramePlacement {
  readonly width: number;
  readonly height: number;
  readonly resizeWidth: number;
  readonly resizeHeight: number;
  readonly offsetX: number;
  readonly offsetY: number;
}

/** One frame for an engine: the encoded bytes and their placement. */
export interface EncodedFrame extends FramePlacement {
  readonly bytes: Uint8Array;
}

/** Why an engine could not take one frame of a batch (the other frames are answered). */
export interface FrameFailure {
  /** corrupt / too-large: refuse the frame; unsupported: the device cannot decode it, the CPU path can. */
  readonly code: 'corrupt' | 'too-large' | 'unsupported';
  readonly message: string;
}
