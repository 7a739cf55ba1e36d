import { rtError } from '../../errors/registry.ts';
import {
  onnx,
  type IAttributeProto,
  type IFunctionProto,
  type IGraphProto,
  type ITensorTypeProto,
  type IValueInfoProto,
  type ModelProto,
} from '../../onnx/proto.ts';
import type { ElemType } from '../../tensor/onnx-dtype.ts';
import { toInt64Field, toNumber } from './long.ts';
import { tensorFromProto, tensorToProto, type ConstTensor } from './tensor.ts';

const AT = onnx.AttributeProto.AttributeType;

/** A static size, a symbolic name (dim_param) or unknown. */
export type Dim = number | string | null;

export interface ValueType {
  readonly elemType: ElemType;
  /** null: the rank is unknown. */
  readonly shape: readonly Dim[] | null;
}

export interface ValueInfo {
  readonly name: string;
  type: ValueType;
}

export type AttrValue =
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'tensor'; readonly value: ConstTensor }
  | { readonly kind: 'floats'; readonly value: readonly number[] }
  | { readonly kind: 'ints'; readonly value: readonly number[] }
  | { readonly kind: 'strings'; readonly value: readonly string[] }
  /** Sub-graphs, sparse tensors, type protos: kept verbatim, never rewritten by a pass. */
  | { readonly kind: 'other'; readonly proto: IAttributeProto };

export interface Node {
  name: string;
  opType: string;
  /** '' for the default ONNX domain ('ai.onnx' is normalized to ''). */
  domain: string;
  /** '' marks an omitted optional input. */
  inputs: string[];
  outputs: string[];
  attrs: Map<string, AttrValue>;
  docString?: string;
}

export interface ModelMeta {
  irVersion: number;
  producerName: string;
  producerVersion: string;
  domain: string;
  modelVersion: number;
  docString: string;
  graphName: string;
  metadataProps: { key: string; value: string }[];
  /** Model-local functions (IR 8) are carried through unchanged. */
  functions: IFunctionProto[];
}

/**
 * The compiler's graph IR: a mutable, topologically ordered node list over named values, with initializers held
 * as typed arrays. Passes never mutate a ConstTensor in place (the fp32 reference graph shares them).
 */
export class Graph {
  nodes: Node[] = [];
  inputs: ValueInfo[] = [];
  outputs: ValueInfo[] = [];
  initializers = new Map<string, ConstTensor>();
  /** Types of intermediate values: from the model's value_info, then from shape inference. */
  valueTypes = new Map<string, ValueType>();
  /** The model's own value_info; `inferShapes` starts from these. Passes that change a value's type drop it. */
  declaredTypes = new Map<string, ValueType>();
  opsets = new Map<string, number>();
  meta: ModelMeta;
  private nameCounter = 0;
  private usedNames: Set<string> | undefined;

  constructor(meta: ModelMeta) {
    this.meta = meta;
  }

  /** The default-domain opset version. */
  get opset(): number {
    return this.opsets.get('') ?? 0;
  }

  clone(): Graph {
    const g = new Graph({ ...this.meta, metadataProps: [...this.meta.metadataProps], functions: [...this.meta.functions] });
    g.nodes = this.nodes.map((n) => ({ ...n, inputs: [...n.inputs], outputs: [...n.outputs], attrs: new Map(n.attrs) }));
    g.inputs = this.inputs.map((v) => ({ ...v }));
    g.outputs = this.outputs.map((v) => ({ ...v }));
    g.initializers = new Map(this.initializers);
    g.valueTypes = new Map(this.valueTypes);
    g.declaredTypes = new Map(this.declaredTypes);
    g.opsets = new Map(this.opsets);
    return g;
  }

  /** The type of a value: graph input/output, initializer or inferred intermediate. */
  typeOf(name: string): ValueType | undefined {
    const init = this.initializers.get(name);
    if (init !== undefined) return { elemType: init.elemType, shape: [...init.dims] };
    return this.valueTypes.get(name) ?? this.inputs.find((v) => v.name === name)?.type ?? this.outputs.find((v) => v.name === name)?.type;
  }

  isGraphOutput(name: string): boolean {
    return this.outputs.some((o) => o.name === name);
  }

  isGraphInput(name: string): boolean {
    return this.inputs.some((i) => i.name === name);
  }

  /** Map value name → the node producing it. */
  producers(): Map<string, Node> {
    const m = new Map<string, Node>();
    for (const n of this.nodes) for (const o of n.outputs) if (o !== '') m.set(o, n);
    return m;
  }

  /** Map value name → nodes consuming it (a node consuming it twice appears once). Includes sub-graph uses. */
  consumers(): Map<string, Node[]> {
    const m = new Map<string, Node[]>();
    for (const n of this.nodes) {
      const names = new Set(n.inputs.filter((i) => i !== ''));
      for (const ref of subgraphReferences(n)) names.add(ref);
      for (const i of names) {
        const list = m.get(i);
        if (list === undefined) m.set(i, [n]);
        else list.push(n);
      }
    }
    return m;
  }

  /** A value or node name not used anywhere yet, derived from `base`. */
  freshName(base: string): string {
    if (this.usedNames === undefined) {
      this.usedNames = new Set<string>();
      for (const n of this.nodes) {
        this.usedNames.add(n.name);
        for (const x of [...n.inputs, ...n.outputs]) this.usedNames.add(x);
      }
      for (const k of this.initializers.keys()) this.usedNames.add(k);
      for (const v of [...this.inputs, ...this.outputs]) this.usedNames.add(v.name);
    }
    let name = base;
    while (this.usedNames.has(name)) name = `${base}_${++this.nameCounter}`;
    this.usedNames.add(name);
    return name;
  }

  /** Adds an initializer under a fresh name derived from `base`; returns the name. */
  addInitializer(base: string, t: ConstTensor): string {
    const name = this.freshName(base);
    this.initializers.set(name, t);
    return name;
  }

  /** Replaces every use of `from` (node inputs, graph outputs are NOT renamed) by `to`. */
  replaceUses(from: string, to: string): void {
    for (const n of this.nodes) {
      for (let i = 0; i < n.inputs.length; i++) if (n.inputs[i] === from) n.inputs[i] = to;
    }
  }

  /** Orders nodes so every value is produced before it is used; throws on a cycle or an undefined input. */
  toposort(): void {
    const available = new Set<string>(['', ...this.initializers.keys(), ...this.inputs.map((i) => i.name)]);
    const pending = [...this.nodes];
    const ordered: Node[] = [];
    const producers = this.producers();
    // Kahn's algorithm, stable with respect to the original order.
    const waiting = new Map<string, Node[]>();
    const missing = new Map<Node, number>();
    const ready: Node[] = [];
    for (const n of pending) {
      const deps = new Set([...n.inputs, ...subgraphReferences(n)].filter((x) => !available.has(x)));
      for (const d of deps) {
        if (!producers.has(d)) {
          // Sub-graph references may name outer values of *enclosing* graphs; only real inputs must exist here.
          if (n.inputs.includes(d)) {
            throw rtError('BAD_CONFIG', `node '${n.name}' (${n.opType}) reads '${d}', which no node, input or initializer defines`);
          }
          continue;
        }
        const list = waiting.get(d);
        if (list === undefined) waiting.set(d, [n]);
        else list.push(n);
        missing.set(n, (missing.get(n) ?? 0) + 1);
      }
      if ((missing.get(n) ?? 0) === 0) ready.push(n);
    }
    const order = new Map(pending.map((n, i) => [n, i]));
    while (ready.length > 0) {
      ready.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
      const n = ready.shift() as Node;
      ordered.push(n);
      for (const o of n.outputs) {
        for (const w of waiting.get(o) ?? []) {
          const left = (missing.get(w) ?? 0) - 1;
          missing.set(w, left);
          if (left === 0) ready.push(w);
        }
        waiting.delete(o);
      }
    }
    if (ordered.length !== pending.length) {
      const stuck = pending
        .filter((n) => !ordered.includes(n))
        .slice(0, 3)
        .map((n) => `'${n.name}'`);
      throw rtError('BAD_CONFIG', `the graph has a cycle through nodes ${stuck.join(', ')}`);
    }
    this.nodes = ordered;
  }

  /** Call after adding or renaming values so that freshName sees them. */
  invalidateNames(): void {
    this.usedNames = undefined;
  }
}

/** Names a node's sub-graphs (If/Loop/Scan bodies) read from the enclosing scope, conservatively. */
export function subgraphReferences(n: Node): string[] {
  const refs: string[] = [];
  for (const a of n.attrs.values()) {
    if (a.kind !== 'other') continue;
    const graphs: IGraphProto[] = [];
    if (a.proto.g != null) graphs.push(a.proto.g);
    for (const g of a.proto.graphs ?? []) graphs.push(g);
    for (const g of graphs) collectGraphRefs(g, refs);
  }
  return refs;
}

function collectGraphRefs(g: IGraphProto, out: string[]): void {
  const local = new Set<string>([...(g.input ?? []).map((v) => v.name ?? ''), ...(g.initializer ?? []).map((t) => t.name ?? '')]);
  for (const n of g.node ?? []) for (const o of n.output ?? []) local.add(o);
  for (const n of g.node ?? []) {
    for (const i of n.input ?? []) if (i !== '' && !local.has(i)) out.push(i);
    for (const a of n.attribute ?? []) {
      if (a.g != null) collectGraphRefs(a.g, out);
      for (const sg of a.graphs ?? []) collectGraphRefs(sg, out);
    }
  }
  for (const o of g.output ?? []) if (o.name != null && !local.has(o.name)) out.push(o.name);
}

export function hasSubgraph(n: Node): boolean {
  for (const a of n.attrs.values()) if (a.kind === 'other' && (a.proto.g != null || (a.proto.graphs?.length ?? 0) > 0)) return true;
  return false;
}

// ---- attribute helpers ----------------------------------------------------------------------------------

export function attrInt(n: Node, name: string, dflt: number): number {
  const a = n.attrs.get(name);
  return a?.kind === 'int' ? a.value : dflt;
}

export function attrFloat(n: Node, name: string, dflt: number): number {
  const a = n.attrs.get(name);
  return a?.kind === 'float' ? a.value : a?.kind === 'int' ? a.value : dflt;
}

export function attrInts(n: Node, name: string): readonly number[] | undefined {
  const a = n.attrs.get(name);
  return a?.kind === 'ints' ? a.value : undefined;
}

export function attrString(n: Node, name: string, dflt: string): string {
  const a = n.attrs.get(name);
  return a?.kind === 'string' ? a.value : dflt;
}

export function attrTensor(n: Node, name: string): ConstTensor | undefined {
  const a = n.attrs.get(name);
  return a?.kind === 'tensor' ? a.value : undefined;
}

// ---- protobuf <-> IR -------------------------------------------------------------------------------------

const utf8 = new TextDecoder();
const utf8enc = new TextEncoder();

function attrFromProto(a: IAttributeProto, baseDir: string | undefined): AttrValue {
  switch (a.type) {
    case AT.FLOAT:
      return { kind: 'float', value: a.f ?? 0 };
    case AT.INT:
      return { kind: 'int', value: toNumber(a.i) };
    case AT.STRING:
      return { kind: 'string', value: utf8.decode(a.s ?? new Uint8Array()) };
    case AT.TENSOR:
      return a.t != null ? { kind: 'tensor', value: tensorFromProto(a.t, baseDir) } : { kind: 'other', proto: a };
    case AT.FLOATS:
      return { kind: 'floats', value: [...(a.floats ?? [])] };
    case AT.INTS:
      return { kind: 'ints', value: (a.ints ?? []).map(toNumber) };
    case AT.STRINGS:
      return { kind: 'strings', value: (a.strings ?? []).map((s) => utf8.decode(s)) };
    default:
      return { kind: 'other', proto: a };
  }
}

function attrToProto(name: string, v: AttrValue): IAttributeProto {
  switch (v.kind) {
    case 'float':
      return { name, type: AT.FLOAT, f: v.value };
    case 'int':
      return { name, type: AT.INT, i: toInt64Field(v.value) };
    case 'string':
      return { name, type: AT.STRING, s: utf8enc.encode(v.value) };
    case 'tensor':
      return { name, type: AT.TENSOR, t: tensorToProto('', v.value) };
    case 'floats':
      return { name, type: AT.FLOATS, floats: [...v.value] };
    case 'ints':
      return { name, type: AT.INTS, ints: v.value.map(toInt64Field) };
    case 'strings':
      return { name, type: AT.STRINGS, strings: v.value.map((s) => utf8enc.encode(s)) };
    case 'other':
      return { ...v.proto, name };
  }
}

function typeFromProto(v: IValueInfoProto): ValueType | undefined {
  const tt = v.type?.tensorType;
  if (tt == null) return undefined;
  const shape =
    tt.shape == null
      ? null
      : (tt.shape.dim ?? []).map((d): Dim => {
          if (d.dimParam != null && d.dimParam !== '') return d.dimParam;
          if (d.dimValue != null) return toNumber(d.dimValue);
          return null;
        });
  return { elemType: tt.elemType ?? 0, shape };
}

function typeToProto(name: string, t: ValueType): IValueInfoProto {
  const tensorType: ITensorTypeProto = { elemType: t.elemType };
  if (t.shape !== null) {
    tensorType.shape = { dim: t.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : typeof d === 'string' ? { dimParam: d } : {})) };
  }
  return { name, type: { tensorType } };
}

export interface LoadOptions {
  /** Directory for external tensor data. */
  readonly baseDir?: string;
  /** For error messages. */
  readonly fileName?: string;
}

/** Decodes an ONNX ModelProto into the IR. Malformed bytes are BAD_CONFIG. */
export function loadModel(bytes: Uint8Array, options: LoadOptions = {}): Graph {
  const what = options.fileName ?? 'the model';
  let m: ModelProto;
  try {
    m = onnx.ModelProto.decode(bytes);
  } catch (err) {
    throw rtError('BAD_CONFIG', `${what} is not a valid ONNX model (protobuf decoding failed: ${err instanceof Error ? err.message : String(err)})`);
  }
  if (m.graph == null) throw rtError('BAD_CONFIG', `${what} is not a valid ONNX model: it has no graph`);
  const gp = m.graph;
  const g = new Graph({
    irVersion: toNumber(m.irVersion),
    producerName: m.producerName ?? '',
    producerVersion: m.producerVersion ?? '',
    domain: m.domain ?? '',
    modelVersion: toNumber(m.modelVersion),
    docString: m.docString ?? '',
    graphName: gp.name ?? 'graph',
    metadataProps: (m.metadataProps ?? []).map((p) => ({ key: p.key ?? '', value: p.value ?? '' })),
    functions: [...(m.functions ?? [])],
  });
  for (const o of m.opsetImport ?? []) {
    const d = o.domain === 'ai.onnx' ? '' : (o.domain ?? '');
    g.opsets.set(d, toNumber(o.version));
  }
  if (!g.opsets.has('')) throw rtError('BAD_CONFIG', `${what} does not import the default ONNX opset`);
  for (const t of gp.initializer ?? []) g.initializers.set(t.name ?? '', tensorFromProto(t, options.baseDir));
  if ((gp.sparseInitializer ?? []).length > 0) {
    throw rtError('UNSUPPORTED', `${what} has sparse initializers, which the compiler does not support`);
  }
  for (const v of gp.input ?? []) {
    const name = v.name ?? '';
    // IR < 4 lists initializers among the inputs; an input with an initializer is a constant here.
    if (g.initializers.has(name)) continue;
    const type = typeFromProto(v);
    if (type === undefined) throw rtError('UNSUPPORTED', `${what}: input '${name}' is not a tensor (sequences and maps are not supported)`);
    g.inputs.push({ name, type });
  }
  for (const v of gp.output ?? []) {
    const name = v.name ?? '';
    const type = typeFromProto(v);
    if (type === undefined) throw rtError('UNSUPPORTED', `${what}: output '${name}' is not a tensor (sequences and maps are not supported)`);
    g.outputs.push({ name, type });
  }
  for (const v of gp.valueInfo ?? []) {
    const type = typeFromProto(v);
    if (type !== undefined && v.name != null) g.declaredTypes.set(v.name, type);
  }
  const seen = new Set<string>();
  (gp.node ?? []).forEach((np, i) => {
    const opType = np.opType ?? '';
    let name = np.name != null && np.name !== '' ? np.name : `${opType}_${i}`;
    while (seen.has(name)) name = `${name}_${i}`;
    seen.add(name);
    const attrs = new Map<string, AttrValue>();
    for (const a of np.attribute ?? []) attrs.set(a.name ?? '', attrFromProto(a, options.baseDir));
    const node: Node = {
      name,
      opType,
      domain: np.domain === 'ai.onnx' ? '' : (np.domain ?? ''),
      inputs: [...(np.input ?? [])],
      outputs: [...(np.output ?? [])],
      attrs,
    };
    if (np.docString != null && np.docString !== '') node.docString = np.docString;
    g.nodes.push(node);
  });
  g.toposort();
  return g;
}

export interface SaveOptions {
  /** Write inferred intermediate types as value_info (off by default: onnxruntime infers its own). */
  readonly writeValueInfo?: boolean;
}

/** Encodes the IR as an ONNX ModelProto. */
export function saveModel(g: Graph, options: SaveOptions = {}): Uint8Array {
  const graph: IGraphProto = {
    name: g.meta.graphName,
    node: g.nodes.map((n) => ({
      name: n.name,
      opType: n.opType,
      domain: n.domain,
      input: [...n.inputs],
      output: [...n.outputs],
      attribute: [...n.attrs.entries()].map(([k, v]) => attrToProto(k, v)),
      ...(n.docString !== undefined ? { docString: n.docString } : {}),
    })),
    initializer: [...g.initializers.entries()].map(([k, t]) => tensorToProto(k, t)),
    input: g.inputs.map((v) => typeToProto(v.name, v.type)),
    output: g.outputs.map((v) => typeToProto(v.name, v.type)),
    valueInfo: options.writeValueInfo === true ? [...g.valueTypes.entries()].map(([k, t]) => typeToProto(k, t)) : [],
  };
  const model = onnx.ModelProto.create({
    irVersion: g.meta.irVersion,
    producerName: g.meta.producerName,
    producerVersion: g.meta.producerVersion,
    domain: g.meta.domain,
    modelVersion: g.meta.modelVersion,
    docString: g.meta.docString,
    opsetImport: [...g.opsets.entries()].map(([domain, version]) => ({ domain, version })),
    metadataProps: g.meta.metadataProps,
    functions: g.meta.functions,
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Creates a node object (helper for passes). */
export function makeNode(
  name: string,
  opType: string,
  inputs: string[],
  outputs: string[],
  attrs: Record<string, AttrValue> = {},
  domain = '',
): Node {
  return { name, opType, domain, inputs, outputs, attrs: new Map(Object.entries(attrs)) };
}
