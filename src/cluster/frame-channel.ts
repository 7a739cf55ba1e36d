/**
 * Frames over a stream socket between a front-end worker and the engine owner (docs/workers.md): each frame is a
 * small JSON head and binary parts (tensor bytes), so the bytes are never turned into JSON.
 *
 *   u32 LE head bytes │ u32 LE binary bytes │ head (UTF-8 JSON, with `p`: the parts' lengths) │ parts, each padded to 8
 *
 * A received frame's parts are views at 8-byte aligned offsets, so typed arrays of any element size view them
 * without a copy: over one fresh buffer of that frame alone, or, for a frame of a few KiB, over a slab shared with
 * other small frames. Frames written in the same tick leave in one write (the socket is corked until the next
 * tick): under load many requests share a system call.
 */
import type { Socket } from 'node:net';

const PREFIX_BYTES = 8;
const ALIGN = 8;

/** A frame's JSON head: `p` (the parts' lengths) is the channel's own field. */
export type FrameHead = Record<string, unknown>;

const padOf = (n: number): number => (ALIGN - (n % ALIGN)) % ALIGN;
const ZEROS = new Uint8Array(ALIGN);
/** A frame with at most this many binary bytes is copied into one buffer on the way out (one write, not one per part). */
const COPY_BYTES = 16 * 1024;
/**
 * A received frame with at most this many binary bytes gets its parts in a shared slab (as Buffer's pool does),
 * not a fresh buffer of its own: an allocation per frame costs more than the bytes. Such a frame has no
 * `frameBuffer`, so nothing takes its buffer whole (an engine copies the few bytes instead).
 */
const SLAB_PART_BYTES = 4 * 1024;
const SLAB_BYTES = 256 * 1024;

export class FrameChannel {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private corked = false;
  private slab: Uint8Array | undefined;
  private slabUsed = 0;
  private closedReason: Error | undefined;
  /** Called with each received frame, in order. */
  onFrame: (head: FrameHead, parts: Uint8Array[], frameBuffer: ArrayBuffer | undefined) => void = () => {};
  /** Called once when the socket ends or fails. */
  onClose: (reason: Error) => void = () => {};

  constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    const closed = (err?: Error): void => {
      if (this.closedReason !== undefined) return;
      this.closedReason = err ?? new Error('channel closed');
      this.onClose(this.closedReason);
    };
    socket.on('error', closed);
    socket.on('close', () => closed());
  }

  get closed(): boolean {
    return this.closedReason !== undefined || this.socket.destroyed;
  }

  /** Sends one frame; false when the channel is closed (nothing is sent). */
  send(head: FrameHead, parts: readonly Uint8Array[] = []): boolean {
    if (this.closed) return false;
    let binary = 0;
    let lengths: number[] | undefined;
    if (parts.length > 0) {
      lengths = [];
      for (const p of parts) {
        lengths.push(p.byteLength);
        binary += p.byteLength + padOf(p.byteLength);
      }
      head['p'] = lengths;
    }
    const text = JSON.stringify(head);
    const headBytes = Buffer.byteLength(text);
    // Small frames go whole in one buffer (one write; the copy costs less than a write per part), large ones as
    // prefix and head in one buffer and each part as it is.
    const whole = binary <= COPY_BYTES;
    const prefix = Buffer.allocUnsafe(PREFIX_BYTES + headBytes + (whole ? binary : 0));
    prefix.writeUInt32LE(headBytes, 0);
    prefix.writeUInt32LE(binary, 4);
    prefix.write(text, PREFIX_BYTES);
    const s = this.socket;
    if (!this.corked) {
      this.corked = true;
      s.cork();
      process.nextTick(() => {
        this.corked = false;
        s.uncork();
      });
    }
    if (whole) {
      let at = PREFIX_BYTES + headBytes;
      for (const p of parts) {
        prefix.set(p, at);
        at += p.byteLength;
        const pad = padOf(p.byteLength);
        if (pad > 0) prefix.fill(0, at, at + pad);
        at += pad;
      }
      s.write(prefix);
      return true;
    }
    s.write(prefix);
    for (const p of parts) {
      if (p.byteLength > 0) s.write(p);
      const pad = padOf(p.byteLength);
      if (pad > 0) s.write(ZEROS.subarray(0, pad));
    }
    return true;
  }

  close(): void {
    this.socket.end();
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.byteLength;
    for (;;) {
      if (this.buffered < PREFIX_BYTES) return;
      const first = this.peek(PREFIX_BYTES);
      const headBytes = first.readUInt32LE(0);
      const binaryBytes = first.readUInt32LE(4);
      const total = PREFIX_BYTES + headBytes + binaryBytes;
      if (this.buffered < total) return;
      const frame = this.take(total);
      const head = JSON.parse(frame.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headBytes)) as FrameHead;
      let parts: Uint8Array[] = [];
      let frameBuffer: ArrayBuffer | undefined;
      const lengths = head['p'];
      // Parts may all be empty (an answer with no detections): their count is kept, not only their bytes.
      if (Array.isArray(lengths)) {
        let bytes: Uint8Array;
        if (binaryBytes === 0) bytes = new Uint8Array(0);
        else if (binaryBytes <= SLAB_PART_BYTES) bytes = this.fromSlab(binaryBytes);
        else {
          // One fresh buffer per frame: aligned views, and a buffer that belongs to this frame's request alone.
          frameBuffer = new ArrayBuffer(binaryBytes);
          bytes = new Uint8Array(frameBuffer);
        }
        bytes.set(frame.subarray(PREFIX_BYTES + headBytes, total));
        let at = 0;
        parts = (lengths as number[]).map((n) => {
          const view = bytes.subarray(at, at + n);
          at += n + padOf(n);
          return view;
        });
      }
      this.onFrame(head, parts, frameBuffer);
    }
  }

  /** `n` bytes (n ≤ SLAB_PART_BYTES, a multiple of 8) of the current slab, at an 8-byte aligned offset. */
  private fromSlab(n: number): Uint8Array {
    if (this.slab === undefined || this.slabUsed + n > SLAB_BYTES) {
      this.slab = new Uint8Array(SLAB_BYTES);
      this.slabUsed = 0;
    }
    const view = this.slab.subarray(this.slabUsed, this.slabUsed + n);
    this.slabUsed += n;
    return view;
  }

  /** The first `n` buffered bytes (n ≤ buffered), without consuming them. */
  private peek(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    if (first.byteLength >= n) return first;
    const joined = Buffer.concat(this.chunks);
    this.chunks.length = 0;
    this.chunks.push(joined);
    return joined;
  }

  /** Consumes the first `n` buffered bytes (n ≤ buffered). */
  private take(n: number): Buffer {
    let first = this.chunks[0] as Buffer;
    if (first.byteLength < n) {
      first = Buffer.concat(this.chunks);
      this.chunks.length = 0;
      this.chunks.push(first);
    }
    const out = first.subarray(0, n);
    if (first.byteLength === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.buffered -= n;
    return out;
  }
}
