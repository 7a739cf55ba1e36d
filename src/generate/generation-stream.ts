/**
 * The events of one generation, numbered and kept: any number of readers may iterate them from any point
 * (`events(after)`), which is what resume needs — a reader that reconnects with the last `seq` it saw gets every
 * later event exactly once, then live ones. A generation has at most max_context + 1 events, so keeping all of
 * them is bounded; front ends with their own replay buffer (the WebSocket/SSE ReplayStream) simply read once.
 */
import { rtError, type RtError } from '../errors/registry.ts';
import type { DeltaEvent, DoneEvent, ErrorEvent, GenerationEvent, GenerationResult } from './types.ts';

type Body = Omit<DeltaEvent, 'seq'> | Omit<DoneEvent, 'seq'> | Omit<ErrorEvent, 'seq'>;

export class GenerationStream {
  private readonly log: GenerationEvent[] = [];
  private readonly wakers = new Set<() => void>();
  private terminal: DoneEvent | ErrorEvent | undefined;
  private settle!: { resolve: (r: GenerationResult) => void; reject: (e: RtError) => void };
  /** Resolves with the whole output at the end; rejects with the error event's error. */
  readonly result: Promise<GenerationResult>;

  constructor(private readonly summarize: (done: DoneEvent) => GenerationResult) {
    this.result = new Promise<GenerationResult>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Nobody may be awaiting `result`; an error event must not become an unhandled rejection.
    this.result.catch(() => undefined);
  }

  get finished(): boolean {
    return this.terminal !== undefined;
  }

  get lastSeq(): number {
    return this.log.length;
  }

  /** Appends an event (ignored after the terminal one: a cancel may race with the last step). */
  push(body: Body): GenerationEvent | undefined {
    if (this.terminal !== undefined) return undefined;
    const event = { ...body, seq: this.log.length + 1 } as GenerationEvent;
    this.log.push(event);
    if (event.type === 'done') {
      this.terminal = event;
      this.settle.resolve(this.summarize(event));
    } else if (event.type === 'error') {
      this.terminal = event;
      this.settle.reject(event.error);
    }
    for (const wake of [...this.wakers]) wake();
    return event;
  }

  /** Events with seq > `after`, then live ones, ending with the terminal event. */
  events(after = 0): AsyncIterable<GenerationEvent> {
    if (!Number.isInteger(after) || after < 0 || after > this.log.length) {
      throw rtError('BAD_PARAMETER', `cannot resume after event ${after}: the generation has ${this.log.length} events so far`);
    }
    const self = this;
    return {
      [Symbol.asyncIterator](): AsyncIterator<GenerationEvent> {
        let next = after;
        let closed = false;
        let waker: (() => void) | undefined;
        return {
          async next(): Promise<IteratorResult<GenerationEvent>> {
            while (next >= self.log.length) {
              if (closed || self.terminal !== undefined) return { done: true, value: undefined };
              await new Promise<void>((resolve) => {
                waker = () => {
                  if (waker !== undefined) self.wakers.delete(waker);
                  waker = undefined;
                  resolve();
                };
                self.wakers.add(waker);
              });
            }
            if (closed) return { done: true, value: undefined };
            const value = self.log[next] as GenerationEvent;
            next++;
            return { done: false, value };
          },
          async return(): Promise<IteratorResult<GenerationEvent>> {
            closed = true;
            if (waker !== undefined) {
              const w = waker;
              self.wakers.delete(w);
              waker = undefined;
              w();
            }
            return { done: true, value: undefined };
          },
        };
      },
    };
  }
}
