import type { Graph, Node } from '../ir/graph.ts';
import type { ConstTensor } from '../ir/tensor.ts';

/** The initializer feeding input `i` of `n`, if that input is a constant. */
export function constInput(g: Graph, n: Node, i: number): ConstTensor | undefined {
  const name = n.inputs[i];
  return name === undefined || name === '' ? undefined : g.initializers.get(name);
}

/** The only consumer of `value`, when it has exactly one and is not a graph output. */
export function soleConsumer(g: Graph, consumers: Map<string, Node[]>, value: string): Node | undefined {
  if (g.isGraphOutput(value)) return undefined;
  const list = consumers.get(value);
  if (list === undefined || list.length !== 1) return undefined;
  const c = list[0];
  // consumed through a single input slot only (x + x would need both rewired)
  if (c === undefined || c.inputs.filter((x) => x === value).length !== 1) return undefined;
  return c;
}

/**
 * Every default-domain Conv or Gemm whose output feeds exactly one node, through that node's first input: the
 * pairs the fusion passes fold into one node (BatchNormalization into weights, an activation into the kernel).
 */
export function* convOrGemmWithSoleConsumer(g: Graph, consumers: Map<string, Node[]>): Generator<{ producer: Node; consumer: Node; out: string }> {
  for (const producer of g.nodes) {
    if (producer.domain !== '' || (producer.opType !== 'Conv' && producer.opType !== 'Gemm')) continue;
    const out = producer.outputs[0] ?? '';
    const consumer = soleConsumer(g, consumers, out);
    if (consumer !== undefined && consumer.inputs[0] === out) yield { producer, consumer, out };
  }
}

export function removeNodes(g: Graph, dead: ReadonlySet<Node>): void {
  if (dead.size > 0) g.nodes = g.nodes.filter((n) => !dead.has(n));
}

/**
 * Removes a single-input pass-through node `n` (output = input), keeping graph output names stable. Returns
 * false when it cannot (its output is a graph output and its input cannot be renamed).
 */
export function bypassNode(g: Graph, n: Node, input: string, output: string): boolean {
  if (!g.isGraphOutput(output)) {
    g.replaceUses(output, input);
    g.nodes = g.nodes.filter((x) => x !== n);
    return true;
  }
  // The output name is part of the model's interface: rename the producer of `input` instead.
  const producer = g.producers().get(input);
  if (producer === undefined || g.isGraphOutput(input) || g.isGraphInput(input)) return false;
  producer.outputs = producer.outputs.map((o) => (o === input ? output : o));
  g.nodes = g.nodes.filter((x) => x !== n);
  g.replaceUses(input, output);
  return true;
}

/** Makes `producer` write `newName` instead of `oldName` (the fused node takes over the consumer's output). */
export function renameOutput(producer: Node, oldName: string, newName: string): void {
  producer.outputs = producer.outputs.map((o) => (o === oldName ? newName : o));
}
