// A node:test reporter (`--test-reporter=<this file>`) writing one JSON object per line for each finished test,
// suite and file, plus node's own summary diagnostics. scripts/test.mjs reads it back (summary.mjs) instead of
// scraping the human-readable spec output, which a long failure message can push anywhere.
export default async function* eventsReporter(source) {
  for await (const event of source) {
    const d = event.data ?? {};
    if (event.type === 'test:start') {
      yield `${JSON.stringify({ type: 'start', file: d.file, nesting: d.nesting, name: d.name })}\n`;
    } else if (event.type === 'test:pass' || event.type === 'test:fail') {
      const error = d.details?.error;
      yield `${JSON.stringify({
        type: event.type === 'test:pass' ? 'pass' : 'fail',
        file: d.file,
        nesting: d.nesting,
        name: d.name,
        suite: d.details?.type === 'suite',
        skip: d.skip === undefined || d.skip === false ? undefined : d.skip === true ? '' : String(d.skip),
        todo: d.todo === undefined || d.todo === false ? undefined : d.todo === true ? '' : String(d.todo),
        failureType: error?.failureType,
        error: error === undefined ? undefined : String(error.cause?.message ?? error.message ?? error).slice(0, 500),
      })}\n`;
    }
  }
}
