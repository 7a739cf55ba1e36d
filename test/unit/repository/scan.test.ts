import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { assertSafeModelName, findModelFile, modelFileKindOf, parseVersionDirName, scanModel, scanRepository } from '../../../src/repository/scan.ts';
import { RtError } from '../../../src/errors/registry.ts';
import { addModel, makeTempDir, removeDir, writeTree } from './helpers.ts';

function rtCode(code: string, pattern?: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof RtError, `expected RtError, got ${String(err)}`);
    assert.equal(err.code, code);
    if (pattern !== undefined) assert.match(err.message, pattern);
    return true;
  };
}

describe('scanRepository', () => {
  let repo = '';
  before(async () => {
    repo = await makeTempDir();
    const onnx = addModel();
    await writeTree(repo, {
      'README.md': 'not a model',
      '.git/HEAD': 'ref',
      // versions: 1, 2, 10 valid; 0, 01, abc, v3 ignored; a file named 3 is not a directory
      'alpha/config.pbtxt': 'name: "alpha"',
      'alpha/1/model.onnx': onnx,
      'alpha/2/model.onnx': onnx,
      'alpha/10/model.onnx': onnx,
      'alpha/0/model.onnx': onnx,
      'alpha/01/model.onnx': onnx,
      'alpha/abc/model.onnx': onnx,
      'alpha/v3': null,
      'alpha/3': 'a file, not a version directory',
      'alpha/labels.txt': 'cat\ndog\n',
      // several config files: JSON wins, then YAML, then pbtxt
      'beta/config.pbtxt': 'name: "beta"',
      'beta/config.yaml': 'name: beta',
      'beta/config.json': '{"name": "beta"}',
      'beta/1/model.plan': 'plan bytes',
      'gamma/config.yaml': 'name: gamma',
      'gamma/config.pbtxt': 'name: "gamma"',
      'gamma/1/model.onnx/model.onnx': onnx,
      'gamma/1/model.onnx/weights.bin': 'external data',
      // no config file at all, and no versions
      delta: null,
    });
  });
  after(async () => removeDir(repo));

  test('finds model directories sorted by name, skipping files and hidden entries', async () => {
    const models = await scanRepository(repo);
    assert.deepEqual(
      models.map((m) => m.name),
      ['alpha', 'beta', 'delta', 'gamma'],
    );
    assert.equal(models[0]?.dir, join(repo, 'alpha'));
  });

  test('keeps numeric version directories, ascending, and ignores the rest (Triton rules)', async () => {
    const alpha = await scanModel(repo, 'alpha');
    assert.deepEqual(
      alpha.versions.map((v) => v.version),
      [1, 2, 10],
    );
    assert.deepEqual(alpha.ignoredEntries, ['0', '01', '3', 'abc', 'labels.txt', 'v3']);
    assert.equal(alpha.versions[2]?.dir, join(repo, 'alpha', '10'));
    assert.deepEqual(alpha.versions[0]?.files, [{ name: 'model.onnx', isDirectory: false }]);
  });

  test('picks the config file by precedence json > yaml > pbtxt and lists the shadowed ones', async () => {
    const [alpha, beta, delta, gamma] = await scanRepository(repo);
    assert.deepEqual(alpha?.configFile, { fileName: 'config.pbtxt', path: join(repo, 'alpha', 'config.pbtxt'), format: 'pbtxt' });
    assert.equal(beta?.configFile?.format, 'json');
    assert.deepEqual(beta?.shadowedConfigFiles, ['config.yaml', 'config.pbtxt']);
    assert.equal(gamma?.configFile?.fileName, 'config.yaml');
    assert.deepEqual(gamma?.shadowedConfigFiles, ['config.pbtxt']);
    assert.equal(delta?.configFile, undefined);
    assert.deepEqual(delta?.versions, []);
  });

  test('follows symlinked model directories', async () => {
    const other = await makeTempDir();
    try {
      await writeTree(other, { 'linked/1/model.onnx': addModel() });
      const repo2 = await makeTempDir();
      try {
        await symlink(join(other, 'linked'), join(repo2, 'linked'));
        await symlink(join(other, 'missing'), join(repo2, 'dangling'));
        const models = await scanRepository(repo2);
        assert.deepEqual(
          models.map((m) => m.name),
          ['linked'],
        );
        assert.deepEqual(
          models[0]?.versions.map((v) => v.version),
          [1],
        );
      } finally {
        await removeDir(repo2);
      }
    } finally {
      await removeDir(other);
    }
  });

  test('rejects a model directory whose name is not safe, naming it', async () => {
    const bad = await makeTempDir();
    try {
      await writeTree(bad, { 'a\\b/1/model.onnx': addModel() });
      await assert.rejects(scanRepository(bad), rtCode('BAD_CONFIG', /invalid model name "a\\\\b": it contains a path separator/));
    } finally {
      await removeDir(bad);
    }
  });

  test('a missing repository or a file instead of a directory is BAD_CONFIG', async () => {
    await assert.rejects(scanRepository(join(repo, 'nope')), rtCode('BAD_CONFIG', /does not exist/));
    await assert.rejects(scanRepository(join(repo, 'README.md')), rtCode('BAD_CONFIG', /is not a directory/));
  });
});

describe('scanModel', () => {
  let repo = '';
  before(async () => {
    repo = await makeTempDir();
    await writeTree(repo, { 'm/1/model.onnx': addModel(), 'file-not-dir': 'x', '.hidden/1/model.onnx': addModel() });
  });
  after(async () => removeDir(repo));

  test('scans one model by name', async () => {
    const m = await scanModel(repo, 'm');
    assert.equal(m.name, 'm');
    assert.deepEqual(
      m.versions.map((v) => v.version),
      [1],
    );
  });

  test('unknown names, files and hidden directories are MODEL_NOT_FOUND', async () => {
    await assert.rejects(scanModel(repo, 'nope'), rtCode('MODEL_NOT_FOUND', /no model named 'nope'/));
    await assert.rejects(scanModel(repo, 'file-not-dir'), rtCode('MODEL_NOT_FOUND'));
    await assert.rejects(scanModel(repo, '.hidden'), rtCode('MODEL_NOT_FOUND'));
  });

  test('names that could leave the repository are rejected before touching the file system', async () => {
    for (const name of ['../m', '..', 'a/b', 'a\\b', '', '.', 'x\u0000y', 'a..b']) {
      await assert.rejects(scanModel(repo, name), rtCode('BAD_CONFIG', /invalid model name/), name);
    }
  });
});

describe('names, versions and model files', () => {
  test('assertSafeModelName accepts ordinary names', () => {
    for (const name of ['simple', 'resnet_tiny', 'my-model.v2', 'with space']) assert.doesNotThrow(() => assertSafeModelName(name));
  });

  test('parseVersionDirName: digits not starting with 0', () => {
    assert.equal(parseVersionDirName('1'), 1);
    assert.equal(parseVersionDirName('42'), 42);
    for (const bad of ['0', '01', '-1', '1.0', '1a', '', ' 1', '99999999999999999999']) assert.equal(parseVersionDirName(bad), undefined, bad);
  });

  test('findModelFile: model.onnx, model.plan, a model.onnx directory, default_model_filename', () => {
    const v = (files: { name: string; isDirectory: boolean }[]) => ({ version: 1, dir: '/r/m/1', files });
    assert.deepEqual(findModelFile(v([{ name: 'model.onnx', isDirectory: false }])), {
      fileName: 'model.onnx',
      path: join('/r/m/1', 'model.onnx'),
      kind: 'onnx',
    });
    assert.deepEqual(findModelFile(v([{ name: 'model.plan', isDirectory: false }])), {
      fileName: 'model.plan',
      path: join('/r/m/1', 'model.plan'),
      kind: 'plan',
    });
    const both = v([
      { name: 'model.onnx', isDirectory: false },
      { name: 'model.plan', isDirectory: false },
    ]);
    assert.equal(findModelFile(both)?.kind, 'onnx');
    assert.equal(findModelFile(both, { kinds: ['plan', 'onnx'] })?.kind, 'plan');
    assert.equal(findModelFile(both, { kinds: ['plan'] })?.kind, 'plan');
    assert.equal(findModelFile(v([{ name: 'model.onnx', isDirectory: true }]))?.path, join('/r/m/1', 'model.onnx', 'model.onnx'));
    const custom = v([
      { name: 'model.onnx', isDirectory: false },
      { name: 'net.onnx', isDirectory: false },
    ]);
    assert.equal(findModelFile(custom, { defaultModelFilename: 'net.onnx' })?.fileName, 'net.onnx');
    assert.equal(findModelFile(custom, { defaultModelFilename: 'other.onnx' }), undefined);
    assert.equal(findModelFile(custom, { defaultModelFilename: '../1/net.onnx' }), undefined);
    assert.equal(findModelFile(v([])), undefined);
    assert.equal(modelFileKindOf('engine.plan'), 'plan');
    assert.equal(modelFileKindOf('model.onnx'), 'onnx');
  });
});
