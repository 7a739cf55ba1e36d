/**
 * The prompts of `rtserve bench --generate`: synthetic ones of a set length (--prompt-tokens), or a file's
 * (--prompt-file). Request number i sends prompt i modulo the count.
 */
import { readFile } from 'node:fs/promises';
import { BenchError } from '../errors.ts';

/** Printable ASCII source text the synthetic prompts are cut from (one byte per character). */
const CORPUS =
  'def read_config(path):\n    with open(path) as f:\n        return json.load(f)\n\n' +
  'class Parser:\n    def __init__(self, text):\n        self.text = text\n        self.pos = 0\n\n' +
  'for i in range(len(items)):\n    if items[i] is None:\n        continue\n    total += items[i]\n\n' +
  'import os\nimport sys\n\nif __name__ == "__main__":\n    main(sys.argv[1:])\n\n';

/**
 * `count` different prompts of exactly `length` ASCII characters each: as many tokens on a byte-level tokenizer
 * (the bundled charlm's), fewer on a subword one (the report says what the server counted).
 */
export function syntheticPrompts(length: number, count = 16): string[] {
  const prompts: string[] = [];
  for (let i = 0; i < count; i++) {
    const start = (i * 37) % CORPUS.length;
    let text = '';
    while (text.length < length + start) text += CORPUS;
    prompts.push(text.slice(start, start + length));
  }
  return prompts;
}

/**
 * A prompt file: a JSON array of strings, or one prompt per line, where a line that starts with `"` or `{` is JSON
 * (a string, or an object with `prompt` or `text`: prompts with newlines, JSONL datasets). Blank lines are skipped.
 */
export async function promptsFromFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new BenchError(`--prompt-file: cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const trimmed = text.trim();
  const values = trimmed.startsWith('[') ? jsonArray(path, trimmed) : lines(path, text);
  const prompts = values.map((v, i) => {
    const p = typeof v === 'object' && v !== null ? ((v as { prompt?: unknown }).prompt ?? (v as { text?: unknown }).text) : v;
    if (typeof p !== 'string' || p.length === 0) throw new BenchError(`--prompt-file ${path}: prompt ${i + 1} is not a non-empty string`);
    return p;
  });
  if (prompts.length === 0) throw new BenchError(`--prompt-file ${path} holds no prompt`);
  return prompts;
}

function lines(path: string, text: string): unknown[] {
  const out: unknown[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    out.push(line.startsWith('"') || line.startsWith('{') ? parseJson(path, line, i + 1) : line);
  });
  return out;
}

function jsonArray(path: string, text: string): unknown[] {
  const v = parseJson(path, text, 1);
  if (!Array.isArray(v)) throw new BenchError(`--prompt-file ${path}: a file that starts with [ must be a JSON array of prompts`);
  return v;
}

function parseJson(path: string, text: string, line: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new BenchError(`--prompt-file ${path}:${line}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
