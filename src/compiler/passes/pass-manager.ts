import { performance } from 'node:perf_hooks';
import type { Graph } from '../ir/graph.ts';
import { inferShapes } from '../ir/shape-inference.ts';
import type { Pass, PassContext } from './pass.ts';

export interface PassReport {
  readonly name: string;
  readonly description: string;
  /** False when the pass did not apply to this target/precision. */
  readonly applied: boolean;
  readonly changed: number;
  /** Change lines, at most `maxChangeLines`, then a "... and N more" line. */
  readonly changes: readonly string[];
  readonly nodesBefore: number;
  readonly nodesAfter: number;
  readonly timeMs: number;
}

export interface PassManagerOptions {
  /** The whole pipeline repeats until a round changes nothing, at most this many rounds. */
  readonly maxRounds?: number;
  readonly maxChangeLines?: number;
}

/**
 * Runs passes in order, repeating the list until nothing changes (a folded BatchNormalization can expose a
 * bias to fuse, a simplified Shape subgraph leaves dead nodes, ...). Shape inference runs after every pass
 * that changed the graph so the next one sees fresh types; the node order is re-checked as well.
 */
export function runPasses(g: Graph, passes: readonly Pass[], ctx: PassContext, options: PassManagerOptions = {}): PassReport[] {
  const maxRounds = options.maxRounds ?? 4;
  const maxLines = options.maxChangeLines ?? 40;
  const acc = passes.map((p) => ({
    pass: p,
    applied: p.applies?.(ctx) ?? true,
    changed: 0,
    changes: [] as string[],
    nodesBefore: -1,
    nodesAfter: 0,
    timeMs: 0,
  }));
  inferShapes(g);
  for (let round = 0; round < maxRounds; round++) {
    let changedThisRound = 0;
    for (const a of acc) {
      if (a.nodesBefore < 0) a.nodesBefore = g.nodes.length;
      if (!a.applied) {
        a.nodesAfter = g.nodes.length;
        continue;
      }
      const t0 = performance.now();
      const r = a.pass.run(g, ctx);
      if (r.changed > 0) {
        g.invalidateNames();
        g.toposort();
        inferShapes(g);
      }
      a.timeMs += performance.now() - t0;
      a.changed += r.changed;
      a.changes.push(...r.changes);
      a.nodesAfter = g.nodes.length;
      changedThisRound += r.changed;
    }
    if (changedThisRound === 0) break;
  }
  return acc.map((a) => ({
    name: a.pass.name,
    description: a.pass.description,
    applied: a.applied,
    changed: a.changed,
    changes: a.changes.length > maxLines ? [...a.changes.slice(0, maxLines), `... and ${a.changes.length - maxLines} more`] : a.changes,
    nodesBefore: Math.max(a.nodesBefore, 0),
    nodesAfter: a.nodesAfter,
    timeMs: Math.round(a.timeMs * 100) / 100,
  }));
}
