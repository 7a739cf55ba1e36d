/**
 * `rtserve bench --generate` on the command line (docs/bench.md "Generative models"): the flags that apply to token
 * streams, the ones that do not refused by name, the report as a table on stdout and as JSON (-o), markdown
 * (--markdown) and CSV (-f).
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { BenchFlags } from '../bench-flags.ts';
import { BenchError } from '../errors.ts';
import { positiveInts, positiveNumber } from '../flag-values.ts';
import { markdownTable, textTable } from '../format.ts';
import { nativeBenchFlags, type PerfAnalyzerFlags } from '../perf-analyzer.ts';
import { GENERATE_COLUMNS, generateCsv } from './format.ts';
import { promptsFromFile, syntheticPrompts } from './prompts.ts';
import { runGenerateBench } from './runner.ts';
import { GENERATE_PROTOCOLS, type GenerateProtocol, type GenerateReport, type GenerateSettings, type GenerateTarget } from './types.ts';

export interface GenerateFlags {
  generate?: boolean;
  promptTokens?: string;
  promptFile?: string;
  outputTokens?: string;
  temperature?: string;
}

/** Flags of the tensor benchmark that mean nothing for token streams (attribute names). */
const NOT_FOR_GENERATE = [
  'requestRate',
  'requestRateRange',
  'requestDistribution',
  'maxInflight',
  'batch',
  'shape',
  'input',
  'inputData',
  'z',
  'sharedMemory',
  'engine',
  'engineKinds',
  'engineThreads',
  'modelRepository',
  'httpClient',
  'grpcUrl',
  'controlUrl',
  'streaming',
  'i',
  'report',
  'percentile',
  'stabilityPercentage',
  's',
  'maxTrials',
] as const;
const GENERATE_ONLY = ['promptTokens', 'promptFile', 'outputTokens', 'temperature'] as const;

const DEFAULT_PROMPT_TOKENS = 64;
const DEFAULT_OUTPUT_TOKENS = 128;
const DEFAULT_STREAMS_PER_CLIENT = 4;

/** Whether the user gave `attr` (on the command line or from the environment), not only its default. */
function givenOn(command: Command): (attr: string) => boolean {
  return (attr) => {
    const source = command.getOptionValueSource(attr);
    return source !== undefined && source !== 'default';
  };
}

function flagName(command: Command, attr: string): string {
  const o = command.options.find((x) => x.attributeName() === attr);
  return o?.long ?? o?.short ?? attr;
}

/** Refuses the generate-only flags on the tensor benchmark. */
export function refuseGenerateOnlyFlags(command: Command): void {
  const given = givenOn(command);
  for (const attr of GENERATE_ONLY) if (given(attr)) throw new BenchError(`${flagName(command, attr)} applies with --generate`);
}

function protocolsOf(text: string): GenerateProtocol[] {
  return text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map((p) => {
      if (!(GENERATE_PROTOCOLS as readonly string[]).includes(p))
        throw new BenchError(`--generate: unknown protocol '${p}'; the token streams are ${GENERATE_PROTOCOLS.join(', ')}`);
      return p as GenerateProtocol;
    });
}

/** The settings the flags ask for (exported for tests). */
export function generateSettingsFromFlags(flags: BenchFlags & GenerateFlags, given: (attr: string) => boolean): GenerateSettings {
  if (flags.promptFile !== undefined && flags.promptTokens !== undefined) throw new BenchError('give --prompt-tokens or --prompt-file, not both');
  if (flags.duration !== undefined && flags.requests !== undefined) throw new BenchError('give --duration or --requests, not both');
  const temperature = flags.temperature === undefined ? undefined : positiveNumber('--temperature', flags.temperature, true);
  return {
    protocols: protocolsOf(given('protocol') ? flags.protocol : 'openai-completions'),
    concurrencies: positiveInts('--concurrency', flags.concurrency ?? '1'),
    prompt:
      flags.promptFile !== undefined
        ? { kind: 'file', path: flags.promptFile, count: 0 }
        : { kind: 'synthetic', tokens: positiveInts('--prompt-tokens', flags.promptTokens ?? String(DEFAULT_PROMPT_TOKENS))[0] as number },
    outputTokens: positiveInts('--output-tokens', flags.outputTokens ?? String(DEFAULT_OUTPUT_TOKENS))[0] as number,
    ...(temperature === undefined ? {} : { temperature }),
    window:
      flags.duration !== undefined
        ? { kind: 'time', durationMs: positiveNumber('--duration', flags.duration) * 1000 }
        : flags.requests !== undefined
          ? { kind: 'count', streams: positiveInts('--requests', flags.requests)[0] as number, perClient: false }
          : { kind: 'count', streams: DEFAULT_STREAMS_PER_CLIENT, perClient: true },
    warmupMs: positiveNumber('--warmup', flags.warmup, true) * 1000,
  };
}

/** A note when the server's prompt tokens are far from what --prompt-tokens asked (a subword tokenizer). */
function promptNote(report: GenerateReport): string | undefined {
  const p = report.settings.prompt;
  if (p.kind !== 'synthetic') return undefined;
  // Chat prompts are wrapped in the model's chat template: only the raw-prompt routes count the prompt itself.
  for (const l of report.levels) {
    if (l.protocol === 'openai-chat' || l.promptTokens === undefined || l.streams === 0) continue;
    const counted = l.promptTokens / l.streams;
    if (Math.abs(counted - p.tokens) > Math.max(2, p.tokens * 0.1))
      return `note: the prompts are ${p.tokens} ASCII characters, which the server counted as ${counted.toFixed(1)} tokens (its tokenizer is not byte-level); give --prompt-tokens accordingly or a --prompt-file`;
  }
  return undefined;
}

/** Where the streams go: the REST URL (the ws protocol derives its address from it unless --ws-url is given). */
function targetOf(flags: BenchFlags): GenerateTarget {
  return {
    url: flags.url ?? 'http://127.0.0.1:8000',
    ...(flags.wsUrl === undefined ? {} : { wsUrl: flags.wsUrl }),
    model: flags.model,
    ...(flags.modelVersion === undefined ? {} : { version: flags.modelVersion }),
    ...(flags.timeoutMs === undefined ? {} : { timeoutMs: positiveNumber('--timeout-ms', flags.timeoutMs) }),
  };
}

/** The table on stdout, the files asked for, the failures on stderr (and exit code 1 when there are any). */
async function writeReports(report: GenerateReport, flags: BenchFlags, csv: string | undefined): Promise<void> {
  process.stdout.write(`${textTable(report.levels, GENERATE_COLUMNS)}\n`);
  const note = promptNote(report);
  if (note !== undefined) process.stderr.write(`${note}\n`);
  if (flags.out !== undefined) await writeFile(flags.out, `${JSON.stringify(report, null, 2)}\n`);
  if (flags.markdown !== undefined) await writeFile(flags.markdown, `${markdownTable(report.levels, GENERATE_COLUMNS)}\n`);
  if (csv !== undefined) await writeFile(csv, generateCsv(report.levels));
  const failed = report.levels.filter((l) => l.failed > 0);
  for (const l of failed)
    process.stderr.write(
      `error: ${l.protocol} c=${l.concurrency}: ${l.failed} failed streams: ${l.errors.map((e) => `${e.count} × ${e.message}`).join('; ')}\n`,
    );
  if (failed.length > 0) process.exitCode = 1;
}

export async function runGenerateCommand(given: BenchFlags & PerfAnalyzerFlags & GenerateFlags, command: Command): Promise<void> {
  const isGiven = givenOn(command);
  for (const attr of NOT_FOR_GENERATE)
    if (isGiven(attr)) throw new BenchError(`${flagName(command, attr)} does not apply to --generate (docs/bench.md "Generative models")`);
  // -t, --concurrency-range, -x, -p / --measurement-interval, count_windows, -u host:port: perf_analyzer's meaning.
  const { f: csv, ...rest } = given;
  const flags = { ...given, ...nativeBenchFlags(rest) };
  const settings = generateSettingsFromFlags(flags, isGiven);
  const prompts = settings.prompt.kind === 'file' ? await promptsFromFile(settings.prompt.path) : syntheticPrompts(settings.prompt.tokens);
  const report = await runGenerateBench({
    target: targetOf(flags),
    settings: settings.prompt.kind === 'file' ? { ...settings, prompt: { ...settings.prompt, count: prompts.length } } : settings,
    prompts,
    command: `rtserve bench ${process.argv.slice(3).join(' ')}`.trim(),
  });
  await writeReports(report, flags, csv);
}
