/**
 * The wire vocabulary of rtserve's WebSocket protocol `rtserve.v1` (docs/ws-protocol.md): the endpoint, the
 * subprotocol names, close codes, and the JSON shapes of server events. Shared by the server (src/transport/ws)
 * and the client SDK (src/client), so this module has no imports that tie it to Node.
 */

export const WS_PATH = '/v2/ws';
export const WS_SUBPROTOCOL = 'rtserve.v1';
/** Browsers cannot set headers on a WebSocket: a token may ride in a subprotocol entry with this prefix. */
export const WS_BEARER_PROTOCOL_PREFIX = 'rtserve.bearer.';
/** A single-use ticket from POST /v2/auth/ws-ticket (src/security/ws-tickets.ts) may ride the same way. */
export const WS_TICKET_PROTOCOL_PREFIX = 'rtserve.ticket.';
/** Longest client-chosen request id or frame-stream name. */
export const WS_MAX_ID_LENGTH = 256;

/**
 * Close codes that are not error categories (RFC 6455 §7.4.1). Error closes use the registry's
 * `wsCloseCodeOf` mapping (IDLE_TIMEOUT → 4408, SLOW_CONSUMER → 4429, PAYLOAD_TOO_LARGE → 1009).
 */
export const WS_CLOSE = Object.freeze({
  NORMAL: 1000,
  GOING_AWAY: 1001,
  MESSAGE_TOO_BIG: 1009,
  INTERNAL: 1011,
});

/** The fixed close reason for closes that follow an `error` event. */
export const WS_CLOSE_REASON_SEE_ERROR = 'see error event';

export interface WsLimits {
  readonly max_message_bytes: number;
  readonly max_in_flight: number;
  readonly heartbeat_interval_ms: number;
  readonly idle_timeout_ms: number;
  readonly max_buffered_bytes: number;
  readonly resume_window_ms: number;
  readonly max_pending_frames: number;
}

export interface WsSessionInfo {
  readonly id: string;
  readonly protocol: string;
  readonly binary_outputs: boolean;
}

export interface WsErrorBody {
  /** A code of the error registry (src/errors/registry.ts). */
  readonly code: string;
  readonly category: string;
  readonly message: string;
  readonly retryable: boolean;
  readonly retry_after_ms?: number;
  /** The offending field of the client event, when that helps. */
  readonly param?: string;
}

/** A KServe v2 `$response_output` as it appears inside result and delta events. */
export interface WsWireOutput {
  readonly name: string;
  readonly datatype: string;
  readonly shape: readonly number[];
  readonly data?: unknown;
  readonly parameters?: Readonly<Record<string, string | number | boolean>>;
}

interface ServerEventBase {
  readonly event_id: string;
}

export interface SessionCreatedEvent extends ServerEventBase {
  readonly type: 'session.created';
  readonly session: WsSessionInfo;
  readonly limits: WsLimits;
}
export interface SessionUpdatedEvent extends ServerEventBase {
  readonly type: 'session.updated';
  readonly session: WsSessionInfo;
}
export interface SessionResumedEvent extends ServerEventBase {
  readonly type: 'session.resumed';
  readonly session: WsSessionInfo;
  readonly limits: WsLimits;
  /** How many of the old session's requests were taken over. */
  readonly requests: number;
}
export interface ResultEvent extends ServerEventBase {
  readonly type: 'result' | 'delta';
  readonly id: string;
  readonly seq: number;
  readonly model_name: string;
  readonly model_version: string;
  readonly parameters?: Readonly<Record<string, string | number | boolean>>;
  readonly outputs: readonly WsWireOutput[];
}
export interface DoneEvent extends ServerEventBase {
  readonly type: 'done';
  readonly id: string;
  readonly seq: number;
  readonly responses: number;
}
export interface FrameDroppedEvent extends ServerEventBase {
  readonly type: 'frame.dropped';
  readonly id: string;
  readonly seq: number;
  readonly frame_stream: string;
  readonly superseded_by: string;
  readonly dropped: number;
}
export interface ErrorEvent extends ServerEventBase {
  readonly type: 'error';
  readonly id?: string;
  readonly seq?: number;
  readonly client_event_id?: string;
  readonly error: WsErrorBody;
}
export interface PongEvent extends ServerEventBase {
  readonly type: 'pong';
  readonly id?: string;
}

export type WsServerEvent =
  | SessionCreatedEvent
  | SessionUpdatedEvent
  | SessionResumedEvent
  | ResultEvent
  | DoneEvent
  | FrameDroppedEvent
  | ErrorEvent
  | PongEvent;

/** Server events that end a request (exactly one per accepted `infer`). */
export function isTerminalEvent(e: WsServerEvent): boolean {
  return e.type === 'result' || e.type === 'done' || e.type === 'frame.dropped' || (e.type === 'error' && e.id !== undefined && e.seq !== undefined);
}

/** Number of binary frames' worth of outputs that follow a result/delta event: one per binary output. */
export function binaryOutputCount(outputs: readonly WsWireOutput[]): number {
  let n = 0;
  for (const o of outputs) if (typeof o.parameters?.['binary_data_size'] === 'number') n++;
  return n;
}
