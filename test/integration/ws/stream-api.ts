/**
 * A streaming producer for tests: the server's core with an `inferStream` (InferenceApi's optional method for
 * decoupled / generative models) whose responses the test lets out one by one. Requests with parameter
 * `tokens: true` get the ticker's responses; others stream their ordinary answer as one response.
 */
import type { InferenceApi } from '../../../src/api/inference-api.ts';
import type { InferRequest, InferResponse } from '../../../src/api/types.ts';

/** A token source the test drives: `emit(n)` lets n more responses out, `end()` finishes the stream. */
export class Ticker {
  private waiting: (() => void) | undefined;
  private credits = 0;
  private ended = false;
  produced = 0;
  emit(n: number): void {
    this.credits += n;
    this.waiting?.();
  }
  end(): void {
    this.ended = true;
    this.waiting?.();
  }
  /** Ready for another stream after `end()`. */
  reset(): void {
    this.ended = false;
    this.credits = 0;
  }
  async *responses(req: InferRequest): AsyncGenerator<InferResponse> {
    for (;;) {
      while (this.credits === 0 && !this.ended) await new Promise<void>((r) => (this.waiting = r));
      if (this.credits === 0 && this.ended) return;
      this.credits--;
      this.produced++;
      yield {
        model_name: req.model,
        model_version: '1',
        outputs: [{ name: 'TOKEN', datatype: 'INT32', shape: [1], data: Int32Array.of(this.produced) }],
      };
    }
  }
}

/** The server's core with an `inferStream` producer for the model 'simple' when the request asks for it. */
export function withStream(core: InferenceApi, ticker: Ticker): InferenceApi {
  return new Proxy(core, {
    get(target, key) {
      if (key === 'inferStream') {
        return (req: InferRequest) =>
          req.parameters?.['tokens'] === true
            ? ticker.responses(req)
            : (async function* () {
                yield await target.infer(req);
              })();
      }
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
