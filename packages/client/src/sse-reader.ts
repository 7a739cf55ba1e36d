/**
 * A small Server-Sent Events parser over a fetch body (WHATWG HTML §9.2.6 "Interpreting an event stream"):
 * lines ending in LF, CRLF or CR; `data:` lines joined by LF; `event:`, `id:` fields; comment lines (`:`) and
 * unknown fields ignored; a blank line dispatches the event. Browser-safe.
 */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const m = /\r\n|\r|\n/.exec(buffer);
        // A lone CR at the end may be the first half of CRLF: wait for more.
        if (m === null || (m[0] === '\r' && m.index === buffer.length - 1)) break;
        const line = buffer.slice(0, m.index);
        buffer = buffer.slice(m.index + m[0].length);
        if (line === '') {
          if (data.length > 0) yield { event: event === '' ? 'message' : event, data: data.join('\n'), id };
          data = [];
          event = '';
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value2 = colon < 0 ? '' : line.slice(colon + 1);
        if (value2.startsWith(' ')) value2 = value2.slice(1);
        if (field === 'data') data.push(value2);
        else if (field === 'event') event = value2;
        else if (field === 'id' && !value2.includes('\0')) id = value2;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
