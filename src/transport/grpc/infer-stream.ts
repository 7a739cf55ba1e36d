import { status as GrpcStatus, type ServerDuplexStream } from '@grpc/grpc-js';
import { encodeModelStreamInferError, encodeModelStreamInferResponse, type DecodedInferMessage } from '../../codec/grpc/infer-codec.ts';
import { Deadline, deadlineError, deadlineMsOf } from './deadline.ts';
import type { GrpcFront } from './grpc-server.ts';

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

  constructor(
    private readonly call: ServerDuplexStream<DecodedInferMessage, Buffer>,
    private readonly front: GrpcFront,
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
    const answer = async (principal: string | undefined): Promise<void> => {
      for await (const resp of this.front.inferResponses(req, controller.signal, principal)) {
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
    if (!this.call.write(buf) && !this.pausedForWrites) {
      // The client reads slower than we answer: stop reading requests until the writes drain.
      this.pausedForWrites = true;
      this.call.pause();
      this.call.once('drain', () => {
        this.pausedForWrites = false;
        this.maybeResume();
      });
    }
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
