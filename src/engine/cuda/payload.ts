import { CUDA_NETWORK_FORMAT, CUDA_NETWORK_KEY, CUDA_OPSET_DOMAIN, CUDA_WEIGHTS_NAME, type CudaNetwork } from '../../plan/cuda-network.ts';
import { rtError } from '../../errors/registry.ts';
import { onnx, type ModelProto } from '../../onnx/proto.ts';

const MARKER = Buffer.from(CUDA_OPSET_DOMAIN);

export interface CudaPayload {
  /** The network description as the addon takes it (JSON text). */
  readonly json: string;
  readonly network: CudaNetwork;
  readonly weights: Uint8Array;
}

/** Cheap sniff: CUDA payloads import the ai.rtserve.cuda opset (a hit is confirmed by decoding). */
export function looksLikeCudaPayload(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(MARKER) >= 0;
}

/** Decodes a `--target cuda` plan payload (an ONNX model in the ai.rtserve.cuda domain); undefined if it is not one. */
export function decodeCudaPayload(bytes: Uint8Array, what = 'the model'): CudaPayload | undefined {
  if (!looksLikeCudaPayload(bytes)) return undefined;
  let m: ModelProto;
  try {
    m = onnx.ModelProto.decode(bytes);
  } catch {
    return undefined;
  }
  const json = (m.metadataProps ?? []).find((p) => p.key === CUDA_NETWORK_KEY)?.value;
  if (json == null) return undefined;
  let network: CudaNetwork;
  try {
    network = JSON.parse(json) as CudaNetwork;
  } catch {
    throw rtError('BAD_CONFIG', `${what}: its CUDA network description is not valid JSON; rebuild the plan`);
  }
  if (network.format !== CUDA_NETWORK_FORMAT || network.version !== 1) {
    throw rtError(
      'ENGINE_UNAVAILABLE',
      `${what}: CUDA network format ${String(network.format)} v${String(network.version)} is not the one this rtserve runs (v1); rebuild the plan`,
    );
  }
  const w = (m.graph?.initializer ?? []).find((t) => t.name === CUDA_WEIGHTS_NAME)?.rawData;
  if (w == null || w.byteLength < network.weightBytes)
    throw rtError('BAD_CONFIG', `${what}: the CUDA weights are missing or short; rebuild the plan`);
  return { json, network, weights: w.subarray(0, network.weightBytes) };
}
