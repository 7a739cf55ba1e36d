import type { Command } from 'commander';
import { setFlagsFromString } from 'node:v8';
import { loadServerConfig } from '../config/load-server-config.ts';
import { startServer, type RunningServer } from '../app/rtserve-server.ts';
import { compileCudaPlan } from './cuda-compile.ts';
import { createLogger } from '../observability/logger.ts';
import { RtError, rtError } from '../errors/registry.ts';
import { watchConfig } from '../security/reload.ts';
import { registerTritonFlags, translateTritonFlags } from './triton-flags.ts';

interface ServeFlags {
  modelRepository?: string[];
  host?: string;
  httpPort?: string;
  grpcPort?: string;
  metricsPort?: string;
  config?: string;
  modelControlMode?: string;
  logLevel?: string;
  exitTimeoutSecs?: string;
  providers?: string;
  strictReadiness?: boolean | string;
  loadModel?: string[];
  repositoryPollSecs?: string;
  cacheSizeBytes?: string;
  accessLog?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  tlsCa?: string;
  allowClientShm?: boolean | string;
  imageDecode?: string;
  cudaCompileOnnx?: string | boolean;
  cudaPlanCache?: string;
  workers?: string;
  disableApi?: string;
  logDirectory?: string;
  port?: string;
  apiKey?: string;
  servedModelName?: string;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function registerServeCommand(program: Command): void {
  const serve = program
    .command('serve')
    .description('serve a model repository over KServe v2 REST (and the other front ends)')
    .option('--model-repository <dir>', 'model repository (repeatable); default: the bundled models/', collect)
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--http-port <port>', 'HTTP port, 0 = pick a free one (default 8000)')
    .option('--grpc-port <port>', 'gRPC port, 0 = pick a free one (default 8001)')
    .option('--metrics-port <port>', 'Prometheus metrics port, 0 = pick a free one (default 8002)')
    .option('--config <file>', 'server config file (JSON or YAML)')
    .option('--model-control-mode <mode>', 'none | poll | explicit')
    .option('--providers <list>', 'default execution providers, in order, e.g. webgpu,cpu')
    .option('--exit-timeout-secs <s>', 'how long SIGTERM waits for in-flight requests')
    .option('--strict-readiness [bool]', 'ready only when every model is ready (the default)')
    .option('--no-strict-readiness', 'ready even when some model failed to load')
    .option('--load-model <name>', "explicit mode: model to load at startup (repeatable; '*' = all)", collect)
    .option('--repository-poll-secs <s>', 'poll mode: seconds between repository scans (default 15, 0 = off)')
    .option('--cache-size-bytes <n>', 'response cache capacity in bytes (0 = off); models opt in with response_cache')
    .option('--access-log', 'log one line per HTTP request (request id, trace id, status, stage timings)')
    .option('--log-level <level>', 'fatal | error | warn | info | debug | trace | silent')
    .option('--tls-cert <file>', 'PEM certificate chain: HTTPS/WSS on the HTTP port and TLS on the gRPC port')
    .option('--tls-key <file>', 'PEM private key of --tls-cert')
    .option('--tls-ca <file>', 'PEM CA bundle: require client certificates signed by it (mutual TLS)')
    .option('--image-decode <mode>', 'where images are decoded: auto (GPU for CUDA-engine models), gpu, cpu (default auto)')
    .option('--cuda-compile-onnx [bool]', 'compile every ONNX model to a CUDA plan at load where the native engine runs (default false)')
    .option('--cuda-plan-cache <dir>', 'where plans compiled at load are cached (default: rtserve-cuda-plans in the temp directory)')
    .option('--allow-client-shm [bool]', "let clients register system shared memory regions (Triton's --allow-client-shm=true; default false)")
    .option('--workers <n>', "front-end processes sharing the ports in front of one engine owner: a number or 'auto' (docs/workers.md)")
    .option('--disable-api <list>', 'turn API groups off: repository,logging,shared-memory,statistics,demo,reflection')
    .option('--log-directory <dir>', 'the only directory POST /v2/logging may move log_file into (default: log_file cannot be changed)')
    // vLLM's flags where they mean the same here (docs/configuration.md "Flags of other servers").
    .option('--port <port>', "vLLM's --port: the HTTP port (= --http-port)")
    .option('--api-key <key>', "vLLM's --api-key: require this key (Authorization: Bearer) for every call but health; or RTSERVE_API_KEY")
    .option('--served-model-name <name>', "vLLM's flag: refused, since a model's name here is its folder's name in the repository");
  // tritonserver's own flags (--model-store, --allow-grpc=true, ...): docs/triton-compat.md.
  registerTritonFlags(serve);
  serve.action(async (flags: ServeFlags) => {
    // V8's allocation-site pretenuring sees a request's objects survive a minor GC while the request waits in a
    // queue, and from then on allocates every request's objects of those sites in the old generation: the main
    // isolate promoted ~1.2 MB per minor GC under load and spent ~20 µs of CPU per request in major GCs. Off,
    // they die young (bench/results/hotpath-2026-11-30.md). Set before the server allocates; it is process-wide,
    // so it also covers the engine workers.
    setFlagsFromString('--no-allocation-site-pretenuring');
    const triton = translateTritonFlags(flags as Record<string, unknown>);
    const httpPort = vllmPort(flags);
    const tritonRepositories = triton.config['modelRepository'] as string[] | undefined;
    // Warnings found while reading the config (unknown RTSERVE_* variables) are logged once the logger exists.
    const configWarnings: string[] = [];
    const sources = {
      ...(flags.config === undefined ? {} : { file: flags.config }),
      env: process.env,
      warn: (message: string) => configWarnings.push(message),
      flags: {
        modelRepository: flags.modelRepository,
        host: flags.host,
        httpPort,
        apiKey: flags.apiKey,
        grpcPort: flags.grpcPort,
        metricsPort: flags.metricsPort,
        modelControlMode: flags.modelControlMode?.toLowerCase(),
        logLevel: flags.logLevel,
        exitTimeoutSecs: flags.exitTimeoutSecs,
        providers: flags.providers?.split(',').map((s) => s.trim()),
        strictReadiness: flags.strictReadiness,
        loadModel: flags.loadModel,
        repositoryPollSecs: flags.repositoryPollSecs,
        cacheSizeBytes: flags.cacheSizeBytes,
        accessLog: flags.accessLog,
        tlsCert: flags.tlsCert,
        tlsKey: flags.tlsKey,
        tlsCa: flags.tlsCa,
        allowClientShm: flags.allowClientShm,
        imageDecode: flags.imageDecode,
        cudaCompileOnnx: flags.cudaCompileOnnx,
        cudaPlanCache: flags.cudaPlanCache,
        workers: flags.workers,
        disabledApis: flags.disableApi,
        logDirectory: flags.logDirectory,
        // tritonserver's flags; --model-store adds to --model-repository.
        ...triton.config,
        ...(tritonRepositories === undefined ? {} : { modelRepository: [...(flags.modelRepository ?? []), ...tritonRepositories] }),
      },
    };
    const config = await loadServerConfig(sources);
    const logger = createLogger(config.logLevel, 'rtserve', { file: config.logFile, format: config.logFormat, style: config.logStyle });
    for (const message of configWarnings.splice(0)) logger.warn(message);
    for (const w of triton.warnings) logger.warn(w);
    const server = await startServer({ config, logger, cudaCompiler: compileCudaPlan });
    const parts = server.httpUrl === '' ? [] : [`http=${server.httpUrl}`];
    if (server.grpcAddress !== undefined) parts.push(`grpc=${server.grpcAddress}`);
    if (server.metricsUrl !== undefined) parts.push(`metrics=${server.metricsUrl}/metrics`);
    parts.push(`models=${modelsReady(server)}`);
    process.stdout.write(`rtserve ready ${parts.join(' ')}\n`);

    // API keys and JWT settings are re-read on SIGHUP and when the config file changes (docs/security.md);
    // a file that fails to load or validate leaves the running keys in place.
    const watcher = watchConfig(flags.config, async (reason) => {
      try {
        const next = await loadServerConfig(sources);
        await server.security.reloadAuth(next.auth);
      } catch (err) {
        logger.error(
          { reason, err: err instanceof RtError ? `${err.code}: ${err.message}` : String(err) },
          'auth reload failed; keeping the previous keys',
        );
      }
    });

    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      stopping = true;
      watcher.close();
      logger.info({ signal }, 'draining');
      // Past the exit timeout queued requests are answered SERVER_DRAINING; this watchdog covers a batch that
      // never finishes (a hung device), so a stop always ends.
      setTimeout(
        () => {
          logger.error({ signal }, 'stop did not finish within --exit-timeout-secs + 10 s: exiting');
          logger.flush();
          process.exit(1);
        },
        config.exitTimeoutSecs * 1000 + 10_000,
      ).unref();
      server.close().then(
        () => {
          logger.info('stopped');
          logger.flush();
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ err }, 'error while stopping');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}

/** `--port` (vLLM) is `--http-port`; both at once is a mistake worth naming. `--served-model-name` is refused. */
function vllmPort(flags: ServeFlags): string | undefined {
  if (flags.servedModelName !== undefined) {
    throw rtError(
      'BAD_CONFIG',
      `--served-model-name '${flags.servedModelName}': rtserve serves every model of the repository under its folder's name; name the folder (or a symlink to it) '${flags.servedModelName}'`,
    );
  }
  if (flags.port !== undefined && flags.httpPort !== undefined)
    throw rtError('BAD_CONFIG', 'give --port or --http-port, not both (they are the same port)');
  return flags.httpPort ?? flags.port;
}

/**
 * `<ready>/<loaded>` for the ready line: models with a ready version, of the models the server tried to load (explicit
 * mode's models that nobody asked for are left out; with exitOnError false, failed ones count in the second number).
 */
function modelsReady(server: RunningServer): string {
  const index = server.core.repositoryIndex(false).filter((e) => e.reason !== 'not loaded');
  const ready = new Set(index.filter((e) => e.state === 'READY').map((e) => e.name));
  return `${ready.size}/${new Set(index.map((e) => e.name)).size}`;
}

/** Prints a config or startup error without a stack trace and exits non-zero. */
export function reportFatal(err: unknown): never {
  const msg = err instanceof RtError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  process.stderr.write(`rtserve: ${msg}\n`);
  process.exit(2);
}
