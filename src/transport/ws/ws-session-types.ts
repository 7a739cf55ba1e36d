/**
 * The WebSocket session's parts as its children see them (ws-session.ts owns them): the socket side it delivers to
 * (ws-connection.ts implements WsSessionSink), one accepted request, and the narrow port the journal relays
 * (ws-relays.ts) call back through, so that neither child imports the session.
 */
import type { InferRequest } from '../../api/types.ts';
import type { RtError } from '../../errors/registry.ts';
import type { RequestContext } from '../../observability/request-context.ts';
import type { JournalHandle } from '../streaming/journaled-stream.ts';
import type { ResponseEncodingContext } from '../streaming/response-encoding.ts';
import type { ReplayStream, StreamEvent } from '../streaming/stream-registry.ts';
import type { WsAdmission, WsPrincipal } from './ws-auth.ts';

/** The socket side, as the session sees it. */
export interface WsSessionSink {
  /** Sends one event of a request's stream. */
  deliver(entry: WsRequestEntry, event: StreamEvent): void;
  /** Sends a refusal of a client event that did not become a request (no id). */
  refuse(err: RtError, param?: string, clientEventId?: string): void;
  /** Outgoing bytes queued on the socket. */
  readonly bufferedAmount: number;
  /** A request finished: activity for the idle timeout. */
  touch(): void;
  /** Sends one journaled event of a request this replica follows (ws-journal.ts). */
  deliverJournaled?(chunk: string): void;
}

/** A request taken over from the journal: re-run, sending the client only the events after `sent`. */
export interface WsTakeOver {
  readonly sent: number;
  /** Events up to this seq are in the journal already. */
  readonly journaled: number;
  readonly binaryOutputs: boolean;
}

/** One accepted request. */
export interface WsRequestEntry {
  readonly id: string;
  readonly stream: ReplayStream;
  encoding: ResponseEncodingContext;
  frame: FrameStreamState | undefined;
  request: InferRequest | undefined;
  started: boolean;
  settled: boolean;
  /** The admission to release when the request ends. */
  admission: WsAdmission | undefined;
  /** Set when the request is traced: its stage timestamps, turned into spans when it settles. */
  trace?: RequestContext;
  /** Set when the request is journaled for other replicas. */
  journal?: JournalHandle;
}

export interface FrameStreamState {
  readonly name: string;
  running: WsRequestEntry | undefined;
  readonly pending: WsRequestEntry[];
  dropped: number;
}

/** What the journal relays (ws-relays.ts) need of their session. */
export interface WsSessionPort {
  readonly id: string;
  readonly principal: WsPrincipal;
  readonly attachedSink: WsSessionSink | undefined;
  submit(event: Readonly<Record<string, unknown>>, binary: undefined, failure: undefined, takeOver: WsTakeOver): void;
}
