/**
 * The CPU image (Dockerfile) built and run with podman, the way a user builds it anywhere: on the base image
 * scripts/container/make-base-image.sh makes locally (cached: it is built once per machine), `podman build`,
 * then the container is started with its default command and must become healthy (its own HEALTHCHECK), run as
 * a non-root user, ship without dev dependencies, answer one inference over REST and one over gRPC, and stop on
 * SIGTERM. Skipped only where podman is missing outside CI; in CI (.ci/run installs podman, buildah and
 * debootstrap) it must run. It removes what it built (its container, its tag, and every image of its build,
 * intermediate stages included, found by a label unique to the run) and keeps the cached base image, so a reused
 * machine does not grow by an image per source change.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inferenceClient, unary } from '../grpc/grpc-test-client.ts';
import { freePort, needTool, waitFor } from '../ops/helpers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PODMAN = ['--runtime', process.env['PODMAN_RUNTIME'] ?? 'runc'];
// runc here may not raise rlimits past the host's hard limits ("error setting rlimit type 7").
const ULIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];
const RUN = `${process.pid}-${Date.now()}`;
const IMAGE = `localhost/rtserve-test:cpu-${RUN}`;
const NAME = `rtserve-test-${process.pid}`;
const BASE = 'docker.io/library/node:24-bookworm-slim';
/** On every image this run's build commits, the final one and each stage's intermediate ones (buildah applies it to all). */
const BUILD_LABEL = `io.rtserve.test.build=${RUN}`;

function podman(args: string[], timeoutMs = 60_000): SpawnSyncReturns<string> {
  return spawnSync('podman', [...PODMAN, ...args], { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
}

/** Runs a long command (base image, image build) without blocking the test runner's event loop. */
function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (c: Buffer): void => {
      out = (out + c.toString()).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('CPU container image (Dockerfile, podman)', { skip: needTool('podman', 'podman'), timeout: 30 * 60_000 }, () => {
  let httpPort: number;
  let grpcPort: number;

  before(async () => {
    const base = await run('bash', ['scripts/container/make-base-image.sh'], 15 * 60_000);
    assert.equal(base.code, 0, `make-base-image.sh failed:\n${base.out}`);
    const build = await run(
      'podman',
      [...PODMAN, 'build', '--format', 'docker', '--label', BUILD_LABEL, '-t', IMAGE, '-f', 'Dockerfile', '.'],
      20 * 60_000,
    );
    assert.equal(build.code, 0, `podman build failed:\n${build.out}`);
    httpPort = await freePort();
    grpcPort = await freePort();
    // A drain waits for open gRPC connections up to the exit timeout (the client's channel may outlive close()).
    const r = podman([
      'run',
      '-d',
      '--name',
      NAME,
      ...ULIMITS,
      '-e',
      'RTSERVE_EXIT_TIMEOUT_SECS=5',
      '-p',
      `127.0.0.1:${httpPort}:8000`,
      '-p',
      `127.0.0.1:${grpcPort}:8001`,
      IMAGE,
    ]);
    assert.equal(r.status, 0, `podman run failed: ${r.stderr}`);
  });

  const builtImages = (): string[] =>
    podman(['images', '-a', '-q', '--filter', `label=${BUILD_LABEL}`])
      .stdout.split('\n')
      .filter((id) => id !== '');
  /** Removes the container, the tag and every image of this run's build; the base image stays. */
  const cleanUp = (): void => {
    podman(['rm', '-f', '-t', '0', NAME]);
    podman(['rmi', IMAGE]);
    // Intermediate images of the build stage are not parents of the final image: they are left untagged.
    // A child must go before its parent: a few passes (bounded) settle any order.
    for (let pass = 0; pass < 4; pass++) {
      const left = builtImages();
      if (left.length === 0) return;
      podman(['rmi', ...new Set(left)]);
    }
  };

  after(() => {
    cleanUp();
  });

  it('becomes healthy by its own HEALTHCHECK (the published port answers /v2/health/ready)', async () => {
    await waitFor(
      'the container to become healthy',
      () => {
        const state = podman(['inspect', '--format', '{{.State.Status}}', NAME]).stdout.trim();
        if (state !== 'running') throw new Error(`container is ${state}: ${podman(['logs', NAME]).stdout}${podman(['logs', NAME]).stderr}`);
        return podman(['healthcheck', 'run', NAME]).status === 0 ? true : undefined;
      },
      120_000,
      500,
    );
    const r = await fetch(`http://127.0.0.1:${httpPort}/v2/health/ready`);
    assert.equal(r.status, 200);
  });

  it('runs as the unprivileged node user, listening on all interfaces, without dev dependencies', () => {
    assert.equal(podman(['exec', NAME, 'id', '-u']).stdout.trim(), '1000');
    const cfg = podman(['image', 'inspect', '--format', '{{.Config.User}} {{json .Config.Env}} {{json .Config.Healthcheck}}', IMAGE]).stdout;
    assert.match(cfg, /^node /);
    assert.match(cfg, /RTSERVE_HOST=0\.0\.0\.0/);
    assert.match(cfg, /v2\/health\/ready/);
    for (const dev of ['typescript', 'tsx', 'fast-check', 'kubernetes-models']) {
      assert.notEqual(podman(['exec', NAME, 'test', '-e', `node_modules/${dev}`]).status, 0, `${dev} is a dev dependency`);
    }
    // The server cannot write its own code.
    assert.notEqual(podman(['exec', NAME, 'sh', '-c', 'touch dist/x']).status, 0);
  });

  it('answers an inference over REST and over gRPC', async () => {
    const a = Array.from({ length: 16 }, (_, i) => i);
    const r = await fetch(`http://127.0.0.1:${httpPort}/v2/models/simple/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        inputs: [
          { name: 'INPUT0', datatype: 'INT32', shape: [1, 16], data: a },
          { name: 'INPUT1', datatype: 'INT32', shape: [1, 16], data: a.map(() => 1) },
        ],
      }),
    });
    assert.equal(r.status, 200);
    const body = (await r.json()) as { outputs: { name: string; data: number[] }[] };
    assert.deepEqual(
      body.outputs.find((o) => o.name === 'OUTPUT0')?.data,
      a.map((x) => x + 1),
    );

    const client = inferenceClient(`127.0.0.1:${grpcPort}`);
    try {
      assert.deepEqual(await unary(client, 'ServerReady', {}), { ready: true });
      const meta = await unary<{ name: string }>(client, 'ModelMetadata', { name: 'simple', version: '' });
      assert.equal(meta.name, 'simple');
    } finally {
      client.close();
    }
  });

  it('stops cleanly on SIGTERM (exit code 0)', () => {
    const r = podman(['stop', '-t', '60', NAME], 90_000);
    assert.equal(r.status, 0, r.stderr);
    const logs = podman(['logs', NAME]);
    assert.equal(
      podman(['inspect', '--format', '{{.State.ExitCode}}', NAME]).stdout.trim(),
      '0',
      `exit code; logs:\n${logs.stdout.slice(-3000)}${logs.stderr.slice(-3000)}`,
    );
  });

  it('removes what it built (container, tag, intermediate images) and keeps the cached base image', () => {
    const built = builtImages();
    assert.ok(built.length >= 2, `the build committed labelled images (final and intermediate): ${built.join(' ')}`);
    cleanUp();
    assert.deepEqual(builtImages(), [], 'no image of this build is left');
    assert.notEqual(podman(['image', 'exists', IMAGE]).status, 0, 'the tag is gone');
    assert.equal(podman(['image', 'exists', BASE]).status, 0, 'the base image stays cached');
  });
});
