/**
 * Auto-complete of a model config from its ONNX graph, following Triton's ONNX Runtime backend (reference
 * §1.1; onnxruntime_backend README "Auto-Complete Model Configuration"):
 *  - max_batch_size: when the config does not set it and every input and output has a dynamic first dimension,
 *    the model can batch and gets `--default-max-batch-size` (4 unless configured); otherwise 0.
 *  - input / output: filled from the graph (name, TYPE_*, dims without the batch dimension) when the config
 *    lists none; when it lists some, each is checked against the graph.
 *  - dynamic_batching: switched on with defaults when max_batch_size > 1 and the config names no scheduler.
 */
import { rtError } from '../errors/registry.ts';
import { didYouMean } from '../config/hint.ts';
import { defaultDynamicBatching } from '../config/model-config.ts';
import type { ModelConfig, TensorConfig } from '../config/model-config.ts';
import { toConfigType } from '../tensor/datatype.ts';
import { dataTypeOfElemType, elemTypeName } from '../onnx/elem-type.ts';
import type { GraphIO, GraphTensor } from '../onnx/graph-io.ts';

export interface AutoCompleteOptions {
  /** Triton's `--default-max-batch-size`; 4 by default. */
  readonly defaultMaxBatchSize: number;
  /** Whether the config itself set max_batch_size (an explicit 0 turns batching off). */
  readonly maxBatchSizeSet: boolean;
  /** The config asked for a scheduler rtserve does not have (sequence_batching...): do not add dynamic batching. */
  readonly otherSchedulerRequested: boolean;
  /** False mirrors Triton's `--disable-auto-complete-config`: check only, fill nothing. */
  readonly fill: boolean;
  /** Where the config came from, for messages: `config.pbtxt`, `config.json`, `the load request`. */
  readonly configSource: string;
  /** Where the graph came from, for messages: `1/model.onnx`. */
  readonly graphSource: string;
}

export interface AutoCompleteResult {
  readonly config: ModelConfig;
  /** What was filled in, one line each (for the load log). */
  readonly filled: readonly string[];
}

type Kind = 'input' | 'output';

function shape(dims: readonly number[]): string {
  return `[${dims.join(', ')}]`;
}

function configTypeOf(t: GraphTensor, kind: Kind, model: string, graphSource: string): string {
  const dt = dataTypeOfElemType(t.elemType);
  if (dt === undefined) {
    const what = t.elemType === 0 ? 'is not a tensor (a sequence, map or optional value)' : `has element type ${elemTypeName(t.elemType)}`;
    throw rtError('BAD_CONFIG', `model '${model}': ${kind} '${t.name}' of ${graphSource} ${what}, which rtserve cannot serve`);
  }
  return toConfigType(dt);
}

/** Whether every input and output has a known rank >= 1 with a dynamic first dimension. */
function firstOffender(graph: GraphIO): { kind: Kind; tensor: GraphTensor } | undefined {
  for (const [kind, list] of [
    ['input', graph.inputs],
    ['output', graph.outputs],
  ] as const) {
    for (const t of list) if (!t.rankKnown || t.dims.length === 0 || t.dims[0] !== -1) return { kind, tensor: t };
  }
  return undefined;
}

/**
 * Whether a config that lists tensors but no max_batch_size describes them without a batch dimension (their
 * rank is one less than the graph's): then it means to batch. Listing full-rank dims means it does not.
 */
function listedDimsImplyBatching(config: ModelConfig, graph: GraphIO): boolean {
  let withBatch = 0;
  let withoutBatch = 0;
  const check = (list: readonly TensorConfig[], graphList: readonly GraphTensor[]): void => {
    for (const c of list) {
      const g = graphList.find((t) => t.name === c.name);
      if (g === undefined || !g.rankKnown) continue;
      const rank = (c.reshape?.shape ?? c.dims).length;
      if (rank === g.dims.length) withBatch++;
      else if (rank === g.dims.length - 1) withoutBatch++;
    }
  };
  check(config.input, graph.inputs);
  check(config.output, graph.outputs);
  return withoutBatch > 0 || withBatch === 0;
}

function checkListed(
  kind: Kind,
  listed: readonly TensorConfig[],
  graphList: readonly GraphTensor[],
  maxBatchSize: number,
  model: string,
  options: AutoCompleteOptions,
): void {
  const batchDims = maxBatchSize > 0 ? 1 : 0;
  const seen = new Set<string>();
  for (const c of listed) {
    if (seen.has(c.name)) throw rtError('BAD_CONFIG', `model '${model}': ${options.configSource} lists ${kind} '${c.name}' twice`);
    seen.add(c.name);
    const g = graphList.find((t) => t.name === c.name);
    if (g === undefined) {
      const names = graphList.map((t) => t.name);
      throw rtError(
        'BAD_CONFIG',
        `model '${model}': ${kind} '${c.name}' in ${options.configSource} is not an ${kind} of ${options.graphSource}` +
          `${didYouMean(c.name, names)}; the model's ${kind}s are ${names.map((n) => `'${n}'`).join(', ') || 'none'}`,
      );
    }
    const expectedType = configTypeOf(g, kind, model, options.graphSource);
    if (c.data_type !== expectedType) {
      throw rtError(
        'BAD_CONFIG',
        `model '${model}': ${kind} '${c.name}' has data_type ${c.data_type} in ${options.configSource} ` +
          `but ${options.graphSource} has ${expectedType}`,
      );
    }
    if (!g.rankKnown) continue;
    const modelDims = g.dims.slice(batchDims);
    const configDims = c.reshape?.shape ?? c.dims;
    const field = c.reshape === undefined ? 'dims' : 'reshape.shape';
    const compatible = configDims.length === modelDims.length && configDims.every((d, i) => modelDims[i] === -1 || modelDims[i] === d);
    if (!compatible) {
      const note = batchDims > 0 ? ` (without the batch dimension, since max_batch_size is ${maxBatchSize})` : '';
      throw rtError(
        'BAD_CONFIG',
        `model '${model}': ${kind} '${c.name}' has ${field} ${shape(configDims)} in ${options.configSource} ` +
          `but ${options.graphSource} has ${shape(modelDims)}${note}; -1 in the model accepts any size, a fixed size must match`,
      );
    }
  }
}

function fromGraph(t: GraphTensor, kind: Kind, batchDims: number, model: string, options: AutoCompleteOptions): TensorConfig {
  if (!t.rankKnown) {
    throw rtError(
      'BAD_CONFIG',
      `model '${model}': ${options.graphSource} gives ${kind} '${t.name}' no shape, so it cannot be auto-completed; ` +
        `list it with its dims in the config`,
    );
  }
  return { name: t.name, data_type: configTypeOf(t, kind, model, options.graphSource) as TensorConfig['data_type'], dims: t.dims.slice(batchDims) };
}

/** Completes `config` from `graph` and checks what the config states against it; throws BAD_CONFIG on mismatch. */
export function autoCompleteConfig(config: ModelConfig, graph: GraphIO, options: AutoCompleteOptions): AutoCompleteResult {
  const model = config.name;
  const filled: string[] = [];
  const offender = firstOffender(graph);
  const canBatch = graph.inputs.length > 0 && offender === undefined;

  let maxBatchSize = config.max_batch_size;
  if (!options.maxBatchSizeSet && options.fill) {
    const listsTensors = config.input.length > 0 || config.output.length > 0;
    if (canBatch && options.defaultMaxBatchSize > 0 && (!listsTensors || listedDimsImplyBatching(config, graph))) {
      maxBatchSize = options.defaultMaxBatchSize;
      filled.push(`max_batch_size ${maxBatchSize} (every input and output has a dynamic first dimension)`);
    }
  }
  if (maxBatchSize > 0 && !canBatch) {
    const why =
      offender === undefined
        ? 'the model has no inputs'
        : `${offender.kind} '${offender.tensor.name}' has shape ${offender.tensor.rankKnown ? shape(offender.tensor.dims) : '(unknown)'}`;
    throw rtError(
      'BAD_CONFIG',
      `model '${model}': max_batch_size ${maxBatchSize} needs every input and output of ${options.graphSource} to have ` +
        `a dynamic first (batch) dimension, but ${why}; set max_batch_size: 0`,
    );
  }
  const batchDims = maxBatchSize > 0 ? 1 : 0;

  let input = config.input;
  if (input.length === 0) {
    if (!options.fill && graph.inputs.length > 0) {
      throw rtError('BAD_CONFIG', `model '${model}': ${options.configSource} lists no inputs and auto-complete is disabled`);
    }
    input = graph.inputs.map((t) => fromGraph(t, 'input', batchDims, model, options));
    if (input.length > 0) filled.push(`input from ${options.graphSource}: ${input.map((t) => t.name).join(', ')}`);
  } else {
    checkListed('input', input, graph.inputs, maxBatchSize, model, options);
    const missing = graph.inputs.filter((g) => !input.some((c) => c.name === g.name));
    if (missing.length > 0) {
      throw rtError(
        'BAD_CONFIG',
        `model '${model}': ${options.graphSource} has input${missing.length > 1 ? 's' : ''} ` +
          `${missing.map((t) => `'${t.name}'`).join(', ')} that ${options.configSource} does not list; ` +
          `list every input, or none to fill them from the model`,
      );
    }
  }

  let output = config.output;
  if (output.length === 0) {
    if (!options.fill) {
      throw rtError('BAD_CONFIG', `model '${model}': ${options.configSource} lists no outputs and auto-complete is disabled`);
    }
    output = graph.outputs.map((t) => fromGraph(t, 'output', batchDims, model, options));
    filled.push(`output from ${options.graphSource}: ${output.map((t) => t.name).join(', ')}`);
  } else {
    // A config may list a subset of the outputs (Triton allows it); each listed one must exist and match.
    checkListed('output', output, graph.outputs, maxBatchSize, model, options);
  }

  let dynamicBatching = config.dynamic_batching;
  if (options.fill && maxBatchSize > 1 && dynamicBatching === undefined && !options.otherSchedulerRequested) {
    dynamicBatching = defaultDynamicBatching();
    filled.push('dynamic_batching with defaults (max_batch_size > 1 and no scheduler configured)');
  }

  const completed: ModelConfig = { ...config, max_batch_size: maxBatchSize, input, output };
  if (dynamicBatching !== undefined) completed.dynamic_batching = dynamicBatching;
  return { config: completed, filled };
}
