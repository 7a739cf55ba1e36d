import { evaluate } from '../eval/kernels.ts';
import { hasSubgraph, type Graph, type Node } from '../ir/graph.ts';
import { QUANTIZATION_MARKERS, RANDOM_GENERATORS } from '../ir/op-classes.ts';
import { tensorBytes, type ConstTensor } from '../ir/tensor.ts';
import { ChangeLog, type Pass } from './pass.ts';

/** Folding must not turn a small graph into a big file (Expand/Tile/ConstantOfShape can blow up). */
const MAX_GROWTH_BYTES = 1 << 20;

/**
 * Nodes never folded: quantization markers (folding a weight's DequantizeLinear would undo INT8) and
 * non-deterministic generators.
 */
const NEVER_FOLD = new Set([...QUANTIZATION_MARKERS, ...RANDOM_GENERATORS]);

/**
 * Evaluates every node whose inputs are all constants and replaces it by initializers; Constant nodes become
 * initializers too. Uses the compiler's reference kernels (eval/kernels.ts); operators they do not cover stay.
 */
export const constantFolding: Pass = {
  name: 'constant-folding',
  description: 'evaluate nodes whose inputs are all constants; turn Constant nodes into initializers',
  run(g: Graph) {
    const log = new ChangeLog();
    const dead = new Set<Node>();
    for (const n of g.nodes) {
      if (NEVER_FOLD.has(n.opType) || hasSubgraph(n)) continue;
      if (n.outputs.some((o) => g.isGraphOutput(o))) continue;
      const inputs: (ConstTensor | undefined)[] = [];
      let allConst = true;
      for (const x of n.inputs) {
        if (x === '') {
          inputs.push(undefined);
          continue;
        }
        const t = g.initializers.get(x);
        if (t === undefined) {
          allConst = false;
          break;
        }
        inputs.push(t);
      }
      if (!allConst) continue;
      let result: ConstTensor[] | undefined;
      try {
        result = evaluate(g, n, inputs);
      } catch {
        result = undefined; // a kernel that cannot handle this case: leave the node to the runtime
      }
      if (result === undefined || result.length < n.outputs.filter((o) => o !== '').length) continue;
      const inBytes = inputs.reduce((s, t) => s + (t === undefined ? 0 : tensorBytes(t)), 0);
      const outBytes = result.reduce((s, t) => s + tensorBytes(t), 0);
      if (outBytes > MAX_GROWTH_BYTES && outBytes > inBytes) continue;
      n.outputs.forEach((o, i) => {
        const t = result?.[i];
        if (o !== '' && t !== undefined) g.initializers.set(o, t);
      });
      dead.add(n);
      log.add(n.opType === 'Constant' ? `Constant '${n.name}' became an initializer` : `folded ${n.opType} '${n.name}'`);
    }
    if (dead.size > 0) g.nodes = g.nodes.filter((n) => !dead.has(n));
    return log.result();
  },
};
