/**
 * An InferenceApi that understands image requests: `infer` (and `inferStream`) run a request whose only input
 * is an encoded image in a BYTES tensor through the image pipeline (see image-infer.ts); everything else goes to
 * the wrapped API unchanged. Wrapping the API that every front end receives gives REST, gRPC and WebSocket frame
 * streams the same image input without code in each of them.
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../api/types.ts';
import { inferImageRequest, isImageRequest } from '../preprocess/image-infer.ts';
import { withOverrides } from '../util/with-overrides.ts';
import type { ImageDecoding } from '../preprocess/frame-batcher.ts';

/** The optional streaming method of InferenceApi (docs/ws-protocol.md "Streaming"), looked up by name. */
type StreamFn = (request: InferRequest) => AsyncIterable<InferResponse>;

/**
 * `decoding`: where images become tensors on a device (the GPU frame batcher, preprocess/frame-batcher.ts); the image
 * pipeline finds it on the API object (`imageDecoding`), so POST /v2/models/{m}/image, KServe BYTES inputs over REST and
 * gRPC, and WebSocket frames all take it. Undefined: the CPU path.
 */
export function withImageRequests<T extends InferenceApi>(core: T, decoding?: ImageDecoding): T {
  const overrides: Record<string, unknown> = {
    imageDecoding: decoding,
    infer(request: InferRequest): Promise<InferResponse> {
      // Checked first, so that the common request goes straight to the core (no extra promise on the way).
      if (!isImageRequest(core, request)) return core.infer(request);
      return inferImageRequest(wrapped, request).then((r) => r ?? core.infer(request));
    },
    inferStream(request: InferRequest): AsyncIterable<InferResponse> {
      const inner = (core as { inferStream?: StreamFn }).inferStream;
      if (inner !== undefined && !isImageRequest(core, request)) return inner.call(core, request);
      // An image request (or any request to a core without streams) answers once.
      return (async function* one() {
        yield (await inferImageRequest(wrapped, request)) ?? (await core.infer(request));
      })();
    },
  };
  // The image pipeline runs on this API (not the core), so that it finds `imageDecoding`.
  const wrapped = withOverrides(core, overrides);
  return wrapped;
}
