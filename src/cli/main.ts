import { Command } from 'commander';
import { RTSERVE_VERSION } from '../util/version.ts';
import { registerServeCommand, reportFatal } from './serve-command.ts';
import { registerBenchCommand } from '../bench/bench-command.ts';
import { registerCompilerCommands } from '../compiler/cli.ts';

/** `rtserve <command>`: serve, bench, build, inspect. */
export async function main(argv: readonly string[]): Promise<void> {
  const program = new Command('rtserve').version(RTSERVE_VERSION).description('real-time inference server for ONNX models');
  registerServeCommand(program);
  registerBenchCommand(program);
  // The offline runner loads onnxruntime in-process: only the commands that use it pay for that.
  const offline = argv[2] === 'build' || argv[2] === 'inspect' ? (await import('../engine/ort/offline-runner.ts')).createOfflineRunner : undefined;
  // The CUDA engine's tuner is wired in for `build` only; it loads the native addon only for --target cuda.
  const cuda = argv[2] === 'build' ? (await import('../engine/cuda/tuner.ts')).cudaBuildDeps : undefined;
  registerCompilerCommands(
    program,
    offline === undefined ? {} : { createRuntime: offline, ...(cuda === undefined ? {} : { createCudaBuildDeps: cuda }) },
  );
  await program.parseAsync([...argv]);
}

main(process.argv).catch(reportFatal);
