import { status as GrpcStatus, type ServerDuplexStream } from '@grpc/grpc-js';
import { rtError } from '../../errors/registry.ts';
import { encodeModelStreamInferError, encodeModelStreamInferResponse, type DecodedInferMessage } from '../../codec/grpc/infer-codec.ts';
import { Deadline, deadlineError, deadlineMsOf } from './deadline.ts';
import type { InferStreamHost } from './grpc-front-types.ts';

/** One ModelStreamInfer call. */
export class InferStream {
  onDone: (() => void) | undefined;
  private readonly pending = new Set<AbortController>();
  private readonly deadline: Deadline;
  private readEnded = false;
  private draining = false;
  private closed = false;
  private pausedForInflight = false;
  private pausedForWrites = false;
  /** Response bytes written to the call and not yet sent on to HTTP/2 (their write callbacks are pending). */
  private unsentBytes = 0;

  constructor(
    private readonly call: ServerDuplexStream<DecodedInferMessage, Buffer>,
    private readonly front: InferStreamHost,
  ) {
    this.deadline = new Deadline(deadlineMsOf(call), () => this.abortAll());
    call.on('data', (msg: DecodedInferMessage) => this.onMessage(msg));
    call.on('end', () => {
      this.readEnded = true;
      this.maybeFinish();
    });
    call.on('cancelled', () => this.abortAll());
    // A write or read error on the HTTP/2 stream: grpc-js ends the call; nothing is left to answer.
    call.on('error', () => this.abortAll());
    // Already past its deadline on arrival: grpc-js answers DEADLINE_EXCEEDED; run nothing for it.
    if (this.deadline.expired) this.abortAll();
    else if (front.draining) this.drain();
  }

  private onMessage(msg: DecodedInferMessage): void {
    if (this.closed) return;
    if (!msg.ok) {
      this.write(encodeModelStreamInferError(this.front.statusOf(msg.error).details, msg));
      return;
    }
    const req = msg.request;
    const ids = { model: req.model, version: req.version ?? '', id: req.id ?? '' };
    const controller = new AbortController();
    this.pending.add(controller);
    if (this.pending.size >= this.front.inflightLimit && !this.pausedForInflight) {
      this.pausedForInflight = true;
      this.call.pause();
    }
    const settle = (): void => {
      this.pending.delete(controller);
      if (this.pausedForInflight && this.pending.size < this.front.inflightLimit) {
        this.pausedForInflight = false;
        this.maybeResume();
      }
      this.maybeFinish();
    };
    const context = this.front.edgeContextOf(this.call.metadata, req.id);
    const answer = async (principal: string | undefined): Promise<void> => {
      for await (const resp of this.front.inferResponses(req, controller.signal, context, principal)) {
        this.write(this.front.checkSize(encodeModelStreamInferResponse(resp), req.model));
      }
    };
    this.front.admitted(
      'infer',
      req.model,
      this.call,
      (release, principal) => {
        answer(principal?.id)
          .finally(release)
          .catch((err: unknown) => {
            const e = this.deadline.expired ? deadlineError(req.model) : err;
            this.write(encodeModelStreamInferError(this.front.statusOf(e, principal).details, ids));
          })
          .then(settle);
      },
      (status) => {
        this.write(encodeModelStreamInferError(status.details, ids));
        settle();
      },
    );
  }

  private write(buf: Buffer): void {
    if (this.closed) return;
    this.unsentBytes += buf.length;
    const more = this.call.write(buf, () => {
      this.unsentBytes -= buf.length;
    });
    if (this.unsentBytes > this.front.unsentLimit) {
      this.tooSlow();
      return;
    }
    if (!more && !this.pausedForWrites) {
      // The client reads slower than we answer: stop reading requests until the writes drain.
      this.pausedForWrites = true;
      this.call.pause();
      this.call.once('drain', () => {
        this.pausedForWrites = false;
        this.maybeResume();
      });
    }
  }

  /**
   * The client does not read what it asked for (the bound covers every response and error written, whatever the
   * in-flight limit): its work is cancelled, nothing more is written, and the stream ends with RESOURCE_EXHAUSTED
   * SLOW_CONSUMER behind what it has not read; counted.
   */
  private tooSlow(): void {
    const unsent = this.unsentBytes;
    this.abortAll();
    this.front.slowClient();
    const err = rtError(
      'SLOW_CONSUMER',
      `the client reads too slowly: ${unsent} response bytes wait unsent on the stream (limit ${this.front.unsentLimit}); open a new stream`,
    );
    this.call.emit('error', this.front.statusOf(err));
  }

  private maybeResume(): void {
    if (!this.pausedForInflight && !this.pausedForWrites && !this.closed) this.call.resume();
  }

  /** The server is draining: answer what is in flight, then end the stream with UNAVAILABLE. */
  drain(): void {
    this.draining = true;
    this.maybeFinish();
  }

  private maybeFinish(): void {
    if (this.closed || this.pending.size > 0) return;
    if (this.readEnded) {
      this.finish();
      this.call.end();
    } else if (this.draining) {
      this.finish();
      this.call.emit('error', { code: GrpcStatus.UNAVAILABLE, details: 'the server is shutting down; open a new stream to another instance' });
    }
  }

  private abortAll(): void {
    if (this.closed) return;
    this.finish();
    for (const c of this.pending) c.abort();
    this.pending.clear();
  }

  private finish(): void {
    this.closed = true;
    this.deadline.dispose();
    this.onDone?.();
  }
}
