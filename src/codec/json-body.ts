import { rtError } from '../errors/registry.ts';
import { utf8Decoder } from './tensor-data.ts';

/**
 * JSON bodies: parsing UTF-8 bytes with positioned error messages (BAD_JSON with line and column).
 */

/**
 * Parses UTF-8 JSON bytes. Errors are BAD_JSON with the character position (and line/column) of the first
 * problem: V8's own messages give a position only for some mistakes, so we find it ourselves.
 */
export function parseJsonBytes(bytes: Uint8Array, what: string): unknown {
  let text: string;
  try {
    text = utf8Decoder.decode(bytes);
  } catch (err) {
    throw rtError('BAD_JSON', `${what} is not valid UTF-8`, { cause: err });
  }
  return parseJsonText(text, what);
}

export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const found = findJsonError(text);
    const pos = found?.position ?? text.length;
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < pos && i < text.length; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    const reason = found?.reason ?? (err instanceof Error ? err.message : 'syntax error');
    throw rtError('BAD_JSON', `${what} is not valid JSON: ${reason} at position ${pos} (line ${line}, column ${pos - lineStart + 1})`, {
      cause: err,
    });
  }
}

/**
 * A small JSON (RFC 8259) scanner used only after JSON.parse has failed, to report where. Returns the position
 * and a reason for the first error, or undefined when it finds none.
 */
export function findJsonError(text: string): { position: number; reason: string } | undefined {
  let i = 0;
  const n = text.length;
  class Stop {
    readonly position: number;
    readonly reason: string;
    constructor(position: number, reason: string) {
      this.position = position;
      this.reason = reason;
    }
  }
  const fail = (reason: string, at = i): never => {
    throw new Stop(at, reason);
  };
  const unexpected = (): never => (i >= n ? fail('unexpected end of input') : fail(`unexpected character ${JSON.stringify(text[i])}`));
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else unexpected();
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= n) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 32) fail('control character in string');
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          fail('bad escape in string');
        }
      } else {
        i++;
      }
    }
  };
  const number = (): void => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m === null || m[0] === '' || m[0] === '-') unexpected();
    else i += m[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10000) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i >= n ? 'unexpected end of input' : 'expected a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail(i >= n ? 'unexpected end of input' : "expected ':' after property name");
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(i >= n ? 'unexpected end of input' : "expected ',' or '}' after property value");
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(i >= n ? 'unexpected end of input' : "expected ',' or ']' after array element");
      }
    } else if (c === '"') {
      string();
    } else if (c === 't') {
      literal('true');
    } else if (c === 'f') {
      literal('false');
    } else if (c === 'n') {
      literal('null');
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      number();
    } else {
      unexpected();
    }
  };
  try {
    value(0);
    ws();
    if (i < n) fail('unexpected content after the JSON value');
    return undefined;
  } catch (err) {
    if (err instanceof Stop) return { position: err.position, reason: err.reason };
    // A RangeError from very deep recursion: report the depth problem without a position we do not know.
    return undefined;
  }
}
