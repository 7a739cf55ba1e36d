/**
 * A request's stream event as WebSocket server events (docs/ws-protocol.md "Server events"): one JSON text
 * frame, then one binary frame per binary output. The same text goes to the socket and, for journaled requests,
 * into the shared journal (ws-journal.ts), where it is stored without `event_id` (a per-connection counter that
 * the connection replaying it fills in).
 */
import type { Logger } from '../../observability/logger.ts';
import { encodeOptionsFor, encodeResponseEvent, type ResponseEncodingContext } from '../streaming/response-encoding.ts';
import type { StreamEvent, StreamMode } from '../streaming/stream-registry.ts';
import { wsError, wsErrorBody } from './ws-errors.ts';

export interface EncodedWsEvent {
  /** The JSON event (UTF-8 bytes or text). */
  readonly json: Uint8Array | string;
  readonly binary: readonly Uint8Array[];
}

/** What of a request decides its events' form. */
export interface WsEventSource {
  readonly id: string;
  readonly mode: StreamMode;
  readonly encoding: ResponseEncodingContext;
}

/**
 * Encodes `event` of request `source`; `eventId` undefined leaves `event_id` out (the journal's form). A response
 * that cannot be encoded becomes an error event (logged as internal).
 */
export function encodeWsEvent(source: WsEventSource, event: StreamEvent, eventId: string | undefined, logger: Logger): EncodedWsEvent {
  const idField = eventId === undefined ? '' : `"event_id":"${eventId}",`;
  const head = { ...(eventId === undefined ? {} : { event_id: eventId }), id: source.id, seq: event.seq };
  switch (event.kind) {
    case 'data': {
      const type = source.mode === 'single' ? 'result' : 'delta';
      try {
        const prefix = `{"type":"${type}",${idField}"id":${JSON.stringify(source.id)},"seq":${event.seq},`;
        return encodeResponseEvent(prefix, event.response, encodeOptionsFor(source.encoding));
      } catch (err) {
        return { json: JSON.stringify({ type: 'error', ...head, error: wsErrorBody(wsError(err, logger)) }), binary: [] };
      }
    }
    case 'end':
      return { json: JSON.stringify({ type: 'done', ...head, responses: event.responses }), binary: [] };
    case 'error':
      if (event.error.category === 'INTERNAL')
        logger.error({ err: event.error.cause ?? event.error, code: event.error.code }, 'internal error on a WebSocket request');
      return { json: JSON.stringify({ type: 'error', ...head, error: wsErrorBody(event.error) }), binary: [] };
    case 'dropped':
      return {
        json: JSON.stringify({
          type: 'frame.dropped',
          ...head,
          frame_stream: event.frameStream,
          superseded_by: event.supersededBy,
          dropped: event.dropped,
        }),
        binary: [],
      };
  }
}
