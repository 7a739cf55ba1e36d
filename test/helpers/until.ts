/**
 * Polls `check` until it holds: for waiting on server state that has no event to await (a queue length in
 * /metrics, a limiter's count). A condition, not a timing: the bound only turns a hang into a failure, so it is
 * generous, and the test fails if the condition never holds.
 */
export async function until(check: () => Promise<boolean> | boolean, what: string, limitMs = 30_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The nv_inference_pending_request_count gauge of a model (its queued requests), read from the Prometheus text. */
export async function pendingCount(metricsUrl: string, model: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const m = new RegExp(`^nv_inference_pending_request_count\\{[^}]*model="${model}"[^}]*\\} (\\d+)`, 'm').exec(text);
  return m === null ? 0 : Number(m[1]);
}
