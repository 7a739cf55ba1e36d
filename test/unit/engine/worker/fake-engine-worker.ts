/**
 * A stand-in engine worker for WorkerSession tests: it uses the real serveSession loop, and its "model" echoes
 * feeds back, so the host's protocol, transfer, cancellation and crash handling can be tested without a
 * native runtime. The model path picks the load behaviour; the first feed's name picks the run behaviour.
 */
import { rtError } from '../../../../src/errors/registry.ts';
import { LoadFailure, serveSession, type LoadedModel } from '../../../../src/engine/worker/serve.ts';
import type { WireTensor } from '../../../../src/engine/worker/wire-tensor.ts';

function sleepBlocking(ms: number): void {
  // Blocks this worker thread like a synchronous native run would.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

serveSession(async (request) => {
  if (request.modelPath === 'fail-load') {
    throw new LoadFailure(rtError('ENGINE_UNAVAILABLE', 'fake: no provider'), [{ provider: 'cpu', ok: false, error: 'fake' }]);
  }
  if (request.modelPath === 'crash-load') throw new Error('fake loader exploded');
  const model: LoadedModel = {
    description: { inputs: [{ name: 'x', datatype: 'FP32', shape: [-1] }], outputs: [{ name: 'y', datatype: 'FP32', shape: [-1] }], provider: 'cpu' },
    attempts: [{ provider: 'cpu', ok: true }],
    async run(feeds: readonly WireTensor[], outputNames: readonly string[]): Promise<WireTensor[]> {
      const mode = feeds[0]?.name ?? '';
      if (mode === 'crash') {
        setImmediate(() => {
          throw new Error('fake engine crashed');
        });
        return new Promise<WireTensor[]>(() => {});
      }
      if (mode === 'exit') process.exit(3);
      if (mode === 'fail') throw rtError('BAD_DATA', 'fake: bad data');
      // A device that fails at run time, only where the provider's options say it is flaky (engine chain tests).
      if (mode === 'device' && request.options.providers[0]?.options?.['fake_device'] === 'flaky')
        throw rtError('ENGINE_DEVICE_FAILED', 'fake: device lost');
      if (mode === 'throw') throw new Error('native says no');
      if (mode === 'sleep' && feeds[0]?.datatype === 'INT32') sleepBlocking((feeds[0].data as Int32Array)[0] ?? 0);
      // Echo every feed, renamed to the requested outputs, plus whether each arrived owning its whole buffer.
      const echoed = feeds.map((f, i): WireTensor => ({ ...f, name: outputNames[i] ?? f.name }));
      const exact = Int32Array.from(feeds.map((f) => (f.datatype === 'BYTES' ? 1 : f.data.byteLength === f.data.buffer.byteLength ? 1 : 0)));
      return [...echoed, { name: 'exact', datatype: 'INT32', shape: [exact.length], data: exact }];
    },
    async close(): Promise<void> {},
  };
  return model;
});
