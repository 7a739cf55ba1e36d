/**
 * What waiting on an AbortSignal costs per request (src/util/abort-watch.ts), CPU time per iteration:
 * a signal shared by many requests (REST's connection signal) with an EventTarget listener added and removed per
 * request, against the same signal marked shared (one listener, waiters held on the signal); and a new signal per
 * request (WebSocket, gRPC) with its controller, either way.
 *
 *   node --import tsx bench/abort-watch.ts
 */
import { shareAbortSignal, watchAbort, unwatchAbort } from '../src/util/abort-watch.ts';
const N = 300000;
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
for (let r = 0; r < 5; r++) {
  const shared = new AbortController().signal;
  const marked = new AbortController().signal;
  shareAbortSignal(marked);
  let t = cpu();
  for (let i = 0; i < N; i++) {
    const f = () => {};
    shared.addEventListener('abort', f, { once: true });
    shared.removeEventListener('abort', f);
  }
  const a = ((cpu() - t) * 1000) / N;
  t = cpu();
  for (let i = 0; i < N; i++) {
    const w = { onAbort: () => {} };
    watchAbort(marked, w);
    unwatchAbort(marked, w);
  }
  const b = ((cpu() - t) * 1000) / N;
  t = cpu();
  for (let i = 0; i < N; i++) {
    const s = new AbortController().signal;
    const f = () => {};
    s.addEventListener('abort', f, { once: true });
    s.removeEventListener('abort', f);
  }
  const c = ((cpu() - t) * 1000) / N;
  t = cpu();
  for (let i = 0; i < N; i++) {
    const s = new AbortController().signal;
    const w = { onAbort: () => {} };
    watchAbort(s, w);
    unwatchAbort(s, w);
  }
  const d = ((cpu() - t) * 1000) / N;
  console.log(
    `shared signal: add+remove listener ${a.toFixed(0)} ns, watch+unwatch ${b.toFixed(0)} ns | new signal each: controller+add+remove ${c.toFixed(0)} ns, controller+watch+unwatch ${d.toFixed(0)} ns`,
  );
}
