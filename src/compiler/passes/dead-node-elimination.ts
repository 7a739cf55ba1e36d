import { subgraphReferences, type Graph, type Node } from '../ir/graph.ts';
import { ChangeLog, type Pass } from './pass.ts';

/** Removes nodes none of whose outputs reach a graph output, then initializers nothing reads. */
export const deadNodeElimination: Pass = {
  name: 'dead-node-elimination',
  description: 'remove nodes whose results are never used, and unused initializers',
  run(g: Graph) {
    const log = new ChangeLog();
    const live = new Set<string>(g.outputs.map((o) => o.name));
    const keep: Node[] = [];
    for (let i = g.nodes.length - 1; i >= 0; i--) {
      const n = g.nodes[i] as Node;
      if (n.outputs.some((o) => o !== '' && live.has(o))) {
        keep.push(n);
        for (const x of n.inputs) if (x !== '') live.add(x);
        for (const r of subgraphReferences(n)) live.add(r);
      } else {
        log.add(`removed unused ${n.opType} '${n.name}'`);
      }
    }
    keep.reverse();
    // Sub-graph bodies may read outer values: count them as used.
    const consumersAfter = new Set<string>(live);
    g.nodes = keep;
    for (const [k] of g.consumers()) consumersAfter.add(k);
    let removedInits = 0;
    for (const name of [...g.initializers.keys()]) {
      if (!consumersAfter.has(name)) {
        g.initializers.delete(name);
        removedInits++;
      }
    }
    if (removedInits > 0) log.add(`removed ${removedInits} unused initializer(s)`);
    return log.result();
  },
};
