/**
 * Puts generative models behind the InferenceApi every front end already speaks, so that REST /infer, SSE
 * generate / generate_stream, WebSocket `infer` (with `stream: true`) and gRPC ModelInfer / ModelStreamInfer all
 * serve them from the one event source (the generation's numbered events):
 *
 * - `modelMetadata` of a generative model shows the text interface, in the spelling of Triton's TensorRT-LLM
 *   `ensemble` model: input `text_input` (BYTES), optional scalar inputs `max_tokens`, `temperature`, `top_k`,
 *   `top_p`, `repetition_penalty`, `seed` and `stop` (BYTES, any count), output `text_output` (BYTES). The same
 *   controls may be given as request parameters instead (Triton's generate extension puts them there).
 * - `infer` with a `text_input` runs the generation to the end and answers the whole text once.
 * - `inferStream` answers one response per released piece of text, then a final one; every response carries
 *   the parameter `triton_final_response` (false, then true on the last), as Triton's decoupled models do over
 *   ModelStreamInfer, and the last also `finish_reason`, `prompt_tokens` and `completion_tokens`. Ordinary models
 *   stream as their one `infer` response (the InferenceApi.inferStream contract).
 * - A request to a generative model without `text_input` (its raw `input_ids` / cache tensors) goes to the model
 *   itself: one step, as any ONNX model.
 */
import type { ModelMetadata } from '../api/inference-api.ts';
import type { DataType } from '../tensor/datatype.ts';
import type { InferRequest, InferResponse, Parameters } from '../api/types.ts';
import type { Tensor, TensorMetadata } from '../tensor/tensor.ts';
import { rtError } from '../errors/registry.ts';
import type { Generation, GenerateService } from '../generate/generate-service.ts';
import type { GenerateRequest } from '../generate/types.ts';
import type { InferFn, PipelineLayer, StreamFn } from './layer.ts';

export const TEXT_INPUT = 'text_input';
export const TEXT_OUTPUT = 'text_output';

/** The optional control inputs, with their datatypes; each holds one value. */
const CONTROL_INPUTS: Readonly<Record<string, DataType>> = {
  max_tokens: 'INT32',
  temperature: 'FP32',
  top_k: 'INT32',
  top_p: 'FP32',
  repetition_penalty: 'FP32',
  seed: 'INT64',
};
const STOP_INPUT = 'stop';

/** The text interface a generative model shows in its metadata. */
export function generativeMetadata(base: ModelMetadata): ModelMetadata {
  const t = (name: string, datatype: DataType, shape: number[] = [-1, 1]): TensorMetadata => ({ name, datatype, shape });
  return {
    name: base.name,
    versions: base.versions,
    platform: base.platform,
    inputs: [t(TEXT_INPUT, 'BYTES'), ...Object.entries(CONTROL_INPUTS).map(([n, dt]) => t(n, dt)), t(STOP_INPUT, 'BYTES', [-1, -1])],
    outputs: [t(TEXT_OUTPUT, 'BYTES')],
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: false });
const encoder = new TextEncoder();

function scalarOf(t: Tensor): number {
  if (Array.isArray(t.data)) throw rtError('BAD_DATATYPE', `input '${t.name}' must be ${CONTROL_INPUTS[t.name] ?? 'numeric'}, got BYTES`);
  if (t.data.length !== 1) throw rtError('BAD_SHAPE', `input '${t.name}' must hold one value, got ${t.data.length} (shape [${t.shape.join(', ')}])`);
  return Number(t.data[0] as number | bigint);
}

function paramNumber(p: Parameters | undefined, ...names: string[]): number | undefined {
  for (const n of names) {
    const v = p?.[n];
    if (v === undefined) continue;
    const x = typeof v === 'string' ? Number(v) : typeof v === 'boolean' ? Number.NaN : v;
    if (!Number.isFinite(x)) throw rtError('BAD_PARAMETER', `parameter '${n}' must be a number, got ${JSON.stringify(v)}`);
    return x;
  }
  return undefined;
}

/** Maps a KServe request with `text_input` to a GenerateRequest (inputs win over parameters). */
export function generateRequestOf(request: InferRequest): { req: GenerateRequest; shape: readonly number[] } {
  const p = request.parameters;
  const controls = new Map<string, number>();
  let prompt: string | undefined;
  let shape: readonly number[] = [1, 1];
  let stop: string[] | undefined;
  for (const t of request.inputs) {
    if (t.name === TEXT_INPUT) {
      if (!Array.isArray(t.data)) throw rtError('BAD_DATATYPE', `input '${TEXT_INPUT}' must be BYTES, got ${t.datatype}`);
      if (t.data.length !== 1)
        throw rtError('BAD_SHAPE', `input '${TEXT_INPUT}' must hold one prompt, got ${t.data.length} (shape [${t.shape.join(', ')}])`);
      prompt = utf8.decode(t.data[0] as Uint8Array);
      shape = t.shape;
    } else if (t.name === STOP_INPUT) {
      if (!Array.isArray(t.data)) throw rtError('BAD_DATATYPE', `input '${STOP_INPUT}' must be BYTES, got ${t.datatype}`);
      stop = t.data.map((b) => utf8.decode(b));
    } else if (t.name in CONTROL_INPUTS) {
      controls.set(t.name, scalarOf(t));
    } else {
      throw rtError(
        'UNEXPECTED_INPUT',
        `input '${t.name}' is not an input of a generative model (inputs: ${TEXT_INPUT}, ${Object.keys(CONTROL_INPUTS).join(', ')}, ${STOP_INPUT})`,
      );
    }
  }
  for (const o of request.outputs ?? []) {
    if (o.name !== TEXT_OUTPUT)
      throw rtError('UNKNOWN_OUTPUT', `output '${o.name}' is not an output of a generative model (outputs: ${TEXT_OUTPUT})`);
  }
  if (prompt === undefined) throw rtError('MISSING_INPUT', `input '${TEXT_INPUT}' is required`);
  const pick = (name: string, ...aliases: string[]): number | undefined => controls.get(name) ?? paramNumber(p, name, ...aliases);
  const stopParam = p?.['stop'];
  if (stop === undefined && stopParam !== undefined) {
    if (typeof stopParam !== 'string') throw rtError('BAD_PARAMETER', `parameter 'stop' must be a string, got ${JSON.stringify(stopParam)}`);
    stop = [stopParam];
  }
  const values = {
    maxTokens: pick('max_tokens'),
    temperature: pick('temperature'),
    topK: pick('top_k'),
    topP: pick('top_p'),
    repetitionPenalty: pick('repetition_penalty'),
    seed: pick('seed', 'random_seed'),
  };
  const req: GenerateRequest = {
    model: request.model,
    ...(request.version === undefined || request.version === '' ? {} : { version: request.version }),
    ...(request.id === undefined ? {} : { id: request.id }),
    prompt,
    ...(stop === undefined ? {} : { stop }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.protocol === undefined ? {} : { protocol: request.protocol }),
    ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)),
  };
  return { req, shape };
}

function textResponse(g: Generation, id: string | undefined, shape: readonly number[], text: string, parameters: Parameters): InferResponse {
  return {
    model_name: g.model,
    model_version: g.version,
    ...(id === undefined ? {} : { id }),
    parameters,
    outputs: [{ name: TEXT_OUTPUT, datatype: 'BYTES', shape: shape.map(() => 1), data: [encoder.encode(text)] }],
  };
}

async function* streamGeneration(service: GenerateService, request: InferRequest): AsyncGenerator<InferResponse> {
  const { req, shape } = generateRequestOf(request);
  const g = service.start(req);
  try {
    for await (const e of g.events()) {
      if (e.type === 'delta') {
        if (e.text !== '') yield textResponse(g, request.id, shape, e.text, { triton_final_response: false, seq: e.seq });
      } else if (e.type === 'done') {
        yield textResponse(g, request.id, shape, e.text, {
          triton_final_response: true,
          seq: e.seq,
          finish_reason: e.finishReason,
          prompt_tokens: e.usage.promptTokens,
          completion_tokens: e.usage.completionTokens,
        });
      } else {
        throw e.error;
      }
    }
  } finally {
    // The reader stopped early (client gone, cancel): the generation's slot is freed at the next step.
    if (!g.finished) g.cancel();
  }
}

/**
 * Generative models served through `service`: a request with `text_input` to one of them is generated (whole, or
 * streamed piece by piece); every other request goes on to the layers below.
 */
export class GenerationLayer implements PipelineLayer {
  constructor(private readonly service: GenerateService) {}

  /** The metadata a front end shows of a model: the text interface for generative ones (`base`: the core's). */
  metadata(base: ModelMetadata, name: string, version?: string): ModelMetadata {
    return this.service.isGenerative(name, version) ? generativeMetadata(base) : base;
  }

  infer(next: InferFn): InferFn {
    // Every other request goes straight on, without a promise of its own on the way.
    return (request) => (this.isGenerateRequest(request) ? this.generate(request) : next(request));
  }

  stream(next: StreamFn): StreamFn {
    return (request) => (this.isGenerateRequest(request) ? streamGeneration(this.service, request) : next(request));
  }

  private isGenerateRequest(r: InferRequest): boolean {
    return r.inputs.some((t) => t.name === TEXT_INPUT) && this.service.isGenerative(r.model, r.version);
  }

  private async generate(request: InferRequest): Promise<InferResponse> {
    const { req, shape } = generateRequestOf(request);
    const g = this.service.start(req);
    const r = await g.result;
    return textResponse(g, request.id, shape, r.text, {
      triton_final_response: true,
      finish_reason: r.finishReason,
      prompt_tokens: r.usage.promptTokens,
      completion_tokens: r.usage.completionTokens,
    });
  }
}
