/**
 * Engine failover on a machine with a GPU (docs/operations.md, "Degradation across engines"): `mlp` served with
 * the chain [webgpu, cpu]. Checks that webgpu serves first, that ending its engine worker moves traffic to cpu
 * with correct answers, and that a health probe brings webgpu back. Prints one JSON line and exits 1 on a
 * failed check. Run from the repository root on the GPU machine:
 *
 *   node --import tsx bench/cuda/failover-check.ts [OUT.json]
 */
import { writeFile } from 'node:fs/promises';
import { startServer } from '../../src/app/rtserve-server.ts';
import { loadServerConfig } from '../../src/config/load-server-config.ts';
import { WorkerSession } from '../../src/engine/worker/worker-session.ts';
import { silentLogger } from '../../src/observability/logger.ts';
import { makeRepository, postJson } from '../../test/helpers/server.ts';

const out = process.argv[2];
const checks: { what: string; ok: boolean; detail?: string }[] = [];
const check = (what: string, ok: boolean, detail?: string): void => {
  checks.push(detail === undefined ? { what, ok } : { what, ok, detail });
};

const repo = await makeRepository({
  mlp: {
    from: 'mlp',
    config: {
      max_batch_size: 64,
      engine: { providers: ['webgpu', 'cpu'], failover: { probe_interval_ms: 3_600_000, max_probe_interval_ms: 3_600_000 } },
    },
  },
});
const config = await loadServerConfig({
  flags: { host: '127.0.0.1', httpPort: 0, grpcPort: 0, metricsPort: 0, logLevel: 'warn', modelRepository: [repo.dir] },
});
const server = await startServer({ config, logger: silentLogger() });
const input = Array.from({ length: 64 }, (_, i) => Math.sin(i) * 0.5);
const infer = async (): Promise<number[] | string> => {
  const r = await postJson(`${server.httpUrl}/v2/models/mlp/infer`, { inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: input }] });
  return r.status === 200
    ? ((r.json() as { outputs: { data: number[] }[] }).outputs[0]?.data ?? [])
    : `${r.status} ${new TextDecoder().decode(r.body)}`;
};
const close = (a: number[] | string, b: number[] | string): boolean =>
  Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => Math.abs(v - (b[i] ?? NaN)) < 1e-3);
try {
  const chain = server.repository.get('mlp').engineChain;
  if (chain === undefined) throw new Error('no engine chain');
  // A function, so that TypeScript does not narrow the serving provider across the awaits below.
  const serving = (): string | undefined => chain.active?.provider;
  check('webgpu loads and serves first', serving() === 'webgpu', JSON.stringify(chain.active));
  if (serving() !== 'webgpu') throw new Error(`webgpu did not load here, nothing to check: ${chain.degradedReason ?? ''}`);
  const onGpu = await infer();
  const primary = chain.activeSessions()[0];
  if (!(primary instanceof WorkerSession)) throw new Error('the webgpu session is not a worker session');
  const inFlight = Array.from({ length: 16 }, () => infer());
  await primary.terminate();
  const during = await Promise.all(inFlight);
  check(
    'requests in flight when the webgpu worker died are answered',
    during.every((r) => close(r, onGpu)),
    String(during.find((r) => !close(r, onGpu)) ?? ''),
  );
  check('traffic is on cpu', serving() === 'cpu' && chain.state === 'open', `${JSON.stringify(chain.active)} ${chain.state}`);
  check('cpu answers like webgpu (1e-3)', close(await infer(), onGpu));
  await chain.probeNow();
  check('the probe brings webgpu back', serving() === 'webgpu' && chain.state === 'closed', `${JSON.stringify(chain.active)} ${chain.state}`);
  check('webgpu serves again', close(await infer(), onGpu));
  const metrics = await (await fetch(`${server.metricsUrl ?? ''}/metrics`)).text();
  check(
    'metrics count the failover and the recovery',
    /rtserve_model_failovers_total\{[^}]*from="webgpu",to="cpu",reason="worker_died"\} 1/.test(metrics) &&
      /rtserve_model_failover_recoveries_total\{[^}]*from="cpu",to="webgpu"\} 1/.test(metrics),
  );
} catch (err) {
  check('ran to the end', false, err instanceof Error ? err.message : String(err));
} finally {
  await server.close();
  await repo.cleanup();
}
const line = JSON.stringify({ ok: checks.every((c) => c.ok), checks });
console.log(line);
if (out !== undefined) await writeFile(out, `${line}\n`);
process.exit(checks.every((c) => c.ok) ? 0 : 1);
