import { DT } from '../../tensor/onnx-dtype.ts';
import { attrFloat, attrInt, makeNode, type Graph, type Node } from '../ir/graph.ts';
import { toFloat32, type ConstTensor } from '../ir/tensor.ts';
import { ChangeLog, type Pass } from './pass.ts';
import { constInput, renameOutput, soleConsumer } from './util.ts';

/** The per-channel vector of a bias constant, when it broadcasts along `channelAxis` of a rank-`rank` result. */
function channelVector(b: ConstTensor, rank: number, channelAxis: number, channels: number): Float32Array | undefined {
  if (b.elemType !== DT.FLOAT || b.dims.length > rank) return undefined;
  const v = toFloat32(b);
  if (v.length === 1) return new Float32Array(channels).fill(v[0] ?? 0);
  if (v.length !== channels) return undefined;
  // the single non-1 dim must sit at the channel axis once right-aligned (numpy broadcasting)
  const off = rank - b.dims.length;
  const at = b.dims.findIndex((d) => d !== 1);
  return at + off === channelAxis ? v : undefined;
}

/** The other operand of a two-input Add, if it is a constant. */
function addConstant(g: Graph, add: Node, value: string): ConstTensor | undefined {
  if (add.opType !== 'Add' || add.domain !== '' || add.inputs.length !== 2) return undefined;
  const other = add.inputs[0] === value ? 1 : 0;
  return constInput(g, add, other);
}

/**
 * Moves a constant Add that follows Conv or Gemm into that node's bias, and turns MatMul(X, W) + b with 2-D X
 * and constant W into one Gemm (what torch.nn.Linear exports at opset ≥ 9 becomes one kernel call).
 */
export const biasFusion: Pass = {
  name: 'bias-fusion',
  description: 'fuse a constant Add into the bias of Conv/Gemm; MatMul + Add into Gemm',
  run(g: Graph) {
    const log = new ChangeLog();
    const consumers = g.consumers();
    const dead = new Set<Node>();
    for (const n of [...g.nodes]) {
      if (n.domain !== '' || dead.has(n)) continue;
      const out = n.outputs[0] ?? '';
      const add = soleConsumer(g, consumers, out);
      if (add === undefined || dead.has(add)) continue;
      const b = addConstant(g, add, out);
      if (b === undefined) continue;
      const addOut = add.outputs[0] ?? '';
      if (n.opType === 'Conv') {
        const w = constInput(g, n, 1);
        const rank = g.typeOf(out)?.shape?.length;
        if (w === undefined || rank === undefined) continue;
        const m = w.dims[0] ?? 0;
        const vec = channelVector(b, rank, 1, m);
        const hasBias = n.inputs[2] !== undefined && n.inputs[2] !== '';
        const old = hasBias ? constInput(g, n, 2) : undefined;
        if (vec === undefined || (hasBias && old === undefined)) continue;
        const ov = old === undefined ? new Float32Array(m) : toFloat32(old);
        const nb = vec.map((v, i) => v + (ov[i] ?? 0));
        const name = g.addInitializer(`${n.name}_B_fused`, { elemType: DT.FLOAT, dims: [m], data: nb });
        if (n.inputs.length < 3) n.inputs.push(name);
        else n.inputs[2] = name;
        renameOutput(n, out, addOut);
        dead.add(add);
        log.add(`fused Add '${add.name}' into the bias of Conv '${n.name}'`);
      } else if (n.opType === 'Gemm') {
        const bw = constInput(g, n, 1);
        if (bw === undefined || bw.dims.length !== 2) continue;
        const cols = (attrInt(n, 'transB', 0) === 1 ? bw.dims[0] : bw.dims[1]) ?? 0;
        const vec = channelVector(b, 2, 1, cols);
        const hasC = n.inputs[2] !== undefined && n.inputs[2] !== '';
        const old = hasC ? constInput(g, n, 2) : undefined;
        if (vec === undefined || (hasC && (old === undefined || channelVector(old, 2, 1, cols) === undefined))) continue;
        const beta = attrFloat(n, 'beta', 1);
        const ov = old === undefined ? new Float32Array(cols) : (channelVector(old, 2, 1, cols) as Float32Array);
        const nc = vec.map((v, i) => v + beta * (ov[i] ?? 0));
        const name = g.addInitializer(`${n.name}_C_fused`, { elemType: DT.FLOAT, dims: [cols], data: nc });
        if (n.inputs.length < 3) n.inputs.push(name);
        else n.inputs[2] = name;
        n.attrs.set('beta', { kind: 'float', value: 1 });
        renameOutput(n, out, addOut);
        dead.add(add);
        log.add(`fused Add '${add.name}' into the bias of Gemm '${n.name}'`);
      } else if (n.opType === 'MatMul') {
        const w = constInput(g, n, 1);
        const xShape = g.typeOf(n.inputs[0] ?? '')?.shape;
        if (w === undefined || w.dims.length !== 2 || w.elemType !== DT.FLOAT || xShape == null || xShape.length !== 2) continue;
        const cols = w.dims[1] ?? 0;
        const vec = channelVector(b, 2, 1, cols);
        if (vec === undefined) continue;
        const c = g.addInitializer(`${n.name}_C`, { elemType: DT.FLOAT, dims: [cols], data: vec });
        const gemm = makeNode(g.freshName(`${n.name}_gemm`), 'Gemm', [n.inputs[0] ?? '', n.inputs[1] ?? '', c], [addOut]);
        g.nodes[g.nodes.indexOf(n)] = gemm;
        dead.add(add);
        log.add(`fused MatMul '${n.name}' + Add '${add.name}' into Gemm '${gemm.name}'`);
      }
    }
    if (dead.size > 0) g.nodes = g.nodes.filter((x) => !dead.has(x));
    return log.result();
  },
};
