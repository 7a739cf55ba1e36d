/**
 * "Did you mean" hints for configuration errors (DESIGN habit 2: unknown keys are rejected with a hint), and the
 * translation of zod issues into messages that name the key path (`input[0].data_type`) and the closest valid
 * key or value.
 */
import type { z } from 'zod';

/** Optimal-string-alignment distance: Levenshtein plus adjacent transpositions ("dims" vs "dmis" is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/** Case, `_` and `-` do not matter to a reader: `maxBatchSize`, `max-batch-size` and `max_batch_size` match. */
function normalize(s: string): string {
  return s.toLowerCase().replace(/[_-]/g, '');
}

/**
 * The candidate closest to `word`, or undefined when none is close enough to be a plausible typo. Spelling
 * variants (camelCase for snake_case) win outright; otherwise the edit distance must be at most a third of the
 * longer word (at least 1), so that "max_batch_sise" suggests "max_batch_size" but "foo" suggests nothing.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const norm = normalize(word);
  const variant = list.find((c) => normalize(c) === norm);
  if (variant !== undefined) return variant;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of list) {
    const dist = Math.min(editDistance(word, c), editDistance(norm, normalize(c)));
    const limit = Math.max(1, Math.floor(Math.max(word.length, c.length) / 3));
    if (dist <= limit && dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  if (best !== undefined) return best;
  // An abbreviated ending ("max_queue_delay_us" for "max_queue_delay_microseconds"): a long shared prefix.
  let bestPrefix = 0;
  for (const c of list) {
    let n = 0;
    while (n < word.length && n < c.length && word[n] === c[n]) n++;
    if (n >= Math.max(4, Math.ceil(word.length * 0.6)) && n > bestPrefix) {
      best = c;
      bestPrefix = n;
    }
  }
  return best;
}

/** ` (did you mean 'x'?)` when a close candidate exists, otherwise an empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = closestMatch(word, candidates);
  return match === undefined ? '' : ` (did you mean '${match}'?)`;
}

/** `input[0].data_type`; keys that are not identifiers are quoted: `parameters["my key"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = String(part);
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

/** The subset of zod's internal definitions this walker reads (zod 4 `_zod.def`). */
interface LooseDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.core.$ZodType>>;
  readonly element?: z.core.$ZodType;
  readonly options?: readonly z.core.$ZodType[];
  readonly innerType?: z.core.$ZodType;
  readonly in?: z.core.$ZodType;
  readonly out?: z.core.$ZodType;
  readonly valueType?: z.core.$ZodType;
}

function defOf(schema: z.core.$ZodType): LooseDef {
  return schema._zod.def as unknown as LooseDef;
}

/** The object schemas reachable at `path` (several when the path runs through a union). */
function objectsAt(schema: z.core.$ZodType, path: readonly PropertyKey[], depth = 0): LooseDef[] {
  if (depth > 64) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return def.innerType === undefined ? [] : objectsAt(def.innerType, path, depth + 1);
    case 'pipe':
      return def.in === undefined ? [] : objectsAt(def.in, path, depth + 1);
    case 'union':
      return (def.options ?? []).flatMap((o) => objectsAt(o, path, depth + 1));
    default:
      break;
  }
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'object') {
    const child = def.shape?.[String(head)];
    return child === undefined ? [] : objectsAt(child, rest, depth + 1);
  }
  if (def.type === 'array' && typeof head === 'number' && def.element !== undefined) return objectsAt(def.element, rest, depth + 1);
  if (def.type === 'record' && def.valueType !== undefined) return objectsAt(def.valueType, rest, depth + 1);
  return [];
}

/** The keys an object schema accepts at `path` (the union of all alternatives when the path crosses a union). */
export function knownKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const def of objectsAt(schema, path)) for (const k of Object.keys(def.shape ?? {})) keys.add(k);
  return [...keys];
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur = data;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[part];
  }
  return cur;
}

function quoteValue(v: unknown): string {
  if (typeof v === 'string') return `'${v}'`;
  const json = JSON.stringify(v);
  return json === undefined ? String(v) : json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function withArticle(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function where(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'the top level' : `'${formatPath(path)}'`;
}

function unknownKeyMessages(schema: z.core.$ZodType, path: readonly PropertyKey[], keys: readonly string[]): string[] {
  const known = knownKeysAt(schema, path);
  return keys.map((key) => {
    const full = formatPath([...path, key]);
    const hint = didYouMean(key, known);
    const scope = path.length === 0 ? '' : ` in '${formatPath(path)}'`;
    const valid = hint === '' && known.length > 0 ? ` (valid keys${scope}: ${[...known].sort().join(', ')})` : '';
    return `unknown key '${full}'${hint}${valid}`;
  });
}

/** One zod issue as readable messages (an unrecognized_keys issue yields one message per key). */
function issueMessages(issue: z.core.$ZodIssue, schema: z.core.$ZodType, data: unknown, base: readonly PropertyKey[]): string[] {
  const path = [...base, ...issue.path];
  switch (issue.code) {
    case 'unrecognized_keys':
      return unknownKeyMessages(schema, path, issue.keys);
    case 'invalid_value': {
      const got = valueAt(data, path);
      const allowed = issue.values.map((v) => String(v));
      const hint = typeof got === 'string' ? didYouMean(got, allowed) : '';
      return [`${where(path)}: ${quoteValue(got)} is not one of ${allowed.join(', ')}${hint}`];
    }
    case 'invalid_union': {
      const branches = issue.errors;
      // Every alternative complains about the same unknown key: report it once, with all alternatives' keys.
      const shared = branches[0]?.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0);
      if (
        shared !== undefined &&
        shared.code === 'unrecognized_keys' &&
        branches.every((b) => b.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0))
      ) {
        return unknownKeyMessages(schema, path, shared.keys);
      }
      // Every alternative rejects the value itself (e.g. an integer written as number or digit string).
      if (branches.every((b) => b.length > 0 && b.every((i) => i.path.length === 0))) {
        // A string against "enum or something else": the enum alternative explains it best (with a hint).
        const enumBranch = branches.find((b) => b.length === 1 && b[0]?.code === 'invalid_value');
        if (enumBranch !== undefined && typeof valueAt(data, path) === 'string') {
          return enumBranch.flatMap((i) => issueMessages(i, schema, data, path));
        }
        const expected = branches.flatMap((b) =>
          b.map((i) =>
            i.code === 'invalid_type'
              ? withArticle(i.expected)
              : i.code === 'invalid_format' && i.pattern !== undefined
                ? `a string matching ${i.pattern}`
                : i.message,
          ),
        );
        return [`${where(path)}: expected ${[...new Set(expected)].join(' or ')}, got ${quoteValue(valueAt(data, path))}`];
      }
      // Otherwise explain the alternative that got furthest: fewest "wrong type right here" issues, then fewest issues.
      const score = (b: readonly z.core.$ZodIssue[]): number =>
        b.filter((i) => i.code === 'invalid_type' && i.path.length === 0).length * 1000 + b.length;
      const best = [...branches].sort((x, y) => score(x) - score(y))[0];
      if (best === undefined || best.length === 0) return [`${where(path)}: invalid value ${quoteValue(valueAt(data, path))}`];
      return best.flatMap((i) => issueMessages(i, schema, data, path));
    }
    default:
      return [`${where(path)}: ${issue.message}`];
  }
}

/**
 * Readable messages for a failed parse of `data` against `schema`: each names the key path, unknown keys get
 * the closest known key, and enum values the closest allowed value.
 */
export function describeZodError(error: z.core.$ZodError, schema: z.core.$ZodType, data: unknown): string[] {
  return error.issues.flatMap((issue) => issueMessages(issue, schema, data, []));
}
