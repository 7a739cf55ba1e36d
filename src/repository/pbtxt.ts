/**
 * Protobuf text format (the `config.pbtxt` of a Triton model repository) → the JSON spelling of ModelConfig.
 *
 * Text format as protobuf's TextFormat parser accepts it: `field: value`, `field { ... }` or `field < ... >`
 * (the `:` before a message is optional), repeated fields as repeated keys or as `field: [a, b]` lists, maps as
 * repeated `{ key: .. value: .. }` entries, `#` comments, single- or double-quoted strings with C escapes
 * (adjacent strings concatenate), and `,` or `;` as optional separators. Enum values stay strings (TYPE_FP32).
 */
import { rtError } from '../errors/registry.ts';
import { didYouMean } from '../config/hint.ts';
import type { ModelConfigInput } from '../config/model-config.ts';
import { MODEL_CONFIG_DESC, unsupportedFieldWarning } from './config-fields.ts';
import type { FieldType, MessageDesc } from './config-fields.ts';

// ---------------------------------------------------------------------------------------------------------------
// Tokenizer

type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'eof';

interface Token {
  readonly kind: TokenKind;
  /** Identifier or punctuation text, the number as written, or the decoded string (UTF-8 bytes as text). */
  readonly text: string;
  readonly line: number;
  readonly col: number;
}

class PbtxtError extends Error {
  constructor(
    readonly line: number,
    readonly col: number,
    readonly detail: string,
  ) {
    super(`${line}:${col}: ${detail}`);
  }
}

const PUNCT = new Set(['{', '}', '<', '>', '[', ']', ':', ',', ';']);
const utf8 = new TextDecoder('utf-8', { fatal: false });

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const col = (): number => i - lineStart + 1;
  const fail = (detail: string, at = col()): never => {
    throw new PbtxtError(line, at, detail);
  };

  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const startCol = col();
    if (PUNCT.has(c)) {
      tokens.push({ kind: 'punct', text: c, line, col: startCol });
      i++;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      // Dotted names only occur in `[package.extension]` field names, which the parser then rejects clearly.
      const m = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(text.slice(i));
      const j = i + (m?.[0].length ?? 1);
      tokens.push({ kind: 'ident', text: text.slice(i, j), line, col: startCol });
      i = j;
      continue;
    }
    if (/[0-9.+-]/.test(c)) {
      // A number, or a sign before an identifier such as `-inf`.
      const m = /^[+-]?(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fF]?|[A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i));
      if (m === null || m[0] === '+' || m[0] === '-') fail(`unexpected character '${c}'`);
      const word = (m as RegExpExecArray)[0];
      const next = text[i + word.length];
      if (next !== undefined && /[A-Za-z0-9_.]/.test(next)) fail(`malformed number '${word}${next}'`);
      tokens.push({ kind: 'number', text: word, line, col: startCol });
      i += word.length;
      continue;
    }
    if (c === '"' || c === "'") {
      const bytes: number[] = [];
      let j = i + 1;
      const pushText = (s: string): void => {
        for (const b of new TextEncoder().encode(s)) bytes.push(b);
      };
      for (;;) {
        const ch = text[j];
        if (ch === undefined || ch === '\n') fail('unterminated string', startCol);
        if (ch === c) break;
        if (ch !== '\\') {
          pushText(ch as string);
          j++;
          continue;
        }
        const e = text[j + 1];
        const escCol = j - lineStart + 1;
        j += 2;
        switch (e) {
          case 'n':
            bytes.push(10);
            break;
          case 't':
            bytes.push(9);
            break;
          case 'r':
            bytes.push(13);
            break;
          case 'a':
            bytes.push(7);
            break;
          case 'b':
            bytes.push(8);
            break;
          case 'f':
            bytes.push(12);
            break;
          case 'v':
            bytes.push(11);
            break;
          case '\\':
          case "'":
          case '"':
          case '?':
            bytes.push((e as string).charCodeAt(0));
            break;
          case 'x':
          case 'X': {
            const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(j));
            if (m === null) fail('\\x escape needs hex digits', escCol);
            bytes.push(parseInt((m as RegExpExecArray)[0], 16));
            j += (m as RegExpExecArray)[0].length;
            break;
          }
          case 'u':
          case 'U': {
            const len = e === 'u' ? 4 : 8;
            const hex = text.slice(j, j + len);
            if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) fail(`\\${e} escape needs ${len} hex digits`, escCol);
            const cp = parseInt(hex, 16);
            if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail(`\\${e}${hex} is not a valid code point`, escCol);
            pushText(String.fromCodePoint(cp));
            j += len;
            break;
          }
          default: {
            const m = /^[0-7]{1,3}/.exec(text.slice(j - 1));
            if (m === null) fail(`unknown escape '\\${e ?? ''}'`, escCol);
            const v = parseInt((m as RegExpExecArray)[0], 8);
            if (v > 255) fail(`octal escape \\${(m as RegExpExecArray)[0]} is out of range`, escCol);
            bytes.push(v);
            j += (m as RegExpExecArray)[0].length - 1;
          }
        }
      }
      const value = utf8.decode(new Uint8Array(bytes));
      const prev = tokens[tokens.length - 1];
      // Adjacent string literals concatenate ("abc" "def" is "abcdef").
      if (prev !== undefined && prev.kind === 'string') {
        tokens[tokens.length - 1] = { ...prev, text: prev.text + value };
      } else {
        tokens.push({ kind: 'string', text: value, line, col: startCol });
      }
      i = j + 1;
      continue;
    }
    fail(`unexpected character '${c}'`);
  }
  tokens.push({ kind: 'eof', text: '', line, col: col() });
  return tokens;
}

// ---------------------------------------------------------------------------------------------------------------
// Parser: text → a tree of fields, in order of appearance

type PbValue =
  | { readonly kind: 'scalar'; readonly token: Token }
  | { readonly kind: 'message'; readonly fields: PbField[]; readonly line: number; readonly col: number };

interface PbField {
  readonly name: string;
  readonly line: number;
  readonly col: number;
  readonly values: PbValue[];
}

class Parser {
  #pos = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  #peek(): Token {
    return this.tokens[this.#pos] ?? (this.tokens[this.tokens.length - 1] as Token);
  }
  #next(): Token {
    const t = this.#peek();
    if (t.kind !== 'eof') this.#pos++;
    return t;
  }
  #isPunct(text: string): boolean {
    const t = this.#peek();
    return t.kind === 'punct' && t.text === text;
  }
  #fail(t: Token, detail: string): never {
    throw new PbtxtError(t.line, t.col, detail);
  }
  #describe(t: Token): string {
    if (t.kind === 'eof') return 'end of file';
    if (t.kind === 'string') return `string "${t.text}"`;
    return `'${t.text}'`;
  }

  parseTop(): PbField[] {
    const fields = this.#parseFields(undefined, undefined);
    const t = this.#peek();
    if (t.kind !== 'eof') this.#fail(t, `unexpected ${this.#describe(t)}`);
    return fields;
  }

  #parseFields(close: string | undefined, open: Token | undefined): PbField[] {
    const fields: PbField[] = [];
    for (;;) {
      const t = this.#peek();
      if (t.kind === 'eof') {
        if (close !== undefined) {
          const where = open === undefined ? '' : ` to close the '${open.text}' at ${open.line}:${open.col}`;
          this.#fail(t, `expected '${close}'${where} before end of file`);
        }
        return fields;
      }
      if (close !== undefined && t.kind === 'punct' && t.text === close) return fields;
      fields.push(this.#parseField());
      if (this.#isPunct(',') || this.#isPunct(';')) this.#next();
    }
  }

  #parseField(): PbField {
    const nameTok = this.#next();
    if (nameTok.kind === 'punct' && nameTok.text === '[') {
      this.#fail(nameTok, 'extension and Any fields ([...]) are not supported in a model config');
    }
    if (nameTok.kind !== 'ident') this.#fail(nameTok, `expected a field name, got ${this.#describe(nameTok)}`);
    const field: PbField = { name: nameTok.text, line: nameTok.line, col: nameTok.col, values: [] };
    const hasColon = this.#isPunct(':');
    if (hasColon) this.#next();
    if (this.#isPunct('{') || this.#isPunct('<')) {
      field.values.push(this.#parseMessage());
      return field;
    }
    // The ':' is optional before a message and before a list of messages (`input [ { ... } ]`), as in protobuf.
    if (!hasColon && !this.#isPunct('[')) {
      const t = this.#peek();
      this.#fail(t, `expected ':' or '{' after field name '${nameTok.text}', got ${this.#describe(t)}`);
    }
    if (this.#isPunct('[')) {
      const open = this.#next();
      if (this.#isPunct(']')) {
        this.#next();
        return field;
      }
      for (;;) {
        if (this.#peek().kind === 'eof') this.#fail(open, `list for '${nameTok.text}' is never closed with ']'`);
        const isMessage = this.#isPunct('{') || this.#isPunct('<');
        if (!hasColon && !isMessage)
          this.#fail(this.#peek(), `expected a message in the list for '${nameTok.text}' (a list of values needs ':' before '[')`);
        field.values.push(isMessage ? this.#parseMessage() : this.#parseScalar(nameTok.text));
        if (this.#isPunct(',')) {
          this.#next();
          continue;
        }
        if (this.#isPunct(']')) {
          this.#next();
          return field;
        }
        const t = this.#peek();
        if (t.kind === 'eof') this.#fail(open, `list for '${nameTok.text}' is never closed with ']'`);
        this.#fail(t, `expected ',' or ']' in the list for '${nameTok.text}', got ${this.#describe(t)}`);
      }
    }
    field.values.push(this.#parseScalar(nameTok.text));
    return field;
  }

  #parseMessage(): PbValue {
    const open = this.#next();
    const close = open.text === '{' ? '}' : '>';
    const fields = this.#parseFields(close, open);
    this.#next();
    return { kind: 'message', fields, line: open.line, col: open.col };
  }

  #parseScalar(fieldName: string): PbValue {
    const t = this.#next();
    if (t.kind === 'ident' || t.kind === 'number' || t.kind === 'string') return { kind: 'scalar', token: t };
    this.#fail(t, `expected a value for '${fieldName}', got ${this.#describe(t)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Mapping: field tree → JSON spelling of ModelConfig, guided by config-fields.ts

type Json = string | number | boolean | Json[] | { [key: string]: Json };

class Mapper {
  readonly warnings: string[] = [];
  /** Paths of the unsupported fields that were dropped (`sequence_batching`, `instance_group.rate_limiter`). */
  readonly dropped: string[] = [];
  constructor(private readonly source: string) {}

  #fail(line: number, col: number, detail: string): never {
    throw new PbtxtError(line, col, detail);
  }

  message(fields: readonly PbField[], desc: MessageDesc, path: string): { [key: string]: Json } {
    const out: { [key: string]: Json } = {};
    const seen = new Map<string, PbField>();
    for (const field of fields) {
      const fieldPath = path === '' ? field.name : `${path}.${field.name}`;
      if (desc.unsupported.includes(field.name)) {
        if (!this.dropped.includes(fieldPath)) {
          this.dropped.push(fieldPath);
          this.warnings.push(unsupportedFieldWarning(this.source, fieldPath));
        }
        continue;
      }
      const fd = desc.fields[field.name];
      if (fd === undefined) {
        const known = [...Object.keys(desc.fields), ...desc.unsupported];
        this.#fail(field.line, field.col, `unknown field '${field.name}' in ${desc.name}${didYouMean(field.name, known)}`);
      }
      if (fd.repeated === true) {
        const list = (out[field.name] ??= []) as Json[];
        for (const v of field.values) list.push(this.value(v, fd.type, fieldPath, field));
        continue;
      }
      if (fd.type.t === 'map') {
        const map = (out[field.name] ??= {}) as { [key: string]: Json };
        for (const v of field.values) this.#mapEntry(v, fd.type.value, fieldPath, field, map);
        continue;
      }
      const prev = seen.get(field.name);
      if (prev !== undefined || field.values.length !== 1) {
        this.#fail(
          field.line,
          field.col,
          prev !== undefined
            ? `field '${fieldPath}' is not repeated but is set twice (first at line ${prev.line})`
            : `field '${fieldPath}' is not repeated and cannot take a list`,
        );
      }
      seen.set(field.name, field);
      out[field.name] = this.value(field.values[0] as PbValue, fd.type, fieldPath, field);
    }
    return out;
  }

  #mapEntry(v: PbValue, valueType: FieldType, path: string, field: PbField, into: { [key: string]: Json }): void {
    if (v.kind !== 'message') this.#fail(field.line, field.col, `map field '${path}' takes { key: ... value: ... } entries`);
    let key: string | undefined;
    let value: Json | undefined;
    for (const f of v.fields) {
      const inner = f.values[0];
      if (f.values.length !== 1 || inner === undefined) this.#fail(f.line, f.col, `'${f.name}' of a map entry takes one value`);
      if (f.name === 'key') {
        if (inner.kind !== 'scalar' || (inner.token.kind !== 'string' && inner.token.kind !== 'number')) {
          this.#fail(f.line, f.col, `the key of a '${path}' entry must be a string or a number`);
        }
        key = inner.token.text;
      } else if (f.name === 'value') {
        value = this.value(inner, valueType, `${path}[]`, f);
      } else {
        this.#fail(f.line, f.col, `unknown field '${f.name}' in a map entry of '${path}' (expected 'key' and 'value')`);
      }
    }
    if (key === undefined) this.#fail(v.line, v.col, `a '${path}' entry has no key`);
    if (key in into) this.#fail(v.line, v.col, `map '${path}' has the key "${key}" twice`);
    // A missing value is the value type's default; for messages that is an empty message.
    into[key] = value ?? (valueType.t === 'message' ? {} : valueType.t === 'string' ? '' : 0);
  }

  value(v: PbValue, type: FieldType, path: string, field: PbField): Json {
    if (type.t === 'message' || (type.t === 'stringOrMessage' && v.kind === 'message')) {
      if (v.kind !== 'message') this.#fail(v.token.line, v.token.col, `field '${path}' is a message: write '${field.name} { ... }'`);
      return this.message(v.fields, type.message, path);
    }
    if (type.t === 'map') this.#fail(field.line, field.col, `map field '${path}' cannot appear here`);
    if (v.kind !== 'scalar') this.#fail(v.line, v.col, `field '${path}' takes a value, not a message`);
    const t = v.token;
    const fail = (detail: string): never => this.#fail(t.line, t.col, detail);
    switch (type.t) {
      case 'string':
      case 'stringOrMessage':
        if (t.kind !== 'string') fail(`field '${path}' takes a quoted string, got ${t.text}`);
        return t.text;
      case 'int': {
        if (t.kind !== 'number') fail(`field '${path}' takes an integer, got ${t.kind === 'string' ? `"${t.text}"` : t.text}`);
        const n = parseInteger(t.text);
        if (n === undefined) fail(`field '${path}' takes an integer, got ${t.text}`);
        return n as number;
      }
      case 'bool':
        if (['true', 'True', 't', '1'].includes(t.text) && t.kind !== 'string') return true;
        if (['false', 'False', 'f', '0'].includes(t.text) && t.kind !== 'string') return false;
        return fail(`field '${path}' takes true or false, got ${t.text}`);
      case 'enum': {
        if (t.kind === 'number') {
          const n = parseInteger(t.text);
          const name = n === undefined ? undefined : type.values[n];
          if (name === undefined) fail(`field '${path}': ${t.text} is not a value of the enum (${type.values.join(', ')})`);
          return name as string;
        }
        // Validity is the schema's job (it names the allowed values and the closest one).
        return t.text;
      }
      case 'scalar': {
        if (t.kind === 'string') return t.text;
        if (t.kind === 'number') {
          const n = Number(t.text.replace(/[fF]$/, ''));
          if (!Number.isFinite(n)) fail(`field '${path}': ${t.text} is not a finite number`);
          return /^[+-]?0[xX]/.test(t.text) ? (parseInteger(t.text) ?? n) : n;
        }
        if (t.text === 'true' || t.text === 'True') return true;
        if (t.text === 'false' || t.text === 'False') return false;
        return t.text;
      }
    }
  }
}

/** Decimal, hex (0x) or octal (leading 0) integer as text format writes them; undefined if not a safe integer. */
function parseInteger(text: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)$/.exec(text);
  if (m === null) return undefined;
  const body = m[2] as string;
  const magnitude =
    body.startsWith('0x') || body.startsWith('0X')
      ? parseInt(body.slice(2), 16)
      : body.length > 1 && body.startsWith('0')
        ? parseInt(body.slice(1), 8)
        : Number(body);
  const n = m[1] === '-' ? -magnitude : magnitude;
  return Number.isSafeInteger(n) ? n : undefined;
}

export interface PbtxtResult {
  /** Shaped like the ModelConfig schema's input; values are checked by modelConfigSchema, not here. */
  readonly config: ModelConfigInput;
  readonly warnings: string[];
  /** Paths of the unsupported Triton fields that were dropped, e.g. `sequence_batching`. */
  readonly dropped: string[];
}

/**
 * Parses a Triton config.pbtxt. Syntax errors and unknown fields throw BAD_CONFIG naming `source:line:col`;
 * Triton fields rtserve does not support are dropped with one warning each.
 */
export function parsePbtxt(text: string, source = 'config.pbtxt'): PbtxtResult {
  try {
    const tokens = tokenize(text);
    const fields = new Parser(tokens).parseTop();
    const mapper = new Mapper(source);
    const config = mapper.message(fields, MODEL_CONFIG_DESC, '') as ModelConfigInput;
    return { config, warnings: mapper.warnings, dropped: mapper.dropped };
  } catch (err) {
    if (err instanceof PbtxtError) throw rtError('BAD_CONFIG', `${source}:${err.line}:${err.col}: ${err.detail}`);
    throw err;
  }
}
