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

/** The optional streaming method of InferenceApi (docs/ws-protocol.md "Streaming"), looked up by name. */
type StreamFn = (request: InferRequest) => AsyncIterable<InferResponse>;

export function withImageRequests<T extends InferenceApi>(core: T): T {
  const overrides: Record<string, unknown> = {
    infer(request: InferRequest): Promise<InferResponse> {
      // Checked first, so that the common request goes straight to the core (no extra promise on the way).
      if (!isImageRequest(core, request)) return core.infer(request);
      return inferImageRequest(core, request).then((r) => r ?? core.infer(request));
    },
    inferStream(request: InferRequest): AsyncIterable<InferResponse> {
      const inner = (core as { inferStream?: StreamFn }).inferStream;
      if (inner !== undefined && !isImageRequest(core, request)) return inner.call(core, request);
      // An image request (or any request to a core without streams) answers once.
      return (async function* one() {
        yield (await inferImageRequest(core, request)) ?? (await core.infer(request));
      })();
    },
  };
  return withOverrides(core, overrides);
}
