import { DT, type ElemType } from '../../tensor/onnx-dtype.ts';
import { Graph, makeNode, saveModel, type AttrValue, type Dim } from './graph.ts';
import type { ConstTensor } from './tensor.ts';

/** Attribute constructors (ONNX distinguishes int and float attributes; JS numbers do not). */
export const attr = {
  int: (value: number): AttrValue => ({ kind: 'int', value }),
  float: (value: number): AttrValue => ({ kind: 'float', value }),
  ints: (value: readonly number[]): AttrValue => ({ kind: 'ints', value }),
  floats: (value: readonly number[]): AttrValue => ({ kind: 'floats', value }),
  string: (value: string): AttrValue => ({ kind: 'string', value }),
  tensor: (value: ConstTensor): AttrValue => ({ kind: 'tensor', value }),
};

/**
 * Builds small graphs in code: tests, benchmarks and the compiler's own helper models (calibration probes)
 * use it, so no fixture is ever downloaded (docs/architecture.md, Habits 4).
 */
export class GraphBuilder {
  readonly graph: Graph;
  private counter = 0;

  constructor(options: { opset?: number; irVersion?: number; name?: string; extraOpsets?: Record<string, number> } = {}) {
    this.graph = new Graph({
      irVersion: options.irVersion ?? 8,
      producerName: 'rtserve',
      producerVersion: '',
      domain: '',
      modelVersion: 0,
      docString: '',
      graphName: options.name ?? 'graph',
      metadataProps: [],
      functions: [],
    });
    this.graph.opsets.set('', options.opset ?? 17);
    for (const [d, v] of Object.entries(options.extraOpsets ?? {})) this.graph.opsets.set(d, v);
  }

  input(name: string, elemType: ElemType, shape: readonly Dim[]): this {
    this.graph.inputs.push({ name, type: { elemType, shape } });
    return this;
  }

  output(name: string, elemType: ElemType = DT.FLOAT, shape: readonly Dim[] | null = null): this {
    this.graph.outputs.push({ name, type: { elemType, shape } });
    return this;
  }

  init(name: string, t: ConstTensor): this {
    this.graph.initializers.set(name, t);
    return this;
  }

  node(opType: string, inputs: string[], outputs: string[], attrs: Record<string, AttrValue> = {}, domain = ''): this {
    this.graph.nodes.push(makeNode(`${opType}_${this.counter++}`, opType, inputs, outputs, attrs, domain));
    return this;
  }

  build(): Graph {
    this.graph.toposort();
    return this.graph;
  }

  bytes(): Uint8Array {
    return saveModel(this.build());
  }
}
