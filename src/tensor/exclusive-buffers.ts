/**
 * ArrayBuffers that hold the bytes of exactly one request and that nothing reads once the request is handed to an
 * engine (docs/architecture.md, Performance rules: zero copies where the bytes allow). A transport marks the body it
 * received when it was allocated for that body alone (not a slice of a shared pool); an engine that moves tensors
 * to another thread may then transfer the whole buffer, a few header bytes included, instead of copying the tensor
 * out of it. Views over an unmarked buffer are copied as before.
 *
 * The promise a transport makes by marking: after `infer` is called, neither it nor anything downstream reads the
 * request's input tensors (the response cache keys requests before they are queued, core/inference-server.ts).
 */
const exclusive = new WeakSet<ArrayBufferLike>();

/** Marks `bytes`' buffer as exclusive when `bytes` covers all of it but at most `slackBytes` (a frame prefix). */
export function markExclusive(bytes: Uint8Array, slackBytes = 0): boolean {
  const buffer = bytes.buffer;
  if (buffer.byteLength - bytes.byteLength > slackBytes) return false;
  exclusive.add(buffer);
  return true;
}

export function isExclusive(buffer: ArrayBufferLike): boolean {
  return exclusive.has(buffer);
}

/**
 * ArrayBuffers over memory the process does not own (a mapped shared memory region, engine/cuda/shm-opener.ts):
 * other requests and the client read and write it, so it is never transferred to another thread (that would detach
 * it here); a tensor over it is copied when it must cross threads.
 */
const mapped = new WeakSet<ArrayBufferLike>();

export function markMapped(buffer: ArrayBufferLike): void {
  mapped.add(buffer);
}

export function isMapped(buffer: ArrayBufferLike): boolean {
  return mapped.has(buffer);
}
