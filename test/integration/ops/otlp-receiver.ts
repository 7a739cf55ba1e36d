/**
 * An OTLP/HTTP protobuf traces receiver for the tracing tests: a real HTTP server in the test's process that
 * decodes each export with the OTLP trace .proto (the subset below, field numbers from opentelemetry-proto's
 * trace/v1 and collector/trace/v1) through protobufjs, and keeps the spans, resources and requests it got.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

const OTLP_TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { Scope scope = 1; repeated Span spans = 2; }
message Scope { string name = 1; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5;
  int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9;
  Status status = 15;
}
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
`;
const Request = protobuf.parse(OTLP_TRACE_PROTO, { keepCase: true }).root.lookupType('otlp.ExportTraceServiceRequest');

export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
  status: { code: number; message: string };
  service: unknown;
  /** Every attribute of the span's resource. */
  resource: Record<string, unknown>;
}

export function decode(body: Buffer): DecodedSpan[] {
  const msg = Request.toObject(Request.decode(body), { longs: String, bytes: Buffer, defaults: true }) as {
    resource_spans: {
      resource: { attributes: { key: string; value: Record<string, unknown> }[] };
      scope_spans: { spans: Record<string, unknown>[] }[];
    }[];
  };
  const attrs = (list: { key: string; value: Record<string, unknown> }[]): Record<string, unknown> =>
    Object.fromEntries(list.map((a) => [a.key, a.value['string_value'] ?? a.value['int_value'] ?? a.value['bool_value'] ?? a.value['double_value']]));
  return msg.resource_spans.flatMap((rs) =>
    rs.scope_spans.flatMap((ss) =>
      ss.spans.map((s) => ({
        traceId: (s['trace_id'] as Buffer).toString('hex'),
        spanId: (s['span_id'] as Buffer).toString('hex'),
        parentSpanId: (s['parent_span_id'] as Buffer).toString('hex'),
        name: s['name'] as string,
        kind: s['kind'] as number,
        start: BigInt(s['start_time_unix_nano'] as string),
        end: BigInt(s['end_time_unix_nano'] as string),
        attributes: attrs(s['attributes'] as { key: string; value: Record<string, unknown> }[]),
        status: s['status'] as { code: number; message: string },
        service: attrs(rs.resource.attributes)['service.name'],
        resource: attrs(rs.resource.attributes),
      })),
    ),
  );
}

/** One export request as received: method, path, headers. */
export interface ExportRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface OtlpReceiver {
  readonly port: number;
  readonly spans: DecodedSpan[];
  /** "METHOD path content-type" of each request, or "undecodable: ..." for a body that did not decode. */
  readonly contentTypes: string[];
  readonly requests: ExportRequest[];
  close(): Promise<void>;
}

/** Listens on a free loopback port; answers 200 to what decodes, 400 otherwise. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: DecodedSpan[] = [];
  const contentTypes: string[] = [];
  const requests: ExportRequest[] = [];
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      contentTypes.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers['content-type'] ?? ''}`);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      try {
        spans.push(...decode(Buffer.concat(chunks)));
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } catch (err) {
        contentTypes.push(`undecodable: ${String(err)}`);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    port: (receiver.address() as AddressInfo).port,
    spans,
    contentTypes,
    requests,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}
