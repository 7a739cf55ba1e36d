import type { PlanPrecision, PlanTarget } from '../../plan/manifest.ts';
import type { Graph } from '../ir/graph.ts';

export interface PassContext {
  readonly target: PlanTarget;
  readonly precision: PlanPrecision;
}

/** What one run of a pass did: a count and one human-readable line per change. */
export interface PassResult {
  readonly changed: number;
  readonly changes: readonly string[];
}

/** A graph-to-graph rewrite. A pass must keep the graph's outputs numerically equivalent (up to float rounding). */
export interface Pass {
  readonly name: string;
  readonly description: string;
  /** False when the pass does not apply to this target/precision (the manager then reports it as skipped). */
  applies?(ctx: PassContext): boolean;
  run(g: Graph, ctx: PassContext): PassResult;
}

/** Collects change lines for a PassResult. */
export class ChangeLog {
  private readonly lines: string[] = [];
  add(line: string): void {
    this.lines.push(line);
  }
  get count(): number {
    return this.lines.length;
  }
  result(): PassResult {
    return { changed: this.lines.length, changes: this.lines };
  }
}
