/**
 * node:test's TAP output read whole (not a tail of text): the summary counts node prints at the end and every
 * skipped or failed test point. Used by bench/cuda/gpu-tests.ts to decide whether a GPU test run is evidence.
 */
export interface TapSummary {
  readonly tests: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly todo: number;
  readonly cancelled: number;
  readonly skippedTests: readonly { readonly name: string; readonly reason: string }[];
  readonly failedTests: readonly string[];
}

/** node:test's TAP output: the summary comments at the end and every skipped or failed test point. */
export function parseTap(tap: string): TapSummary {
  const count = (key: string): number => {
    const m = new RegExp(`^# ${key} (\\d+)$`, 'm').exec(tap);
    return m === null ? Number.NaN : Number(m[1]);
  };
  const skippedTests: { name: string; reason: string }[] = [];
  const failedTests: string[] = [];
  for (const line of tap.split('\n')) {
    const m = /^\s*(not ok|ok) \d+ - (.*?)(?: # (SKIP|TODO)\b ?(.*))?$/.exec(line);
    if (m === null) continue;
    if (m[3] === 'SKIP') skippedTests.push({ name: m[2] ?? '', reason: m[4] ?? '' });
    else if (m[1] === 'not ok' && m[3] !== 'TODO') failedTests.push(m[2] ?? '');
  }
  return {
    tests: count('tests'),
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skipped'),
    todo: count('todo'),
    cancelled: count('cancelled'),
    skippedTests,
    failedTests,
  };
}

/** Why the run does not count as GPU evidence (empty: it does). */
export function verdict(s: TapSummary, exitCode: number | null): string[] {
  const why: string[] = [];
  if (!Number.isFinite(s.tests)) why.push('no test summary in the TAP output');
  if (s.tests === 0 || s.passed === 0) why.push('no test passed');
  if (s.failed > 0 || s.cancelled > 0) why.push(`${s.failed} failed, ${s.cancelled} cancelled`);
  // A skipped describe block counts in no summary number (node reports tests 0, skipped 0 for it): its TAP point does.
  const skipped = Math.max(s.skipped, s.skippedTests.length);
  if (skipped > 0) why.push(s.passed === 0 ? 'every test skipped' : `${skipped} skipped (${s.skippedTests.map((t) => t.name).join('; ')})`);
  if (exitCode !== 0 && why.length === 0) why.push(`node --test exited with ${exitCode}`);
  return why;
}
