import { Command } from 'commander';
import { RTSERVE_VERSION } from '../core/version.ts';
import { registerServeCommand, reportFatal } from './serve-command.ts';
import { registerBenchCommand } from '../bench/bench-command.ts';

/** `rtserve <command>`: serve (more commands register here as they land: build, inspect, bench). */
export async function main(argv: readonly string[]): Promise<void> {
  const program = new Command('rtserve').version(RTSERVE_VERSION).description('real-time inference server for ONNX models');
  registerServeCommand(program);
  registerBenchCommand(program);
  await program.parseAsync([...argv]);
}

main(process.argv).catch(reportFatal);
