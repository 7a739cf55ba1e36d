/**
 * Stop sequences over streamed text. Text that might be the beginning of a stop sequence is held back until the
 * next tokens decide it, so a client never receives part of a stop string (OpenAI semantics: the returned text
 * does not contain the stop sequence).
 */
import { rtError } from '../errors/registry.ts';

export const MAX_STOP_SEQUENCES = 16;
export const MAX_STOP_LENGTH = 256;

export function checkStops(stops: readonly unknown[]): string[] {
  if (stops.length > MAX_STOP_SEQUENCES)
    throw rtError('BAD_PARAMETER', `'stop' has ${stops.length} sequences; at most ${MAX_STOP_SEQUENCES} are allowed`);
  return stops.map((s, i) => {
    if (typeof s !== 'string' || s.length === 0 || s.length > MAX_STOP_LENGTH) {
      throw rtError('BAD_PARAMETER', `'stop[${i}]' must be a non-empty string of at most ${MAX_STOP_LENGTH} characters, got ${JSON.stringify(s)}`);
    }
    return s;
  });
}

export class StopMatcher {
  private held = '';

  constructor(private readonly stops: readonly string[]) {}

  /** Adds newly decoded text; returns the text safe to release and whether a stop sequence was reached. */
  push(text: string): { readonly text: string; readonly stopped: boolean } {
    if (this.stops.length === 0) return { text, stopped: false };
    const buf = this.held + text;
    let cut = -1;
    for (const s of this.stops) {
      const at = buf.indexOf(s);
      if (at >= 0 && (cut < 0 || at < cut)) cut = at;
    }
    if (cut >= 0) {
      this.held = '';
      return { text: buf.slice(0, cut), stopped: true };
    }
    // Hold the longest suffix that is a proper prefix of some stop sequence.
    let hold = 0;
    for (const s of this.stops) {
      for (let n = Math.min(s.length - 1, buf.length); n > hold; n--) {
        if (buf.endsWith(s.slice(0, n))) {
          hold = n;
          break;
        }
      }
    }
    this.held = buf.slice(buf.length - hold);
    return { text: buf.slice(0, buf.length - hold), stopped: false };
  }

  /** The held-back text, released when the generation ends for another reason. */
  flush(): string {
    const t = this.held;
    this.held = '';
    return t;
  }
}
