import { type RtError, rtError } from '../../errors/registry.ts';

/** gRPC call deadlines: a passed deadline withdraws the call's requests and answers DEADLINE_EXCEEDED (QUEUE_TIMEOUT). */

/** Deadline of a call in epoch milliseconds (Infinity when the client set none). */
export function deadlineMsOf(call: { getDeadline(): Date | number }): number {
  const d = call.getDeadline();
  return d instanceof Date ? d.getTime() : d;
}

/**
 * Aborts a request when its call's deadline passes, and remembers that it did, so the transport can answer
 * DEADLINE_EXCEEDED instead of the scheduler's CANCELLED.
 */
export class Deadline {
  expired = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly deadlineMs: number,
    onExpire: () => void,
  ) {
    if (!Number.isFinite(deadlineMs)) return;
    const left = deadlineMs - Date.now();
    if (left <= 0) {
      this.expired = true;
      return;
    }
    this.timer = setTimeout(() => {
      this.expired = true;
      onExpire();
    }, left);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

export function deadlineError(model: string): RtError {
  return rtError('QUEUE_TIMEOUT', `the call's deadline passed before model '${model}' answered; the request was withdrawn from the queue`);
}
