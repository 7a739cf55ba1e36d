// The test run's summary, computed from the JSON lines events-reporter.mjs wrote (one object per finished test):
// passed, failed and skipped leaf tests; a suite counts only when skipped as a whole (its tests never ran) or when
// it failed with no failing test under it (a failing before/after hook). Skips are matched against the list of
// skips that are expected on a machine without a GPU (known-skips.mjs).
import { isAbsolute, relative } from 'node:path';

/**
 * @typedef {{ file: string, suite: string, why: string }} KnownSkip  a file and the title of a test or suite in it
 *   (at any depth); everything at or under that title may skip.
 * @typedef {{ file: string, path: string[], reason: string, known: boolean }} Skip
 * @typedef {{ file: string, path: string[], error: string }} Failure
 * @typedef {{ passed: number, failed: number, skipped: number, skips: Skip[], failures: Failure[] }} Summary
 */

/**
 * @param {string} text  the reporter's output (JSON lines; a torn last line is ignored)
 * @param {{ root: string, knownSkips: KnownSkip[] }} options
 * @returns {Summary}
 */
export function summarize(text, { root, knownSkips }) {
  /** @type {Summary} */
  const s = { passed: 0, failed: 0, skipped: 0, skips: [], failures: [] };
  /** Per file: the titles of the tests now running, by nesting, and whether a test under each level failed. */
  const files = new Map();
  const stateOf = (file) => {
    let st = files.get(file);
    if (st === undefined) files.set(file, (st = { titles: [], failedBelow: [] }));
    return st;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    const file = e.file === undefined ? '(no file)' : isAbsolute(e.file) ? relative(root, e.file) : e.file;
    const st = stateOf(file);
    const n = Number(e.nesting ?? 0);
    if (e.type === 'start') {
      st.titles[n] = e.name;
      st.titles.length = n + 1;
      continue;
    }
    if (e.type !== 'pass' && e.type !== 'fail') continue;
    const path = [...st.titles.slice(0, n), e.name];
    const failedBelow = st.failedBelow[n] === true;
    st.failedBelow[n] = false;
    const skipReason = e.skip ?? e.todo;
    if (e.type === 'pass' && skipReason !== undefined) {
      // A skipped suite is one skip: its tests were never started.
      s.skipped++;
      const known = knownSkips.some((k) => k.file === file && path.includes(k.suite));
      s.skips.push({ file, path, reason: skipReason === '' ? (e.todo !== undefined ? 'todo' : 'skipped') : skipReason, known });
      continue;
    }
    if (e.suite && (e.type === 'pass' || failedBelow)) continue;
    if (e.type === 'pass') {
      s.passed++;
      continue;
    }
    s.failed++;
    s.failures.push({ file, path: path.length === 1 && path[0] !== undefined && isAbsolute(path[0]) ? [] : path, error: e.error ?? '' });
    for (let k = 0; k < n; k++) st.failedBelow[k] = true;
  }
  return s;
}

/** The human-readable lines for the end of the run; the last one is "N passed, N failed, N skipped". */
export function summaryLines(s) {
  const lines = [];
  const title = (x) => `${x.file}${x.path.length > 0 ? ` › ${x.path.join(' › ')}` : ''}`;
  for (const f of s.failures) lines.push(`failed: ${title(f)}${f.error !== '' ? `: ${f.error.split('\n')[0]}` : ''}`);
  for (const k of s.skips) lines.push(`skipped${k.known ? ' (GPU only)' : ''}: ${title(k)}: ${k.reason}`);
  lines.push(`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
  return lines;
}
