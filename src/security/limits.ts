import { rtError } from '../errors/registry.ts';

/** Structural limits on a request, beyond its byte size (server config keys of the same names). */
export interface RequestLimits {
  readonly maxJsonDepth: number;
  readonly maxJsonElements: number;
  readonly maxInputsPerRequest: number;
  readonly maxElementsPerTensor: number;
}

/**
 * Checks JSON bytes against the nesting and element limits in one pass over the bytes, before JSON.parse builds
 * anything: a 64 MiB body of `[[[[...` or of a million tiny values is refused without materialising it.
 * Elements are counted as value separators and container openings (an upper bound of the number of values).
 * Strings are skipped, honouring backslash escapes. Malformed JSON is left for the parser to report.
 */
export function checkJsonLimits(bytes: Uint8Array, limits: Pick<RequestLimits, 'maxJsonDepth' | 'maxJsonElements'>, what = 'the request body'): void {
  const n = bytes.length;
  const { maxJsonDepth, maxJsonElements } = limits;
  // Neither limit can be reached by a body this short: every level costs a byte, every element at least one.
  if (n <= maxJsonDepth && n <= maxJsonElements) return;
  let depth = 0;
  let elements = 0;
  let i = 0;
  while (i < n) {
    const c = bytes[i]!;
    if (c === 0x22) {
      // skip a string
      i++;
      while (i < n) {
        const d = bytes[i]!;
        if (d === 0x5c) i += 2;
        else if (d === 0x22) break;
        else i++;
      }
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      elements++;
      if (depth > maxJsonDepth) {
        throw rtError('LIMIT_EXCEEDED', `${what} nests JSON deeper than the limit of ${maxJsonDepth} levels (server setting maxJsonDepth)`);
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (c === 0x2c) {
      elements++;
      if (elements > maxJsonElements) {
        throw rtError(
          'LIMIT_EXCEEDED',
          `${what} holds more than ${maxJsonElements} JSON values (server setting maxJsonElements); send large tensors as binary data`,
        );
      }
    }
    i++;
  }
  if (elements > maxJsonElements) {
    throw rtError(
      'LIMIT_EXCEEDED',
      `${what} holds more than ${maxJsonElements} JSON values (server setting maxJsonElements); send large tensors as binary data`,
    );
  }
}

export interface ShapedTensor {
  readonly name: string;
  readonly shape: readonly number[];
}

/** Inputs per request and elements per tensor, for every front end once the request is decoded. */
export function checkTensorLimits(
  inputs: readonly ShapedTensor[],
  limits: Pick<RequestLimits, 'maxInputsPerRequest' | 'maxElementsPerTensor'>,
): void {
  if (inputs.length > limits.maxInputsPerRequest) {
    throw rtError(
      'LIMIT_EXCEEDED',
      `the request has ${inputs.length} inputs; the limit is ${limits.maxInputsPerRequest} (server setting maxInputsPerRequest)`,
    );
  }
  for (const t of inputs) {
    let count = 1;
    for (const d of t.shape) count *= d;
    if (count > limits.maxElementsPerTensor) {
      throw rtError(
        'LIMIT_EXCEEDED',
        `input '${t.name}' has ${count} elements (shape [${t.shape.join(',')}]); the limit is ${limits.maxElementsPerTensor} per tensor (server setting maxElementsPerTensor)`,
      );
    }
  }
}

/**
 * A token bucket for one connection's messages (WebSocket message rate): `take()` is false when the client sends
 * faster than `perSec` on average with bursts up to `burst`. O(1), no timers.
 */
export class MessageRateLimiter {
  private tokens: number;
  private lastMs: number;

  constructor(
    private readonly perSec: number,
    private readonly burst: number = Math.max(1, Math.ceil(perSec * 2)),
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.lastMs = now();
  }

  /** True when the message may be processed; false means over the rate (see retryAfterMs). */
  take(): boolean {
    if (this.perSec <= 0) return true;
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.lastMs) * this.perSec) / 1000);
    this.lastMs = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until the next message would be accepted. */
  get retryAfterMs(): number {
    return this.tokens >= 1 || this.perSec <= 0 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.perSec);
  }
}
