/**
 * The one error registry. Every error a client can see has a code here; each code belongs to a category, and
 * each category maps once to an HTTP status, a gRPC status code and a WebSocket close code. Transports never
 * pick statuses themselves: they read an RtError's `httpStatus`, `grpcStatus` or `wsCloseCode` (after
 * `toRtError` for anything else that was thrown).
 */

/** Categories follow google.rpc.Code names (KServe v2 gRPC errors use google.rpc.Status). */
export type ErrorCategory =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'UNAVAILABLE'
  | 'RESOURCE_EXHAUSTED'
  | 'DEADLINE_EXCEEDED'
  | 'CANCELLED'
  | 'UNIMPLEMENTED'
  | 'FAILED_PRECONDITION'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'PAYLOAD_TOO_LARGE'
  | 'INTERNAL';

interface CategoryMapping {
  readonly http: number;
  /** Numeric grpc status (grpc/include/grpc/impl/codegen/status.h). */
  readonly grpc: number;
  /** WebSocket close code used when the error is fatal to a socket (4000-4999 are application codes). */
  readonly ws: number;
  readonly retryable: boolean;
}

export const CATEGORY_MAPPING: Readonly<Record<ErrorCategory, CategoryMapping>> = Object.freeze({
  INVALID_ARGUMENT: { http: 400, grpc: 3, ws: 4400, retryable: false },
  NOT_FOUND: { http: 404, grpc: 5, ws: 4404, retryable: false },
  // Triton answers 400 for ALREADY_EXISTS on REST and ALREADY_EXISTS on gRPC (docs/protocol.md §2.1 status maps).
  ALREADY_EXISTS: { http: 400, grpc: 6, ws: 4409, retryable: false },
  // Triton answers 503 for UNAVAILABLE (model not ready, server draining).
  UNAVAILABLE: { http: 503, grpc: 14, ws: 1013, retryable: true },
  // Overload is 429 + Retry-After, not Triton's 503 (see docs/protocol.md §5, item 8).
  RESOURCE_EXHAUSTED: { http: 429, grpc: 8, ws: 4429, retryable: true },
  DEADLINE_EXCEEDED: { http: 504, grpc: 4, ws: 4408, retryable: true },
  // Triton maps CANCELLED to 400; 499 (client closed request) is what proxies log for it.
  CANCELLED: { http: 499, grpc: 1, ws: 4499, retryable: false },
  UNIMPLEMENTED: { http: 501, grpc: 12, ws: 4501, retryable: false },
  FAILED_PRECONDITION: { http: 400, grpc: 9, ws: 4412, retryable: false },
  UNAUTHENTICATED: { http: 401, grpc: 16, ws: 4401, retryable: false },
  PERMISSION_DENIED: { http: 403, grpc: 7, ws: 4403, retryable: false },
  PAYLOAD_TOO_LARGE: { http: 413, grpc: 8, ws: 1009, retryable: false },
  INTERNAL: { http: 500, grpc: 13, ws: 1011, retryable: true },
});

/** Every error code rtserve emits, with its category and a one-line description for docs/errors.md. */
export const ERROR_CODES = Object.freeze({
  // request shape and content
  BAD_JSON: { category: 'INVALID_ARGUMENT', doc: 'The request body is not valid JSON or does not match the KServe v2 schema.' },
  BAD_REQUEST: { category: 'INVALID_ARGUMENT', doc: 'The request is malformed.' },
  BAD_BINARY_HEADER: { category: 'INVALID_ARGUMENT', doc: 'Inference-Header-Content-Length is missing, negative, absurd or larger than the body.' },
  BAD_DATATYPE: { category: 'INVALID_ARGUMENT', doc: 'An input tensor has a datatype other than the model expects, or an unknown one.' },
  BAD_SHAPE: { category: 'INVALID_ARGUMENT', doc: 'An input tensor has a shape the model does not accept.' },
  BAD_DATA: { category: 'INVALID_ARGUMENT', doc: 'An input tensor data does not match its shape and datatype.' },
  MISSING_INPUT: { category: 'INVALID_ARGUMENT', doc: 'A required model input is missing from the request.' },
  UNEXPECTED_INPUT: { category: 'INVALID_ARGUMENT', doc: 'The request names an input the model does not have, or names one twice.' },
  UNKNOWN_OUTPUT: { category: 'INVALID_ARGUMENT', doc: 'The request asks for an output the model does not have.' },
  BATCH_TOO_LARGE: { category: 'INVALID_ARGUMENT', doc: 'The request batch exceeds max_batch_size.' },
  BAD_PARAMETER: { category: 'INVALID_ARGUMENT', doc: 'A request parameter (priority, timeout, ...) has an invalid value.' },
  UNSUPPORTED_PARAMETER: {
    category: 'INVALID_ARGUMENT',
    doc: "The request sets a parameter this server does not support (on the OpenAI routes: `n` > 1, `logprobs`, `tools`, ...); the error's `param` names it. A client's fault, so never retried (OpenAI's 400 invalid_request_error).",
  },
  PAYLOAD_TOO_LARGE: { category: 'PAYLOAD_TOO_LARGE', doc: 'The body exceeds the configured size limit.' },
  // lookup
  MODEL_NOT_FOUND: { category: 'NOT_FOUND', doc: 'No model with that name is in the repository.' },
  VERSION_NOT_FOUND: { category: 'NOT_FOUND', doc: 'The model has no such version loaded.' },
  ROUTE_NOT_FOUND: { category: 'NOT_FOUND', doc: 'No such endpoint.' },
  MODEL_NOT_READY: { category: 'UNAVAILABLE', doc: 'The model is loading, unloading or failed to load.' },
  // scheduling
  QUEUE_FULL: { category: 'RESOURCE_EXHAUSTED', doc: 'The model queue is at max_queue_size; retry after the hinted delay.' },
  QUEUE_TIMEOUT: { category: 'DEADLINE_EXCEEDED', doc: 'The request timed out in the queue before it was executed.' },
  QUEUE_MAX_DELIVERIES: {
    category: 'UNAVAILABLE',
    doc: 'An async-queue request was delivered asyncQueue.maxDeliveries times and no replica finished it (each died or stalled past ackWaitMs); it is answered with this error and removed from the work queue.',
  },
  CANCELLED: { category: 'CANCELLED', doc: 'The client cancelled the request or went away.' },
  SERVER_DRAINING: { category: 'UNAVAILABLE', doc: 'The server is shutting down and accepts no new requests.' },
  ENGINE_OWNER_GONE: {
    category: 'UNAVAILABLE',
    doc: 'A front-end worker lost its engine owner process (`--workers`, docs/workers.md): the server is stopping.',
  },
  // streaming connections (WebSocket, SSE; docs/ws-protocol.md)
  TOO_MANY_IN_FLIGHT: {
    category: 'RESOURCE_EXHAUSTED',
    doc: 'The connection already has its maximum of unfinished requests; retry after the hinted delay.',
  },
  SLOW_CONSUMER: {
    category: 'RESOURCE_EXHAUSTED',
    doc: 'The client reads results more slowly than it asks for them: the outgoing buffer is over its limit.',
  },
  IDLE_TIMEOUT: { category: 'DEADLINE_EXCEEDED', doc: 'The connection was idle (nothing in flight, no message) longer than the idle timeout.' },
  RESUME_EXPIRED: {
    category: 'NOT_FOUND',
    doc: 'The session or stream to resume is unknown, or its resume window or replay buffer no longer covers it.',
  },
  // system shared memory (Triton's shared-memory extension; docs/shared-memory.md)
  SHM_REGION_NOT_FOUND: { category: 'NOT_FOUND', doc: 'No system shared memory region is registered under that name.' },
  SHM_REGION_EXISTS: { category: 'ALREADY_EXISTS', doc: 'A shared memory region is already registered under that name; unregister it first.' },
  SHM_BAD_KEY: {
    category: 'INVALID_ARGUMENT',
    doc: 'A shared memory key is malformed (empty, a path, `..`) or names no shared memory object on this host.',
  },
  SHM_OUT_OF_RANGE: {
    category: 'INVALID_ARGUMENT',
    doc: 'An offset and byte size fall outside the shared memory object or region, or a region is too small for the output written into it.',
  },
  // engine and configuration
  ENGINE_UNAVAILABLE: { category: 'FAILED_PRECONDITION', doc: 'No configured execution provider could load the model on this machine.' },
  ENGINE_FAILED: { category: 'INTERNAL', doc: 'The engine failed while running a batch.' },
  ENGINE_DEVICE_FAILED: {
    category: 'UNAVAILABLE',
    doc: "The engine's device or execution provider failed while running a batch (not the request's fault); the model fails over to the next engine of its chain (docs/operations.md).",
  },
  ENGINE_RECOVERING: {
    category: 'UNAVAILABLE',
    doc: "Every engine in the model's chain failed; the model serves again once a health probe passes (docs/operations.md).",
  },
  MODEL_LOAD_FAILED: { category: 'INTERNAL', doc: 'The model failed to load.' },
  BAD_CONFIG: { category: 'INVALID_ARGUMENT', doc: 'A server or model configuration value is invalid.' },
  UNSUPPORTED: { category: 'UNIMPLEMENTED', doc: 'The operation is not supported (yet) by this server or model.' },
  UNSUPPORTED_MODEL_FORMAT: {
    category: 'UNIMPLEMENTED',
    doc: 'A model of the repository is in a format rtserve does not run (a TensorRT engine, a PyTorch, TensorFlow, Python or OpenVINO model, an ensemble); rtserve runs ONNX models, its own plans and Hugging Face checkpoints.',
  },
  INTERNAL: { category: 'INTERNAL', doc: 'An unexpected server error.' },
  // security (docs/security.md)
  UNAUTHENTICATED: {
    category: 'UNAUTHENTICATED',
    doc: 'The request carries no valid credentials (missing, unknown, expired or malformed API key or JWT).',
  },
  PERMISSION_DENIED: { category: 'PERMISSION_DENIED', doc: 'The credentials are valid but their scopes do not allow this operation on this model.' },
  RATE_LIMITED: {
    category: 'RESOURCE_EXHAUSTED',
    doc: 'A rate limit or concurrency cap (per principal, client IP or model) is exceeded; retry after the hinted delay.',
  },
  LIMIT_EXCEEDED: {
    category: 'PAYLOAD_TOO_LARGE',
    doc: 'The request exceeds a configured structural limit (JSON nesting or elements, inputs per request, elements per tensor, message size).',
  },
} as const satisfies Record<string, { category: ErrorCategory; doc: string }>);

export type ErrorCode = keyof typeof ERROR_CODES;

export interface RtErrorOptions {
  /** Hint for clients, in milliseconds, when retrying makes sense (429, 503). */
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
  /** The request field at fault (`n`, `messages[0].content`), for protocols whose errors name it (OpenAI's `param`). */
  readonly param?: string;
}

/** The only error type transports translate; anything else becomes INTERNAL without leaking details. */
export class RtError extends Error {
  readonly code: ErrorCode;
  readonly category: ErrorCategory;
  readonly retryAfterMs: number | undefined;
  readonly param: string | undefined;

  constructor(code: ErrorCode, message: string, options: RtErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RtError';
    this.code = code;
    this.category = ERROR_CODES[code].category;
    this.retryAfterMs = options.retryAfterMs;
    this.param = options.param;
  }

  get httpStatus(): number {
    return CATEGORY_MAPPING[this.category].http;
  }
  get grpcStatus(): number {
    return CATEGORY_MAPPING[this.category].grpc;
  }
  get wsCloseCode(): number {
    return CATEGORY_MAPPING[this.category].ws;
  }
  get retryable(): boolean {
    return CATEGORY_MAPPING[this.category].retryable;
  }
}

/** Shorthand constructor used across the code base. */
export function rtError(code: ErrorCode, message: string, options?: RtErrorOptions): RtError {
  return new RtError(code, message, options);
}

/**
 * Normalizes anything thrown into an RtError. Unknown errors become INTERNAL with a generic message so that
 * stack traces and library internals never reach a client; the original stays as `cause` for the logs.
 */
export function toRtError(err: unknown): RtError {
  if (err instanceof RtError) return err;
  if (err instanceof Error && err.name === 'AbortError') return new RtError('CANCELLED', 'request was cancelled', { cause: err });
  return new RtError('INTERNAL', 'internal server error', { cause: err });
}
