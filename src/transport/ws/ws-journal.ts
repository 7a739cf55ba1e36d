/**
 * WebSocket token streams across replicas (docs/scaling.md "WebSocket sessions"). With a shared stream journal
 * (src/state/stream-journal.ts) every streaming `infer` of a session (`stream: true`, JSON inputs, not a frame
 * stream) is journaled under its session id and request id: the event as it runs (a sampling seed pinned when the
 * model would draw one at random), the session's `binary_outputs` and the principal, then every server event of
 * the request as written on the wire (without `event_id`, which counts per connection). A client whose replica
 * died reconnects through the load balancer to any replica and sends `resume` with its session id and cursors: a
 * replica that does not hold the session adopts it from the journal, replays each listed request after the
 * client's seq, follows its producer while the producer's lease lives, and takes the request over when the lease
 * lapses: it re-runs the journaled event and sends only the events after the client's cursor
 * (src/transport/streaming/journaled-stream.ts). No token is lost and none is sent twice.
 */
import { randomInt } from 'node:crypto';
import type { InferenceApi } from '../../api/inference-api.ts';
import { isPlainObject } from '../../codec/wire-tensor.ts';
import type { JournalEntry, JournalMeta } from '../../state/stream-journal.ts';
import { followJournal, type FollowOutcome, type JournalingOptions } from '../streaming/journaled-stream.ts';
import type { EncodedWsEvent } from './ws-event-encoding.ts';

export type WsJournalOptions = JournalingOptions;

/** The journal key of a session's request (request ids are the client's strings: base64url keeps them inert). */
export function wsJournalKey(sessionId: string, requestId: string): string {
  return `ws:${sessionId}:${Buffer.from(requestId, 'utf8').toString('base64url')}`;
}

/** What another replica needs to continue a request for its session's client. */
export interface WsJournalBody {
  /** The infer event as it runs. */
  readonly event: Readonly<Record<string, unknown>>;
  /** The session's `binary_outputs` when the request began (its default for binary results). */
  readonly binaryOutputs: boolean;
  /** Only this principal may resume the request. */
  readonly subject: string;
}

export function wsJournalMeta(model: string, version: string | undefined, body: WsJournalBody): JournalMeta {
  return {
    model,
    ...(version === undefined ? {} : { version }),
    body: JSON.stringify({ event: body.event, binary_outputs: body.binaryOutputs, subject: body.subject }),
  };
}

function readBody(meta: JournalMeta): WsJournalBody | undefined {
  try {
    const b = JSON.parse(meta.body) as unknown;
    if (!isPlainObject(b) || !isPlainObject(b['event']) || typeof b['subject'] !== 'string') return undefined;
    return { event: b['event'], binaryOutputs: b['binary_outputs'] === true, subject: b['subject'] };
  } catch {
    return undefined;
  }
}

/**
 * The infer event with a sampling seed fixed when it asks a generative model to sample without one, so that a
 * replica re-running it draws the same tokens (greedy decoding and other models are deterministic already).
 */
export function pinWsSeed(
  api: InferenceApi,
  model: string,
  version: string | undefined,
  event: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  if (api.modelConfig(model, version).generate === undefined) return event;
  const params = isPlainObject(event['parameters']) ? event['parameters'] : {};
  if ('seed' in params || 'random_seed' in params) return event;
  const inputs: unknown[] = Array.isArray(event['inputs']) ? event['inputs'] : [];
  if (inputs.some((i) => isPlainObject(i) && (i['name'] === 'seed' || i['name'] === 'random_seed'))) return event;
  return { ...event, parameters: { ...params, seed: randomInt(2 ** 47) } };
}

/** An event in the journal: its JSON text (never a raw newline), then one base64 line per binary frame. */
export function toJournalChunk(encoded: EncodedWsEvent): string {
  const { json, binary } = encoded;
  const text = typeof json === 'string' ? json : Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8');
  if (binary.length === 0) return text;
  return [text, ...binary.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'))].join('\n');
}

/** A journaled event as a connection sends it, with its `event_id` after `type`. */
export function fromJournalChunk(chunk: string, eventId: string): { json: string; binary: Buffer[] } {
  const [json = '', ...binary] = chunk.split('\n');
  // The text starts {"type":"<type>", and no type has a comma.
  const at = json.indexOf(',') + 1;
  return { json: `${json.slice(0, at)}"event_id":"${eventId}",${json.slice(at)}`, binary: binary.map((b) => Buffer.from(b, 'base64')) };
}

/** A journaled request as found for a resuming principal. */
export interface FoundWsRequest {
  readonly meta: JournalMeta;
  readonly entries: readonly JournalEntry[];
  readonly body: WsJournalBody;
}

/** The journaled request `requestId` of session `sessionId`, when `subject` may resume it. */
export async function findWsRequest(
  options: WsJournalOptions,
  sessionId: string,
  requestId: string,
  subject: string,
): Promise<FoundWsRequest | undefined> {
  const found = await options.journal.read(wsJournalKey(sessionId, requestId), 0);
  const body = found === undefined ? undefined : readBody(found.meta);
  return found === undefined || body === undefined || body.subject !== subject ? undefined : { ...found, body };
}

/**
 * Sends a journaled request's events after `after` (as `write` chunks), following its producer; 'takeover' means
 * this replica now holds the request's lease and must re-run `found.body.event`.
 */
export function relayFromJournal(
  options: WsJournalOptions,
  sessionId: string,
  requestId: string,
  after: number,
  found: FoundWsRequest,
  write: (entry: JournalEntry) => void,
  signal: AbortSignal,
): Promise<FollowOutcome> {
  return followJournal(wsJournalKey(sessionId, requestId), after, found, options, write, signal);
}
