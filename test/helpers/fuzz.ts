/**
 * fast-check parameters for every property in the suite: a fixed seed by default (a property fails or passes the
 * same way on every run and in CI), printed before each property runs so any run can be replayed. docs/testing.md.
 *
 *   FUZZ_SEED=random   a fresh seed per property (printed)
 *   FUZZ_SEED=<int>    that seed for every property (replay: with --test-name-pattern for the one that failed)
 *   FUZZ_PATH=<path>   with FUZZ_SEED, replay straight to the counterexample fast-check reported (its `path`)
 *   FUZZ_RUNS=<n>      cases per property instead of each property's own count
 *
 * The variables are deliberately not RTSERVE_*: the server reads those as configuration.
 */
import type { TestContext } from 'node:test';
import type { Parameters } from 'fast-check';

/** How many properties each test name has run so far (the fixed seed of the second one in a test differs). */
const perTest = new Map<string, number>();

/** FNV-1a of the test's name and the property's position in it: a fixed seed that does not depend on which tests run. */
function fixedSeed(name: string): number {
  const n = perTest.get(name) ?? 0;
  perTest.set(name, n + 1);
  let h = 0x811c9dc5;
  for (const c of `${name}#${n}`) h = Math.imul(h ^ (c.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return h & 0x7fffffff;
}

function positiveInt(name: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`${name}='${text}': expected a positive integer`);
  return Number(text);
}

/** The seed the next property runs with (FUZZ_SEED, or the fixed one). */
function nextSeed(testName: string): { seed: number; how: string } {
  const env = process.env['FUZZ_SEED'];
  if (env === undefined || env === '') return { seed: fixedSeed(testName), how: 'fixed' };
  if (env === 'random') return { seed: Math.floor(Math.random() * 0x7fffffff), how: 'random' };
  if (!/^-?\d+$/.test(env)) throw new Error(`FUZZ_SEED='${env}': expected an integer or 'random'`);
  return { seed: Number(env) | 0, how: 'FUZZ_SEED' };
}

/**
 * Parameters for fc.assert in test `t` (the seed is printed as its diagnostic); `defaults.numRuns` is the
 * property's own case count (FUZZ_RUNS overrides it).
 */
export function fuzzParams<T>(t: TestContext, defaults: { numRuns?: number } = {}): Parameters<T> {
  const { seed, how } = nextSeed(t.name);
  const runsEnv = process.env['FUZZ_RUNS'];
  const numRuns = runsEnv !== undefined && runsEnv !== '' ? positiveInt('FUZZ_RUNS', runsEnv) : defaults.numRuns;
  const path = process.env['FUZZ_PATH'];
  t.diagnostic(`fast-check seed ${seed} (${how})${numRuns !== undefined ? `, ${numRuns} runs` : ''}: FUZZ_SEED=${seed} replays it`);
  return { seed, ...(numRuns !== undefined ? { numRuns } : {}), ...(path !== undefined && path !== '' ? { path } : {}) };
}
