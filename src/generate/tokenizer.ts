/**
 * Tokenizers named by a model config's `generate.tokenizer`. Only `bytes` exists so far: token ids 0..255 are
 * the UTF-8 bytes of the text, ids from 256 up are special tokens (end of text) that never appear as text.
 */
import { rtError } from '../errors/registry.ts';

export interface Tokenizer {
  encode(text: string): number[];
  /** An incremental decoder for one output: bytes split across tokens come out once the character is whole. */
  decoder(): StreamDecoder;
}

export interface StreamDecoder {
  /** Text completed by this token ('' for a partial character or a special token). */
  push(token: number): string;
  /** Whatever is pending at the end (an incomplete character becomes U+FFFD, WHATWG Encoding §4.2). */
  flush(): string;
}

const encoder = new TextEncoder();

class ByteTokenizer implements Tokenizer {
  encode(text: string): number[] {
    return Array.from(encoder.encode(text));
  }

  decoder(): StreamDecoder {
    const td = new TextDecoder('utf-8', { fatal: false });
    const one = new Uint8Array(1);
    return {
      push(token: number): string {
        if (token < 0 || token > 255) return '';
        one[0] = token;
        return td.decode(one, { stream: true });
      },
      flush(): string {
        return td.decode();
      },
    };
  }
}

export function tokenizerFor(name: string): Tokenizer {
  if (name === 'bytes') return new ByteTokenizer();
  throw rtError('BAD_CONFIG', `generate.tokenizer '${name}' is not supported (supported: bytes)`);
}
