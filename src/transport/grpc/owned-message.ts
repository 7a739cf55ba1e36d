import { decodeModelInferRequest, type DecodedInferMessage } from '../../codec/grpc/infer-codec.ts';
import { markExclusive } from '../../tensor/exclusive-buffers.ts';

/**
 * grpc-js hands each received message over as a view that skips the 5-byte gRPC frame prefix of a buffer it
 * allocated for that frame alone (stream-decoder.js Buffer.concat; small frames come from Node's shared pool and
 * are left unmarked by the size check), and keeps no reference to it: the engine may take the whole buffer
 * (tensor/exclusive-buffers.ts) instead of copying the tensors out of it.
 */
export function decodeOwnedMessage(buf: Buffer): DecodedInferMessage {
  markExclusive(buf, 5);
  return decodeModelInferRequest(buf);
}
