/**
 * The part of the WebSocket API the SDK uses — the browser's `WebSocket` and the `ws` package's both fit — and
 * how the SDK finds an implementation: `globalThis.WebSocket` when the platform has one, else a factory the
 * caller injects (node.ts injects `ws`, which can also send an Authorization header).
 */
export interface WebSocketMessageEvent {
  readonly data: unknown;
}
export interface WebSocketCloseEvent {
  readonly code: number;
  readonly reason: string;
}

export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly protocol: string;
  send(data: string | ArrayBufferView | ArrayBuffer): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: WebSocketMessageEvent) => void) | null;
  onclose: ((event: WebSocketCloseEvent) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** readyState values (WHATWG WebSockets §"readyState"). */
export const WS_OPEN = 1;

/** Opens a socket to `url` offering `protocols`. */
export type WebSocketFactory = (url: string, protocols: string[]) => WebSocketLike;

/** The platform's WebSocket (browsers, Node ≥ 22), or undefined. */
export function platformWebSocketFactory(): WebSocketFactory | undefined {
  const Ctor = (globalThis as { WebSocket?: new (url: string, protocols?: string[]) => unknown }).WebSocket;
  if (Ctor === undefined) return undefined;
  return (url, protocols) => new Ctor(url, protocols) as WebSocketLike;
}
