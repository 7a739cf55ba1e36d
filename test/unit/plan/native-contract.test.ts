import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ACT, BINOP, EWOP, RESIZE_COORD, RESIZE_NEAREST } from '../../../src/plan/cuda-network.ts';

// The contract between the plan the compiler writes (src/plan/cuda-network.ts) and the native addon that reads it
// (native/src/*): the operator codes and the JSON keys. Both sides are parsed here (the C++ as text, the
// TypeScript with the compiler's type checker) and compared, so a key or a code added on one side only fails.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const nativeDir = join(root, 'native/src');
const native = (file: string): string => readFileSync(join(nativeDir, file), 'utf8');
const allNative = readdirSync(nativeDir)
  .filter((f) => /\.(cu|cuh|h)$/.test(f))
  .map(native)
  .join('\n');

/** `enum Name : int { A_B = 0, ... }` in the native sources, as number → name. */
function nativeEnum(name: string): Map<number, string> {
  const body = new RegExp(`enum ${name} : int \\{([^}]*)\\}`).exec(allNative)?.[1];
  assert.ok(body !== undefined, `enum ${name} not found in native/src`);
  const out = new Map<number, string>();
  for (const m of body.matchAll(/(\w+)\s*=\s*(\d+)/g)) out.set(Number(m[2]), m[1] as string);
  return out;
}

/** Names compared without case, underscores or the enum's prefix; `aliases` maps the few spelled apart. */
function assertSameCodes(ts: Readonly<Record<string, number>>, nat: Map<number, string>, prefix: string, aliases: Record<string, string> = {}): void {
  const norm = (s: string): string => s.toLowerCase().replaceAll('_', '');
  const tsSide = Object.entries(ts)
    .map(([k, v]) => `${v}:${norm(k)}`)
    .sort();
  const nativeSide = [...nat]
    .map(([v, k]) => {
      const n = norm(k.slice(prefix.length));
      return `${v}:${aliases[n] ?? n}`;
    })
    .sort();
  assert.deepEqual(nativeSide, tsSide);
}

test('operator codes: Act, BinOp and EwOp are the same numbers and names on both sides', () => {
  assertSameCodes(ACT, nativeEnum('Act'), 'ACT_', { leaky: 'leakyrelu' });
  assertSameCodes(BINOP, nativeEnum('BinOp'), 'BIN_');
  assertSameCodes(EWOP, nativeEnum('EwOp'), 'EW_', { le: 'lessorequal', ge: 'greaterorequal' });
});

/** The codes a native function handles: its `case N:` or `name == N` tests; everything else takes its default. */
function handledCodes(fn: string, pattern: RegExp): number[] {
  const src = native('index-kernels.cu');
  const start = src.indexOf(fn);
  assert.ok(start >= 0, `${fn} not found in native/src/index-kernels.cu`);
  const body = src.slice(start, src.indexOf('\n}\n', start));
  return [...new Set([...body.matchAll(pattern)].map((m) => Number(m[1])))].sort();
}

test('resize codes: every non-default code of the plan is one the kernel tests for, and 0 is its default', () => {
  const expect = (codes: Readonly<Record<string, number>>): number[] =>
    Object.values(codes)
      .filter((v) => v !== 0)
      .sort();
  assert.deepEqual(handledCodes('float srcCoord(', /case (\d+):/g), expect(RESIZE_COORD));
  assert.deepEqual(handledCodes('int64_t nearestIdx(', /mode == (\d+)/g), expect(RESIZE_NEAREST));
});

// ---- plan keys ----------------------------------------------------------------------------------------------

const networkFile = join(root, 'src/plan/cuda-network.ts');
const program = ts.createProgram([networkFile], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022 });
const checker = program.getTypeChecker();
const networkSource = program.getSourceFile(networkFile) as ts.SourceFile;

function declaredType(name: string): ts.Type {
  for (const s of networkSource.statements) {
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name) return checker.getTypeAtLocation(s.name);
  }
  throw new Error(`${name} is not declared in src/plan/cuda-network.ts`);
}
/** The keys of a declared type (of every member, for a union). */
function tsKeys(name: string): string[] {
  const t = declaredType(name);
  const members = t.isUnion() ? t.types : [t];
  return [...new Set(members.flatMap((m) => checker.getPropertiesOfType(m).map((p) => p.name)))].sort();
}
/** Every CudaLayer by its `kind`, with its keys. */
function tsLayers(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const member of (declaredType('CudaLayer') as ts.UnionType).types) {
    const kind = checker.getTypeOfSymbol(checker.getPropertyOfType(member, 'kind') as ts.Symbol);
    assert.ok(kind.isStringLiteral(), 'every CudaLayer has a string-literal kind');
    out.set(
      kind.value,
      checker
        .getPropertiesOfType(member)
        .map((p) => p.name)
        .sort(),
    );
  }
  return out;
}

/** The keys `v` reads in a piece of C++: `v.i64("k")`, `v.f64(..)`, `v.s(..)`, `v.ints(..)`, `v.has(..)`, `v["k"]`. */
function keysRead(code: string, v: string): string[] {
  const re = new RegExp(`\\b${v}(?:\\.(?:i64|f64|s|ints|has)\\(|\\[)"(\\w+)"`, 'g');
  return [...new Set([...code.matchAll(re)].map((m) => m[1] as string))].sort();
}
/** The body of the constructor `explicit Name(const Json& j...)`. */
function constructorBody(name: string): string {
  const start = allNative.search(new RegExp(`explicit ${name}\\(const Json& j\\b`));
  assert.ok(start >= 0, `no JSON constructor for ${name} in native/src`);
  const open = allNative.indexOf('{', start);
  let depth = 0;
  for (let i = open; i < allNative.length; i++) {
    if (allNative[i] === '{') depth++;
    else if (allNative[i] === '}' && --depth === 0) return allNative.slice(open, i + 1);
  }
  throw new Error(`unbalanced constructor of ${name}`);
}
/** The layer factory's kinds and the class each makes (native/src/layer-factory.cu, index-layers.cuh). */
function nativeLayers(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of allNative.matchAll(/kind == "(\w+)"\)[^\n]*?new (\w+)\(/g)) {
    const cls = m[2] as string;
    // conv and gemm read their shapes through the spec they hold (ConvSpec, GemmSpec).
    const spec = new RegExp(`struct ${cls} : Layer \\{\\s*(\\w+Spec) \\w+;`).exec(allNative)?.[1];
    out.set(m[1] as string, keysRead(constructorBody(spec ?? cls), 'j'));
  }
  return out;
}

/** Keys the factory reads of every layer, and of the layers that carry a tuned tactic. */
const EVERY_LAYER = ['kind', 'name'];
const TUNED = ['fallback', 'tactic'];

test('plan keys of every layer kind: what the compiler writes is what the addon reads', () => {
  const factory = native('layer-factory.cu');
  assert.deepEqual(keysRead(factory, 'j'), [...EVERY_LAYER, ...TUNED].sort(), 'the factory reads other keys: update EVERY_LAYER / TUNED');
  const tsSide = tsLayers();
  const nativeSide = nativeLayers();
  assert.deepEqual([...nativeSide.keys()].sort(), [...tsSide.keys()].sort(), 'layer kinds');
  const problems: string[] = [];
  for (const [kind, written] of tsSide) {
    const read = new Set([...(nativeSide.get(kind) ?? []), ...EVERY_LAYER, ...(written.includes('tactic') ? TUNED : [])]);
    for (const k of written) if (!read.has(k)) problems.push(`${kind}.${k}: written by the compiler, never read by the addon`);
    for (const k of read) if (!written.includes(k)) problems.push(`${kind}.${k}: read by the addon, not in the plan type`);
  }
  assert.deepEqual(problems, []);
});

/** The body of an inline C++ function `name(const Json& j)`. */
function functionBody(signature: string): string {
  const start = allNative.indexOf(signature);
  assert.ok(start >= 0, `${signature} not found in native/src`);
  return allNative.slice(start, allNative.indexOf('\n}\n', start));
}

test('plan keys of the network, its programs, bindings, operands and activations: the same on both sides', () => {
  const engine = native('engine.cu');
  const sides: { name: string; written: string[]; read: string[]; tsOnly?: string[]; nativeOnly?: string[] }[] = [
    {
      name: 'CudaNetwork',
      written: tsKeys('CudaNetwork'),
      read: keysRead(engine, 'net'),
      // Read by the TypeScript loader (src/engine/cuda/payload.ts: format and version checks, the weights blob's
      // size, the batch list, the device the tactics were tuned on), not by the addon.
      tsOnly: ['batches', 'device', 'format', 'version', 'weightBytes'],
      // The addon's switch for its load-time memory check (default on; no plan writer sets it).
      nativeOnly: ['memoryCheck'],
    },
    // The addon reads datatype and rowShape nowhere: the TypeScript side converts and shapes the rows.
    { name: 'CudaIoBinding', written: tsKeys('CudaIoBinding'), read: keysRead(engine, 'io'), tsOnly: ['datatype', 'rowShape'] },
    { name: 'CudaProgram', written: tsKeys('CudaProgram'), read: keysRead(engine, 'pj') },
    { name: 'OperandRef', written: tsKeys('OperandRef'), read: keysRead(functionBody('inline Ref parseRef(const Json& j)'), 'j') },
    { name: 'ActSpec', written: tsKeys('ActSpec'), read: keysRead(functionBody('inline ActSpec parseAct(const Json& j)'), 'j') },
  ];
  for (const s of sides) {
    const expectRead = s.written.filter((k) => !(s.tsOnly ?? []).includes(k));
    assert.deepEqual(s.read, [...expectRead, ...(s.nativeOnly ?? [])].sort(), s.name);
  }
});
