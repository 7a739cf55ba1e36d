import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LAYERS } from './layers.ts';

// The layering of src/ (docs/architecture.md): each folder may import only the folders its row lists. The table
// lives in ./layers.ts; docs/architecture.md shows it, and the last test keeps the two equal.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const src = join(root, 'src');

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (e.endsWith('.ts')) out.push(p);
  }
  return out;
}

interface ImportEdge {
  readonly file: string;
  readonly spec: string;
  readonly from: string;
  readonly to: string;
  readonly target: string;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

// The client package (packages/client, docs/client-sdk.md) is the `client` layer: src/client re-exports it.
const clientPackage = join(root, 'packages', 'client', 'src');

function folderOf(path: string): string {
  if (path.startsWith(clientPackage)) return 'client';
  const rel = relative(src, path).split('/');
  return rel.length === 1 ? '(root)' : (rel[0] ?? '(root)');
}

function edges(): { relative: ImportEdge[]; packages: { file: string; spec: string }[] } {
  const rel: ImportEdge[] = [];
  const packages: { file: string; spec: string }[] = [];
  for (const f of [...tsFiles(src), ...tsFiles(clientPackage)]) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      const file = relative(root, f);
      if (!spec.startsWith('.')) {
        packages.push({ file, spec });
        continue;
      }
      const target = resolve(dirname(f), spec);
      if (!target.startsWith(src) && !target.startsWith(clientPackage)) {
        rel.push({ file, spec, from: folderOf(f), to: '(outside src)', target });
        continue;
      }
      rel.push({ file, spec, from: folderOf(f), to: folderOf(target), target });
    }
  }
  return { relative: rel, packages };
}

const all = edges();

test('every folder of src/ has a row in the layer table, and every row names a folder that exists', () => {
  const folders = readdirSync(src).filter((e) => statSync(join(src, e)).isDirectory());
  assert.deepEqual(folders.filter((f) => !(f in LAYERS)).sort(), [], 'folders without a row in test/unit/architecture/layers.ts');
  const rows = Object.keys(LAYERS).filter((k) => k !== '(root)');
  assert.deepEqual(rows.filter((r) => !folders.includes(r)).sort(), [], 'rows for folders that do not exist');
  for (const [row, deps] of Object.entries(LAYERS)) {
    for (const d of deps) assert.ok(d in LAYERS, `${row} lists ${d}, which has no row`);
  }
});

test('the layer table has no cycle (a bottom-up order exists)', () => {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (n: string, path: string[]): void => {
    if (state.get(n) === 'done') return;
    assert.notEqual(state.get(n), 'visiting', `cycle: ${[...path, n].join(' -> ')}`);
    state.set(n, 'visiting');
    for (const d of LAYERS[n] ?? []) visit(d, [...path, n]);
    state.set(n, 'done');
    order.push(n);
  };
  for (const n of Object.keys(LAYERS)) visit(n, []);
  assert.equal(order.length, Object.keys(LAYERS).length);
});

test('every import between folders of src/ is allowed by the layer table (no exceptions list)', () => {
  const offenders = all.relative
    .filter((e) => e.from !== e.to)
    .filter((e) => !(LAYERS[e.from] ?? []).includes(e.to))
    .map((e) => `${e.file}: ${e.spec} (${e.from} -> ${e.to})`);
  assert.deepEqual(offenders, []);
});

/**
 * Circles of files that import each other (type imports included), by strongly connected component. Two remain in
 * the frame path that the GPU camera work (issue #30) is rewriting this round; this list may only shrink (a listed
 * circle that is gone fails too, so the entry goes with it).
 */
const KNOWN_CYCLES: readonly string[] = [
  'src/engine/cuda/cuda-session.ts src/engine/cuda/frame-input.ts src/engine/cuda/image-run.ts',
  'src/preprocess/engine-frame.ts src/preprocess/frame-batcher.ts src/preprocess/image-pipeline.ts',
];

function fileCycles(): string[] {
  const graph = new Map<string, string[]>();
  for (const e of all.relative) {
    const to = relative(root, e.target);
    graph.set(e.file, [...(graph.get(e.file) ?? []), to]);
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (;;) {
      const w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) out.push(component.sort().join(' '));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out.sort();
}

test('no file-level import cycle: a child talks to its owner through a types file (chain-types.ts, ws-session-types.ts, ...)', () => {
  assert.deepEqual(fileCycles(), [...KNOWN_CYCLES].sort());
});

test('no allowed folder edge unused: the layer table only lists imports that exist (it may only tighten)', () => {
  const used = new Set(all.relative.filter((e) => e.from !== e.to).map((e) => `${e.from} -> ${e.to}`));
  const unused = Object.entries(LAYERS).flatMap(([row, deps]) => deps.map((d) => `${row} -> ${d}`).filter((edge) => !used.has(edge)));
  assert.deepEqual(unused, []);
});

test('the leaves import nothing: tensor/ and errors/ use no other folder and no package', () => {
  for (const leaf of ['tensor', 'errors']) {
    const out = all.relative.filter((e) => e.from === leaf && e.to !== leaf).map((e) => `${e.file}: ${e.spec}`);
    const pk = all.packages.filter((p) => p.file.startsWith(`src/${leaf}/`)).map((p) => `${p.file}: ${p.spec}`);
    assert.deepEqual([...out, ...pk], [], leaf);
  }
});

test('the front ends stay apart: transport/http, transport/ws and transport/grpc share code only through transport/streaming and lower layers', () => {
  const sub = (p: string): string | undefined => {
    const r = relative(join(src, 'transport'), p).split('/');
    return r.length > 1 && !r[0]?.startsWith('..') ? r[0] : undefined;
  };
  const offenders = all.relative
    .filter((e) => e.from === 'transport' && e.to === 'transport')
    .filter((e) => {
      const a = sub(join(root, e.file));
      const b = sub(e.target);
      return a !== undefined && b !== undefined && a !== b && b !== 'streaming';
    })
    .map((e) => `${e.file}: ${e.spec}`);
  assert.deepEqual(offenders, []);
});

test('packages stay where they belong: onnxruntime only in engine/ort, network servers only at the edge', () => {
  const rules: { readonly pkg: RegExp; readonly allowed: readonly string[] }[] = [
    { pkg: /^onnxruntime-node$/, allowed: ['src/engine/ort/'] },
    { pkg: /^(fastify|@fastify\/)/, allowed: ['src/transport/', 'src/app/', 'src/security/', 'src/observability/'] },
    { pkg: /^@grpc\//, allowed: ['src/transport/grpc/', 'src/app/', 'packages/client/src/', 'src/bench/', 'src/security/'] },
    { pkg: /^ws$/, allowed: ['src/transport/ws/', 'src/app/', 'packages/client/src/node.ts', 'src/bench/'] },
    { pkg: /^sharp$/, allowed: ['src/preprocess/'] },
  ];
  const offenders = all.packages
    .filter((p) => rules.some((r) => r.pkg.test(p.spec) && !r.allowed.some((a) => p.file.startsWith(a))))
    .map((p) => `${p.file}: ${p.spec}`);
  assert.deepEqual(offenders, []);
});

test('the environment is read in src/config/ and at the edge (app/, cli/, bench/) only: engines and libraries take values', () => {
  const edge = ['src/config/', 'src/app/', 'src/cli/', 'src/bench/'];
  const offenders = tsFiles(src)
    .map((f) => relative(root, f))
    .filter((f) => !edge.some((e) => f.startsWith(e)))
    .filter((f) => /\bprocess\.env\b/.test(readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(offenders, []);
});

test('the browser client imports no Node built-in (src/client/index.ts and what it reaches)', () => {
  const seen = new Set<string>();
  const stack = [join(src, 'client/index.ts')];
  const offenders: string[] = [];
  while (stack.length > 0) {
    const f = stack.pop() as string;
    if (seen.has(f)) continue;
    seen.add(f);
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      const line = text.slice(0, m.index).split('\n').pop() ?? '';
      if (/import\s+type|export\s+type/.test(m[0]) || line.includes('import type')) continue;
      if (spec.startsWith('node:')) offenders.push(`${relative(root, f)}: ${spec}`);
      else if (spec.startsWith('.')) stack.push(resolve(dirname(f), spec));
    }
  }
  assert.deepEqual(offenders, []);
});

test('docs/architecture.md shows the same layer table', () => {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const block = /<!-- layers:begin -->([\s\S]*?)<!-- layers:end -->/.exec(doc)?.[1] ?? '';
  const rows: Record<string, string[]> = {};
  for (const line of block.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (name === undefined) continue;
    const deps = cells[3] ?? '';
    rows[name] = deps === '(nothing)' ? [] : deps.split(',').map((d) => d.trim());
  }
  const sorted = (o: Readonly<Record<string, readonly string[]>>): Record<string, string[]> => {
    const out: Record<string, string[]> = {};
    for (const k of Object.keys(o).sort()) out[k] = [...(o[k] ?? [])].sort();
    return out;
  };
  assert.deepEqual(sorted(rows), sorted(LAYERS));
});
