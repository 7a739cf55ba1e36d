/**
 * GPU execution providers tried in a child process before the server's own process tries them.
 *
 * onnxruntime-node's WebGPU provider (Dawn) can throw a C++ exception that nothing catches when it finds no usable
 * adapter ("vkCreateInstance failed ... terminate called after throwing an instance of 'Napi::Error'"): the whole
 * process aborts, every model with it. Observed on the CPU-only development machine in about one load in four.
 * A model whose engine chain lists `webgpu` (the degradation chain of docs/operations.md retries it on every
 * health probe) must not take the server down that way, so the first attempt per provider runs the same session
 * creation in a short-lived child process. A child that fails or dies marks the provider unavailable for this
 * thread's lifetime, with the reason; one that succeeds lets later loads go straight to the provider in-process.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import type { ExecutionProviderName } from '../engine.ts';

/** Providers that go through the preflight: those whose native code has aborted processes (WebGPU via Dawn). */
export const PREFLIGHT_PROVIDERS: ReadonlySet<ExecutionProviderName> = new Set(['webgpu']);

const PREFLIGHT_TIMEOUT_MS = 60_000;
/** Outcomes by provider and session options (options onnxruntime refuses fail the preflight as they would in-process). */
const outcomes = new Map<string, Promise<string | undefined>>();

/**
 * Resolves to undefined when the provider can be used in this process with these session options (as
 * `sessionOptionsFor` builds them, JSON-serializable), else to why not.
 */
export function preflightProvider(provider: ExecutionProviderName, modelPath: string, sessionOptions: object): Promise<string | undefined> {
  const key = `${provider} ${JSON.stringify(sessionOptions)}`;
  let outcome = outcomes.get(key);
  if (outcome === undefined) {
    outcome = runPreflight(modelPath, sessionOptions);
    outcomes.set(key, outcome);
  }
  return outcome;
}

function runPreflight(modelPath: string, sessionOptions: object): Promise<string | undefined> {
  const ortPath = createRequire(import.meta.url).resolve('onnxruntime-node');
  const script = [
    `const ort = require(${JSON.stringify(ortPath)});`,
    `ort.InferenceSession.create(${JSON.stringify(modelPath)}, ${JSON.stringify(sessionOptions)})`,
    '  .then((s) => s.release())',
    '  .then(() => process.exit(0), (e) => { process.stderr.write(String(e && e.message || e)); process.exit(3); });',
  ].join('\n');
  return new Promise((resolve) => {
    execFile(process.execPath, ['-e', script], { timeout: PREFLIGHT_TIMEOUT_MS, maxBuffer: 1 << 20 }, (err, _stdout, stderr) => {
      if (err === null) {
        resolve(undefined);
        return;
      }
      const lines = String(stderr)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('at '));
      const how = err.killed
        ? `timed out after ${PREFLIGHT_TIMEOUT_MS / 1000} s`
        : err.signal !== null && err.signal !== undefined
          ? `died with ${err.signal}`
          : `exited with code ${String(err.code)}`;
      resolve(`unavailable on this machine (a test session in a child process ${how}${lines.length > 0 ? `: ${lines.slice(-2).join(' / ')}` : ''})`);
    });
  });
}
