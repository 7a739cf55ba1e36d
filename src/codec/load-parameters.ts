/**
 * Triton's model-repository load parameters (docs/protocol.md §1.4 "Load params"), the same on REST and gRPC:
 * `config` (a JSON ModelConfig overriding the repository's) is served; `file:<version>/<name>` (model files sent
 * with the request) is not, and is refused rather than ignored, so a client never believes that the files it sent
 * are what now serves.
 */
import { rtError } from '../errors/registry.ts';

/** Throws UNSUPPORTED (501 / UNIMPLEMENTED) naming the first `file:` parameter among `names`. */
export function refuseModelFiles(names: Iterable<string>): void {
  for (const key of names) {
    if (key.startsWith('file:')) {
      throw rtError(
        'UNSUPPORTED',
        `load parameter '${key}': loading model files sent with the request is not supported; put the model in the repository`,
      );
    }
  }
}
