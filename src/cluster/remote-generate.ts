/**
 * Generation across the worker channel (docs/workers.md): a front-end worker's OpenAI-compatible routes call
 * RemoteGenerationApi as they call the GenerateService in one process; the engine owner runs the generation in its
 * GenerateService (`serveGeneration`), so every worker's generations share one continuous batcher per model.
 *
 * `gen.start` is one call: its first streamed item is the generation's description (id, model, token counts), then
 * one item per GenerationEvent, and the answer is the GenerationResult (or the generation's error). Cancelling the
 * generation (the client went away) cancels the call, which aborts the request's signal in the owner; a worker that
 * dies cancels all of its generations the same way.
 */
import type { InferenceApi } from '../api/inference-api.ts';
import type { RtError } from '../errors/registry.ts';
import type { ChatMessage, Generation, GenerationApi } from '../generate/generate-service.ts';
import type { GenerateRequest, GenerationEvent, GenerationResult } from '../generate/types.ts';
import { errorFromWire, errorToWire, type CallContext, type Incoming, type Payload, type RpcPeer } from './rpc-peer.ts';

/** The generation as the first item of `gen.start`. */
type WireGeneration = Pick<Generation, 'id' | 'requestId' | 'model' | 'version' | 'promptTokens' | 'maxTokens'>;

/** A GenerationEvent on the wire: an error event's RtError as its code and message. */
type WireEvent =
  | Exclude<GenerationEvent, { type: 'error' }>
  | { readonly type: 'error'; readonly seq: number; readonly error: ReturnType<typeof errorToWire> };

function eventToWire(e: GenerationEvent): WireEvent {
  return e.type === 'error' ? { type: 'error', seq: e.seq, error: errorToWire(e.error) } : e;
}

function eventFromWire(e: WireEvent): GenerationEvent {
  return e.type === 'error' ? { type: 'error', seq: e.seq, error: errorFromWire(e.error) } : e;
}

/** The owner's side: runs `gen.*` calls of a worker against the owner's generation service. */
export async function serveGeneration(generate: GenerationApi, method: string, args: Incoming, ctx: CallContext): Promise<Payload> {
  if (method === 'gen.chat') {
    const a = args.value as { model: string; messages: ChatMessage[] };
    return { value: await generate.chatPrompt(a.model, a.messages) };
  }
  // The call's signal is the request's: the worker cancelling the call (or dying) cancels the generation.
  const g = await generate.start({ ...(args.value as GenerateRequest), signal: ctx.signal });
  const head: WireGeneration = {
    id: g.id,
    requestId: g.requestId,
    model: g.model,
    version: g.version,
    promptTokens: g.promptTokens,
    maxTokens: g.maxTokens,
  };
  ctx.item({ value: head });
  for await (const e of g.events()) ctx.item({ value: eventToWire(e) });
  return { value: await g.result };
}

/** A worker's view of the generation of its request, running in the owner: the call's items as events. */
class RemoteGeneration {
  readonly result: Promise<GenerationResult>;
  private readonly received: GenerationEvent[] = [];
  private waiters: (() => void)[] = [];
  private ended = false;

  constructor(
    answer: Promise<Incoming>,
    private readonly controller: AbortController,
  ) {
    this.result = answer.then(
      (a) => {
        this.end();
        return a.value as GenerationResult;
      },
      (err: RtError) => {
        // The owner went away (or failed) without a terminal event: the stream ends with the error.
        if (!this.finished) this.received.push({ type: 'error', seq: this.lastSeq + 1, error: err });
        this.end();
        throw err;
      },
    );
    // Whoever reads the result handles its rejection; a stream reader reads the error event instead.
    this.result.catch(() => undefined);
  }

  /** An event item of the call. */
  push(e: GenerationEvent): void {
    this.received.push(e);
    this.wake();
  }

  private end(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  get finished(): boolean {
    const last = this.received.at(-1);
    return this.ended || (last !== undefined && last.type !== 'delta');
  }

  get lastSeq(): number {
    return this.received.at(-1)?.seq ?? 0;
  }

  async *events(after = 0): AsyncIterable<GenerationEvent> {
    for (let i = 0; ; i++) {
      while (i >= this.received.length) {
        if (this.ended) return;
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
      const e = this.received[i] as GenerationEvent;
      if (e.seq > after) yield e;
      if (e.type !== 'delta') return;
    }
  }

  /** The Generation a route sees: the owner's description with this view's state. */
  generation(head: WireGeneration): Generation {
    const self = this;
    return {
      ...head,
      result: this.result,
      get finished() {
        return self.finished;
      },
      get lastSeq() {
        return self.lastSeq;
      },
      events: (after) => this.events(after),
      cancel: () => this.controller.abort(),
    };
  }
}

/** A front-end worker's generation API: questions about models from the mirror, generation in the owner. */
export class RemoteGenerationApi implements GenerationApi {
  constructor(
    private readonly peer: RpcPeer,
    /** The worker's API over the owner's mirror (model configs). */
    private readonly api: InferenceApi,
  ) {}

  isGenerative(model: string, version?: string): boolean {
    try {
      return this.api.modelConfig(model, version).generate !== undefined;
    } catch {
      return false;
    }
  }

  async chatPrompt(model: string, messages: readonly ChatMessage[]): Promise<string> {
    return String((await this.peer.call('gen.chat', { value: { model, messages } })).value);
  }

  start(req: GenerateRequest): Promise<Generation> {
    const { signal, ...wire } = req;
    const controller = new AbortController();
    if (signal !== undefined) {
      if (signal.aborted) controller.abort();
      else signal.addEventListener('abort', () => controller.abort(), { once: true });
    }
    return new Promise<Generation>((resolve, reject) => {
      let view: RemoteGeneration | undefined;
      const answer = this.peer.call(
        'gen.start',
        { value: wire },
        {
          signal: controller.signal,
          onItem: (item) => {
            if (view === undefined) {
              view = new RemoteGeneration(answer, controller);
              resolve(view.generation(item.value as WireGeneration));
            } else view.push(eventFromWire(item.value as WireEvent));
          },
        },
      );
      // Refused before it started (a bad request, a full queue, draining): the error is the start's.
      answer.catch((err: unknown) => {
        if (view === undefined) reject(err);
      });
    });
  }
}
