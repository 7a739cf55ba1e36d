/**
 * POST /v2/models/{m}[/versions/{v}]/generate and /generate_stream (Triton's generate extension, reference
 * §2.4; docs/ws-protocol.md "SSE") for any model. generate_stream runs the request into a ReplayStream
 * (src/transport/streaming/stream-registry.ts) — the same event source the WebSocket front end uses — and writes its
 * events as SSE with `id: <stream id>:<seq>`, so Last-Event-ID resumes a dropped stream exactly where it broke.
 *
 * The HTTP status is decided by the first event (as in Triton): a request that fails before producing anything
 * gets an ordinary error status and body; after that, errors are in-band `event: error` events.
 *
 * A stream belongs to the principal that started it: a Last-Event-ID naming another principal's stream is refused
 * as an unknown one (RESUME_EXPIRED, as WebSocket resume refuses), and that stream is not touched.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InferenceApi } from '../../api/inference-api.ts';
import { rtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import { requestContextOf } from '../../observability/http-observability.ts';
import { toInferRequest } from '../../codec/kserve-json.ts';
import { ANONYMOUS, principalOf } from '../../security/index.ts';
import { parseJsonBytes } from '../../codec/json-body.ts';
import type { StreamJournal } from '../../state/stream-journal.ts';
import { runIntoStream, StreamRegistry, type ReplayStream, type StreamEvent, type StreamListener } from '../streaming/stream-registry.ts';
import { journalStream, pinSeed, resumeFromJournal, sseHead, type SseJournalOptions } from './sse-journal.ts';
import {
  decodeGenerateBody,
  encodeGenerateResponse,
  parseLastEventId,
  sseErrorData,
  sseEvent,
  sseEventId,
  type DecodedGenerate,
} from './sse-generate.ts';

export interface SseOptions {
  readonly api: InferenceApi;
  readonly logger: Logger;
  /** `: ping` comments on quiet streams (0 = none); also how long the first event may take before 200 is sent. */
  readonly heartbeatIntervalMs: number;
  /** How long a stream stays resumable after its client left or it ended (0 = no resume). */
  readonly resumeWindowMs: number;
  /** Replay budget over all streams. */
  readonly maxRetainedBytes: number;
  /** A response whose unsent bytes exceed this is cut (the client resumes with Last-Event-ID). */
  readonly maxBufferedBytes: number;
  /** Counts a response cut by that bound (rtserve_slow_clients_total{kind="sse_closed"}). */
  readonly onSlowClient?: (kind: 'sse_closed') => void;
  /** Shared journal: streams resume on any replica (sse-journal.ts); this replica only when absent. */
  readonly journal?: StreamJournal;
  readonly replicaId?: string;
  readonly leaseMs?: number;
}

export interface SseFrontEnd {
  readonly activeStreams: number;
  /** Ends open responses and drops every retained stream. */
  close(): void;
}

interface StreamContext {
  readonly model: string;
  /** The id of the principal that started the stream: the only one that may resume it. */
  readonly principal: string;
  readonly generate: DecodedGenerate;
  sink: SseSink | undefined;
}

interface ModelParams {
  model: string;
  version?: string;
}

/** Writes one stream's events to one HTTP response; buffers them until the response has started. */
class SseSink {
  private started = false;
  private ended = false;
  private readonly queue: string[] = [];
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private resolveFirst: ((e: StreamEvent | undefined) => void) | undefined;
  readonly firstEvent: Promise<StreamEvent | undefined>;
  readonly listener: StreamListener = (event) => this.onEvent(event);

  constructor(
    private readonly stream: ReplayStream,
    private readonly options: SseOptions,
    private readonly active: Set<SseSink>,
  ) {
    this.firstEvent = new Promise((resolve) => {
      this.resolveFirst = resolve;
    });
  }

  private raw: ServerResponse | undefined;

  /** Events up to this seq are not sent: the client has them (a stream taken over from a replica that died). */
  skipThrough = 0;

  private onEvent(event: StreamEvent): void {
    if (this.ended || event.seq <= this.skipThrough) return;
    this.resolveFirst?.(event);
    this.resolveFirst = undefined;
    const chunk = this.format(event);
    if (this.started) this.write(chunk);
    else this.queue.push(chunk);
    if (event.kind !== 'data' || this.stream.mode === 'single') this.finish();
  }

  private format(event: StreamEvent): string {
    return formatSseEvent(this.stream, event);
  }

  /**
   * Sends the 200 (unless `headSent`: a resume from the journal sent it) and everything queued so far; from now on
   * events go straight out.
   */
  begin(raw: ServerResponse, headSent = false): void {
    this.raw = raw;
    this.active.add(this);
    if (!headSent) {
      raw.writeHead(200, sseHead(this.stream.key));
      raw.flushHeaders();
    }
    raw.once('close', () => this.onClientGone());
    this.started = true;
    const queued = this.queue.splice(0);
    for (const chunk of queued) this.write(chunk);
    // A resumed stream that had already ended, with nothing after Last-Event-ID: the response is complete.
    if (this.ended || this.stream.finished) {
      this.ended = true;
      raw.end();
      return;
    }
    if (this.options.heartbeatIntervalMs > 0) {
      this.heartbeat = setInterval(() => this.write(': ping\n\n'), this.options.heartbeatIntervalMs);
      this.heartbeat.unref();
    }
  }

  private write(chunk: string): void {
    const raw = this.raw;
    if (raw === undefined || raw.destroyed || raw.writableEnded) return;
    raw.write(chunk);
    // A client that does not read: cut the response rather than buffer without bound; it can resume.
    if (raw.writableLength > this.options.maxBufferedBytes) {
      this.options.onSlowClient?.('sse_closed');
      raw.destroy();
    }
  }

  private finish(): void {
    this.ended = true;
    this.stopHeartbeat();
    if (this.started && this.raw !== undefined && !this.raw.writableEnded) this.raw.end();
  }

  /** Another response resumed this stream, or the server closes. */
  end(): void {
    this.ended = true;
    this.stopHeartbeat();
    this.stream.detach(this.listener);
    this.raw?.end();
  }

  private onClientGone(): void {
    this.stopHeartbeat();
    this.active.delete(this);
    this.stream.detach(this.listener);
    const ctx = this.stream.context as StreamContext;
    if (ctx.sink === this) ctx.sink = undefined;
  }

  private stopHeartbeat(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}

/** One stream event as SSE text (`id: <stream>:<seq>`), the same on the wire and in the journal. */
function formatSseEvent(stream: ReplayStream, event: StreamEvent): string {
  const id = sseEventId(stream.key, event.seq);
  const ctx = stream.context as StreamContext;
  switch (event.kind) {
    case 'data':
      try {
        return sseEvent(id, undefined, encodeGenerateResponse(ctx.generate.form, ctx.generate.decoded, event.response));
      } catch (err) {
        return sseEvent(id, 'error', sseErrorData(rtError('INTERNAL', 'the response could not be encoded', { cause: err })));
      }
    case 'end':
      return sseEvent(id, 'done', JSON.stringify({ seq: event.seq, responses: event.responses }));
    case 'error':
      return sseEvent(id, 'error', sseErrorData(event.error));
    case 'dropped':
      return sseEvent(id, 'error', sseErrorData(rtError('CANCELLED', `superseded by '${event.supersededBy}'`)));
  }
}

export function registerSseRoutes(app: FastifyInstance, options: SseOptions): SseFrontEnd {
  const { api } = options;
  const registry = new StreamRegistry({ windowMs: options.resumeWindowMs, maxBytes: options.maxRetainedBytes });
  const active = new Set<SseSink>();
  const journal: SseJournalOptions | undefined =
    options.journal === undefined
      ? undefined
      : { journal: options.journal, replicaId: options.replicaId ?? 'replica', leaseMs: options.leaseMs ?? 3000, logger: options.logger };
  const format =
    (stream: ReplayStream) =>
    (event: StreamEvent): string =>
      formatSseEvent(stream, event);

  /** Continues a stream whose producer died, on this replica (sse-journal.ts). */
  const takeOver =
    (model: string, streamId: string) =>
    (raw: ServerResponse, meta: { version?: string; body: string; principal?: string }, sentThrough: number, journaledThrough: number): void => {
      let generateBody: DecodedGenerate;
      try {
        generateBody = decodeGenerateBody(api, model, meta.version, JSON.parse(meta.body));
      } catch (err) {
        raw.end(
          sseEvent(
            sseEventId(streamId, sentThrough + 1),
            'error',
            sseErrorData(rtError('INTERNAL', 'the stream cannot be continued here', { cause: err })),
          ),
        );
        return;
      }
      const stream = registry.create(streamId, 'stream');
      stream.context = { model, principal: meta.principal ?? '', generate: generateBody, sink: undefined } satisfies StreamContext;
      if (journal !== undefined) journalStream(stream, journal, format(stream), journaledThrough);
      const sink = attachSink(stream, 0) as SseSink;
      sink.skipThrough = sentThrough;
      sink.begin(raw, true);
      void runIntoStream(
        stream,
        api,
        toInferRequest(generateBody.decoded, {
          model,
          version: meta.version,
          signal: stream.controller.signal,
          protocol: 'sse',
          context: requestContextOf(raw.req),
        }),
      );
    };

  const bodyOf = (req: FastifyRequest): unknown => parseJsonBytes(req.body instanceof Buffer ? req.body : Buffer.alloc(0), 'the request body');

  const generate = async (req: FastifyRequest<{ Params: ModelParams }>, reply: FastifyReply) => {
    const { model, version } = req.params;
    const generateBody = decodeGenerateBody(api, model, version, bodyOf(req));
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    const response = await api.infer(
      toInferRequest(generateBody.decoded, { model, version, signal: controller.signal, protocol: 'sse', context: requestContextOf(req.raw) }),
    );
    return reply
      .code(200)
      .type('application/json')
      .send(encodeGenerateResponse(generateBody.form, generateBody.decoded, response));
  };

  const attachSink = (stream: ReplayStream, after: number): SseSink | undefined => {
    const ctx = stream.context as StreamContext;
    ctx.sink?.end();
    const sink = new SseSink(stream, options, active);
    ctx.sink = sink;
    return stream.attach(sink.listener, after) ? sink : undefined;
  };

  const generateStream = async (req: FastifyRequest<{ Params: ModelParams }>, reply: FastifyReply) => {
    const { model, version } = req.params;
    const principal = (principalOf(req) ?? ANONYMOUS).id;
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId.trim() !== '') {
      // Resume (WHATWG HTML §9.2.4: the client sends the last `id:` it saw); the body is ignored.
      const parsed = parseLastEventId(lastEventId);
      const stream = parsed === undefined ? undefined : registry.get(parsed.streamId);
      // Another principal's stream is refused as if unknown, before anything touches it (its owner reads on).
      const held = stream?.context as StreamContext | undefined;
      const ctx = held?.principal === principal ? held : undefined;
      if (parsed !== undefined && stream === undefined && journal !== undefined) {
        // Not held here: another replica's stream (or one whose replica died), from the shared journal.
        const found = await journal.journal.read(parsed.streamId, 0);
        if (found !== undefined && found.meta.principal === principal) {
          if (found.meta.model !== model)
            throw rtError('BAD_REQUEST', `stream '${parsed.streamId}' belongs to model '${found.meta.model}', not '${model}'`);
          reply.hijack();
          await resumeFromJournal(reply.raw, parsed.streamId, parsed.seq, found, journal, takeOver(model, parsed.streamId));
          return reply;
        }
      }
      if (parsed === undefined || stream === undefined || ctx === undefined) {
        throw rtError(
          'RESUME_EXPIRED',
          `Last-Event-ID '${lastEventId.slice(0, 80)}' names no stream that can be resumed: it is malformed, unknown, or its resume window (${options.resumeWindowMs} ms) has passed`,
        );
      }
      if (ctx.model !== model) throw rtError('BAD_REQUEST', `stream '${parsed.streamId}' belongs to model '${ctx.model}', not '${model}'`);
      const sink = attachSink(stream, parsed.seq);
      if (sink === undefined) {
        throw rtError('RESUME_EXPIRED', `the events of stream '${parsed.streamId}' after ${parsed.seq} are no longer buffered`);
      }
      reply.hijack();
      sink.begin(reply.raw);
      return reply;
    }

    const body = journal === undefined ? bodyOf(req) : pinSeed(api, model, version, bodyOf(req));
    const generateBody = decodeGenerateBody(api, model, version, body);
    const streamId = randomUUID();
    const stream = registry.create(streamId, 'stream');
    const ctx: StreamContext = { model, principal, generate: generateBody, sink: undefined };
    stream.context = ctx;
    if (journal !== undefined) {
      try {
        await journal.journal.create(
          streamId,
          { model, ...(version === undefined ? {} : { version }), body: JSON.stringify(body), principal },
          journal.replicaId,
        );
        journalStream(stream, journal, format(stream));
      } catch (err) {
        // The stream still runs; it is resumable on this replica only.
        options.logger.warn({ stream: streamId, err: err instanceof Error ? err.message : String(err) }, 'SSE journal: cannot record the stream');
      }
    }
    const sink = attachSink(stream, 0) as SseSink;
    // Until the first event the request is an ordinary HTTP request: a client that leaves cancels it.
    const onEarlyClose = (): void => {
      if (!reply.raw.headersSent) registry.delete(streamId, stream);
    };
    reply.raw.once('close', onEarlyClose);
    const context = requestContextOf(req.raw);
    void runIntoStream(
      stream,
      api,
      toInferRequest(generateBody.decoded, { model, version, signal: stream.controller.signal, protocol: 'sse', context }),
    );

    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = await Promise.race([
      sink.firstEvent,
      new Promise<undefined>((resolve) => {
        if (options.heartbeatIntervalMs > 0) timer = setTimeout(() => resolve(undefined), options.heartbeatIntervalMs);
      }),
    ]);
    clearTimeout(timer);
    reply.raw.off('close', onEarlyClose);
    if (first?.kind === 'error' && first.seq === 1) {
      registry.delete(streamId, stream);
      throw first.error;
    }
    if (reply.raw.destroyed) {
      // The client left while we waited; the stream stays resumable for the window.
      stream.detach(sink.listener);
      reply.hijack();
      return reply;
    }
    reply.hijack();
    sink.begin(reply.raw);
    return reply;
  };

  for (const prefix of ['/v2/models/:model', '/v2/models/:model/versions/:version']) {
    app.post(`${prefix}/generate`, generate);
    app.post(`${prefix}/generate_stream`, generateStream);
  }

  return {
    get activeStreams() {
      return active.size;
    },
    close() {
      for (const s of [...active]) s.end();
      registry.clear();
    },
  };
}
