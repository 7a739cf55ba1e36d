/**
 * `rtserve bench --generate` as a library: every protocol × concurrency against a generative model, one
 * GenerateReport.
 */
import { RestControl } from '../control.ts';
import { BenchError } from '../errors.ts';
import { machineInfo, reportHeader } from '../machine.ts';
import { openHttpStreamClient } from './http-streams.ts';
import { measureGenerateLevel } from './measure.ts';
import type { GenerateClient, GenerateLevelResult, GenerateProtocol, GenerateReport, GenerateSettings, GenerateTarget } from './types.ts';
import { openWsStreamClient } from './ws-stream.ts';

export interface GenerateBenchOptions {
  readonly target: GenerateTarget;
  readonly settings: GenerateSettings;
  readonly prompts: readonly string[];
  readonly command?: string;
  /** Called when a level is done. */
  readonly onLevel?: (result: GenerateLevelResult) => void;
}

export function openGenerateClient(protocol: GenerateProtocol, target: GenerateTarget): Promise<GenerateClient> {
  return protocol === 'ws' ? openWsStreamClient(target) : Promise.resolve(openHttpStreamClient(protocol, target));
}

/** The model must have the text interface of a generative model (an input `text_input`, docs/generate.md). */
async function checkGenerative(target: GenerateTarget): Promise<void> {
  const info = await new RestControl(target.url, target.model, target.version).modelInfo();
  if (!info.inputs.some((t) => t.name === 'text_input'))
    throw new BenchError(
      `--generate: model '${target.model}' is not a generative model (no text_input input; inputs: ${info.inputs.map((t) => t.name).join(', ')})`,
    );
}

export async function runGenerateBench(opts: GenerateBenchOptions): Promise<GenerateReport> {
  const { target, settings } = opts;
  await checkGenerative(target);
  const machine = machineInfo();
  const levels: GenerateLevelResult[] = [];
  for (const protocol of settings.protocols) {
    for (const concurrency of settings.concurrencies) {
      const result = await measureGenerateLevel(
        {
          protocol,
          concurrency,
          prompts: opts.prompts,
          outputTokens: settings.outputTokens,
          ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
          window: settings.window,
          warmupMs: settings.warmupMs,
        },
        () => openGenerateClient(protocol, target),
      );
      levels.push(result);
      opts.onLevel?.(result);
    }
  }
  return {
    ...reportHeader(machine, { command: opts.command, model: target.model, version: target.version }),
    mode: 'generate',
    url: target.url,
    settings,
    levels,
  };
}
