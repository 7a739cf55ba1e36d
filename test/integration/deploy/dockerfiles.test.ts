/**
 * Dockerfile and Dockerfile.cuda, read as files (the CUDA image cannot be built where no NVIDIA base image can be
 * pulled; the CPU one is built and run by container-image.test.ts): every COPY source from the build context
 * exists and is not excluded by .dockerignore, both run as a non-root user with a HEALTHCHECK on
 * /v2/health/ready, listen on all interfaces, expose the three ports, ship the same runtime files (the CUDA one
 * plus the addon), the CUDA build stage runs native/build.sh, Node comes from the LTS line CI runs the suite on
 * (.ci/run's NODE_LTS), and the runtime image carries the OCI annotations with package.json's version and licence.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Instruction {
  readonly op: string;
  readonly args: string;
}

/** Instructions of a Dockerfile: comments dropped, backslash continuations joined. */
function parseDockerfile(text: string): Instruction[] {
  const joined = text.replace(/\\\n/g, ' ');
  const out: Instruction[] = [];
  for (const line of joined.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(t);
    assert.ok(m !== null, `not an instruction: ${t}`);
    out.push({ op: (m[1] ?? '').toUpperCase(), args: m[2] ?? '' });
  }
  return out;
}

/** The final stage's instructions (after the last FROM). */
function finalStage(ins: Instruction[]): Instruction[] {
  const last = ins.map((i) => i.op).lastIndexOf('FROM');
  return ins.slice(last + 1);
}

/** `key="value"` pairs of the stage's LABEL instructions. */
function labelsOf(stage: Instruction[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const i of stage.filter((x) => x.op === 'LABEL')) for (const m of i.args.matchAll(/([\w.-]+)="([^"]*)"/g)) out.set(m[1] ?? '', m[2] ?? '');
  return out;
}

/** The default of `ARG name=value` in the stage, if it has one. */
function argDefault(stage: Instruction[], name: string): string | undefined {
  for (const i of stage.filter((x) => x.op === 'ARG')) {
    const m = new RegExp(`^${name}=(.*)$`).exec(i.args.trim());
    if (m !== null) return (m[1] ?? '').replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; license: string };
const ltsMajor = /^NODE_LTS=(\d+)\./m.exec(readFileSync(join(root, '.ci', 'run'), 'utf8'))?.[1];

const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

for (const file of ['Dockerfile', 'Dockerfile.cuda']) {
  describe(file, () => {
    const ins = parseDockerfile(readFileSync(join(root, file), 'utf8'));
    const runtime = finalStage(ins);

    it('copies only files that exist in the build context and are not ignored', () => {
      for (const i of ins.filter((x) => x.op === 'COPY' && !x.args.startsWith('--from'))) {
        const parts = i.args.split(/\s+/).filter((p) => !p.startsWith('--'));
        for (const src of parts.slice(0, -1)) {
          assert.ok(existsSync(join(root, src)), `${file}: COPY ${src} does not exist`);
          assert.ok(!ignored.includes(src) && !ignored.includes(src.split('/')[0] ?? ''), `${file}: COPY ${src} is excluded by .dockerignore`);
        }
      }
    });

    it('runs as a non-root user, on all interfaces, with a health check and the three ports', () => {
      const user = runtime.filter((i) => i.op === 'USER').at(-1)?.args;
      assert.ok(user !== undefined && !/^(root|0)(:|$)/.test(user), `${file}: USER ${user}`);
      assert.ok(runtime.some((i) => i.op === 'ENV' && /RTSERVE_HOST=0\.0\.0\.0/.test(i.args)));
      assert.match(runtime.find((i) => i.op === 'HEALTHCHECK')?.args ?? '', /\/v2\/health\/ready/);
      assert.deepEqual(runtime.find((i) => i.op === 'EXPOSE')?.args.split(/\s+/), ['8000', '8001', '8002']);
      assert.match(runtime.find((i) => i.op === 'CMD')?.args ?? '', /"serve", "--host", "0\.0\.0\.0"/);
    });

    it("takes Node from the LTS line CI runs the suite on (.ci/run's NODE_LTS)", () => {
      assert.ok(ltsMajor !== undefined, '.ci/run pins NODE_LTS');
      assert.equal(argDefault(ins, 'NODE_IMAGE'), `docker.io/library/node:${ltsMajor}-bookworm-slim`);
    });

    it("carries the OCI annotations, with package.json's version and licence", () => {
      const labels = labelsOf(runtime);
      for (const key of ['title', 'description', 'version', 'revision', 'created', 'licenses', 'base.name'])
        assert.ok(labels.has(`org.opencontainers.image.${key}`), `${file}: LABEL org.opencontainers.image.${key}`);
      assert.equal(labels.get('org.opencontainers.image.version'), `\${RTSERVE_VERSION}`);
      assert.equal(argDefault(runtime, 'RTSERVE_VERSION'), pkg.version, `${file}: RTSERVE_VERSION defaults to package.json's version`);
      assert.equal(labels.get('org.opencontainers.image.licenses'), pkg.license);
      // The base image's name: the stage's FROM with its build arguments, declared in the stage so they expand.
      const base = labels.get('org.opencontainers.image.base.name') ?? '';
      const from = ins.filter((i) => i.op === 'FROM').at(-1)?.args ?? '';
      assert.equal(base, from);
      for (const arg of base.matchAll(/\$\{(\w+)\}/g))
        assert.ok(
          runtime.some((i) => i.op === 'ARG' && i.args.split('=')[0] === arg[1]),
          `${file}: ARG ${arg[1]} is declared in the runtime stage`,
        );
    });

    it('ships the runtime files without dev dependencies', () => {
      const copied = runtime.filter((i) => i.op === 'COPY').map((i) => i.args.split(/\s+/).at(-2) ?? '');
      for (const need of [
        '/src/package.json',
        '/src/node_modules',
        '/src/dist',
        '/src/bin',
        '/src/models',
        '/src/web',
        '/src/src/transport/grpc/proto',
        '/src/src/onnx/generated',
      ]) {
        assert.ok(copied.includes(need), `${file}: the runtime stage copies ${need}`);
      }
      assert.ok(
        ins.some((i) => i.op === 'RUN' && /npm prune --omit=dev/.test(i.args)),
        `${file}: dev dependencies are pruned`,
      );
      if (file === 'Dockerfile.cuda') {
        assert.ok(copied.includes('/src/native/build/rtcuda.node'), 'the CUDA image ships the addon');
        assert.ok(
          ins.some((i) => i.op === 'RUN' && /native\/build\.sh/.test(i.args)),
          'the CUDA build stage builds the addon',
        );
        assert.equal(argDefault(ins, 'CUDA_ARCH'), 'fat', 'the image ships the fat binary (sm_80 ... sm_100 + PTX)');
        assert.ok(
          runtime.some((i) => i.op === 'ENV' && /RTSERVE_CUDA_COMPILE_ONNX=true/.test(i.args)),
          'ONNX models are compiled to CUDA plans at load by default in the CUDA image',
        );
      }
    });
  });
}
