/**
 * Frames over a stream socket between a front-end worker and the engine owner (docs/workers.md). A frame carries
 * several messages (calls, answers, notifications), each a small JSON head with binary parts (tensor bytes), so the
 * bytes are never turned into JSON:
 *
 *   u32 LE head bytes │ u32 LE binary bytes │ heads (UTF-8 JSON array, each with `p`: its parts' lengths) │ parts, each padded to 8
 *
 * Messages sent within one turn of the event loop leave in one frame and one write (flushed by setImmediate, once the
 * loop's I/O callbacks ran): the requests a worker read from many connections in one poll reach the owner as one
 * frame, one read and one JSON parse, and the answers of one batch go back the same way. A message's parts are
 * copied into the frame as it is sent (its caller may reuse them at once), except those of a message with more than
 * 16 KiB of parts: it is written at once, with the messages before it, its parts by reference.
 *
 * A received message's parts are views at 8-byte aligned offsets, so typed arrays of any element size view them
 * without a copy: over one fresh buffer of that message alone, or, for a message of a few KiB, over a slab shared
 * with other small messages.
 */
import type { Socket } from 'node:net';

const PREFIX_BYTES = 8;
const ALIGN = 8;

/** A message's JSON head: `p` (the parts' lengths) is the channel's own field. */
export type FrameHead = Record<string, unknown>;

const padOf = (n: number): number => (ALIGN - (n % ALIGN)) % ALIGN;
const ZEROS = new Uint8Array(ALIGN);
/** A message with at most this many binary bytes is copied into the frame being gathered; a larger one goes at once. */
const COPY_BYTES = 16 * 1024;
/** A frame being gathered leaves at once when its copied parts reach this size. */
const FLUSH_BYTES = 256 * 1024;
/** The first size of a frame's buffer of copied parts (below 4 KiB: from Buffer's pool). */
const GATHER_BYTES = 2 * 1024;
/**
 * A received message with at most this many binary bytes gets its parts in a shared slab (as Buffer's pool does),
 * not a fresh buffer of its own: an allocation per message costs more than the bytes. Such a message has no
 * `frameBuffer`, so nothing takes its buffer whole (an engine copies the few bytes instead).
 */
const SLAB_PART_BYTES = 4 * 1024;
const SLAB_BYTES = 256 * 1024;

export class FrameChannel {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  /** The frame being gathered: its messages' JSON heads and their copied parts. */
  private heads: string[] = [];
  private gathered: Buffer | undefined;
  private gatheredBytes = 0;
  private flushScheduled = false;
  private slab: Uint8Array | undefined;
  private slabUsed = 0;
  private closedReason: Error | undefined;
  /** Frames and messages each way, since the channel opened. */
  readonly counts = { framesSent: 0, messagesSent: 0, framesReceived: 0, messagesReceived: 0 };
  /** Called with each received message, in order. */
  onMessage: (head: FrameHead, parts: Uint8Array[], frameBuffer: ArrayBuffer | undefined) => void = () => {};
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

  /** Sends one message (in the frame of this loop turn); false when the channel is closed (nothing is sent). */
  send(head: FrameHead, parts: readonly Uint8Array[] = []): boolean {
    if (this.closed) return false;
    let binary = 0;
    if (parts.length > 0) {
      const lengths: number[] = [];
      for (const p of parts) {
        lengths.push(p.byteLength);
        binary += p.byteLength + padOf(p.byteLength);
      }
      head['p'] = lengths;
    }
    this.heads.push(JSON.stringify(head));
    this.counts.messagesSent++;
    if (binary > COPY_BYTES) {
      this.flush(parts, binary);
      return true;
    }
    if (binary > 0) this.gather(parts, binary);
    if (this.gatheredBytes >= FLUSH_BYTES) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
    return true;
  }

  /** Sends what was gathered, then closes the socket's writing side. */
  close(): void {
    this.flush();
    this.socket.end();
  }

  /** Copies `parts` (`binary` bytes with their padding) into the frame being gathered. */
  private gather(parts: readonly Uint8Array[], binary: number): void {
    let g = this.gathered;
    const need = this.gatheredBytes + binary;
    if (g === undefined || g.byteLength < need) {
      const grown = Buffer.allocUnsafe(Math.max(GATHER_BYTES, need, 2 * (g?.byteLength ?? 0)));
      if (g !== undefined) g.copy(grown, 0, 0, this.gatheredBytes);
      this.gathered = g = grown;
    }
    let at = this.gatheredBytes;
    for (const p of parts) {
      g.set(p, at);
      at += p.byteLength;
      const pad = padOf(p.byteLength);
      if (pad > 0) g.fill(0, at, at + pad);
      at += pad;
    }
    this.gatheredBytes = at;
  }

  /** Writes the gathered messages as one frame, followed by `large` (the last message's parts, `largeBytes` padded). */
  private flush(large: readonly Uint8Array[] = [], largeBytes = 0): void {
    if (this.heads.length === 0) return;
    const text = `[${this.heads.join(',')}]`;
    this.heads = [];
    const gathered = this.gathered?.subarray(0, this.gatheredBytes);
    this.gathered = undefined;
    this.gatheredBytes = 0;
    const s = this.socket;
    if (s.destroyed) return;
    const headBytes = Buffer.byteLength(text);
    const prefix = Buffer.allocUnsafe(PREFIX_BYTES + headBytes);
    prefix.writeUInt32LE(headBytes, 0);
    prefix.writeUInt32LE((gathered?.byteLength ?? 0) + largeBytes, 4);
    prefix.write(text, PREFIX_BYTES);
    this.counts.framesSent++;
    // One writev for the frame's pieces.
    s.cork();
    s.write(prefix);
    if (gathered !== undefined && gathered.byteLength > 0) s.write(gathered);
    for (const p of large) {
      if (p.byteLength > 0) s.write(p);
      const pad = padOf(p.byteLength);
      if (pad > 0) s.write(ZEROS.subarray(0, pad));
    }
    s.uncork();
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
      const heads = JSON.parse(frame.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headBytes)) as FrameHead[];
      this.counts.framesReceived++;
      let at = PREFIX_BYTES + headBytes;
      for (const head of heads) {
        this.counts.messagesReceived++;
        const lengths = head['p'];
        if (!Array.isArray(lengths) || lengths.length === 0) {
          this.onMessage(head, [], undefined);
          continue;
        }
        let binary = 0;
        for (const n of lengths as number[]) binary += n + padOf(n);
        let frameBuffer: ArrayBuffer | undefined;
        let bytes: Uint8Array;
        if (binary <= SLAB_PART_BYTES) bytes = this.fromSlab(binary);
        else {
          // One fresh buffer per message: aligned views, and a buffer that belongs to this message's request alone.
          frameBuffer = new ArrayBuffer(binary);
          bytes = new Uint8Array(frameBuffer);
        }
        bytes.set(frame.subarray(at, at + binary));
        at += binary;
        let offset = 0;
        const parts = (lengths as number[]).map((n) => {
          const view = bytes.subarray(offset, offset + n);
          offset += n + padOf(n);
          return view;
        });
        this.onMessage(head, parts, frameBuffer);
      }
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
