/** Numeric values of `rtserve bench` flags, refused with the flag's name when they are not what it takes. */
import { BenchError } from './errors.ts';

export function positiveInts(flag: string, text: string): number[] {
  const values = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map(Number);
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 1)) {
    throw new BenchError(`${flag} takes positive integers separated by commas, got '${text}'`);
  }
  return values;
}

export function positiveNumber(flag: string, text: string, allowZero = false): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v < 0 || (!allowZero && v === 0))
    throw new BenchError(`${flag} takes a ${allowZero ? 'non-negative' : 'positive'} number, got '${text}'`);
  return v;
}
