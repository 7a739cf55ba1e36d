/**
 * POST /v2/models/{model}[/versions/{version}]/image — one encoded image in, labels and scores or boxes out, as
 * JSON (docs/image.md). The body is the image itself (Content-Type image/jpeg, image/png, image/webp or
 * application/octet-stream), a multipart/form-data form (RFC 7578) whose file part is named `image` or `file`
 * (or is the only file), or JSON `{"image": "<base64 or data: URL>"}`. Options come from the query string or,
 * for JSON and forms, from fields of the same names: top_k, score_threshold, iou_threshold, max_detections.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InferenceApi } from '../../api/inference-api.ts';
import type { Tensor } from '../../tensor/tensor.ts';
import { rtError } from '../../errors/registry.ts';
import type { Logger } from '../../observability/logger.ts';
import { requestContextOf } from '../../observability/http-observability.ts';
import type { ImageRequest, ImageResult } from '../../api/image-types.ts';
import { parseJsonBytes } from '../../codec/json-body.ts';

export interface ImageRouteOptions {
  readonly api: InferenceApi;
  readonly logger: Logger;
}

interface ModelParams {
  model: string;
  version?: string;
}

const OPTION_NAMES = ['top_k', 'score_threshold', 'iou_threshold', 'max_detections'] as const;
type OptionName = (typeof OPTION_NAMES)[number];

interface ImageBody {
  readonly bytes: Uint8Array;
  readonly fields: ReadonlyMap<string, string | number>;
}

/** `type/subtype` lower-cased, and its parameters (RFC 9110 §8.3.1). */
export function parseMediaType(header: string | undefined): { type: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  if (header === undefined) return { type: '', params };
  const [type = '', ...rest] = header.split(';');
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    params.set(p.slice(0, eq).trim().toLowerCase(), v);
  }
  return { type: type.trim().toLowerCase(), params };
}

export interface MultipartPart {
  readonly name: string | undefined;
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
  readonly data: Buffer;
}

/** multipart/form-data (RFC 7578, framing from RFC 2046 §5.1.1) over a fully buffered, size-limited body. */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  if (boundary === '' || boundary.length > 70) throw rtError('BAD_REQUEST', 'multipart/form-data: missing or invalid boundary parameter');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw rtError('BAD_REQUEST', 'multipart/form-data: the body has no boundary line');
  for (;;) {
    pos += delimiter.length;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return parts; // closing delimiter "--boundary--"
    // Skip transport padding and the CRLF after the delimiter.
    while (body[pos] === 0x20 || body[pos] === 0x09) pos++;
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) pos += 2;
    else throw rtError('BAD_REQUEST', 'multipart/form-data: malformed boundary line');
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) throw rtError('BAD_REQUEST', 'multipart/form-data: a part has no end of headers');
    const headers = new Map<string, string>();
    for (const line of body.subarray(pos, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw rtError('BAD_REQUEST', 'multipart/form-data: the body ends inside a part (no closing boundary)');
    const disposition = parseMediaType(headers.get('content-disposition'));
    parts.push({
      name: disposition.params.get('name'),
      filename: disposition.params.get('filename'),
      contentType: headers.get('content-type'),
      data: body.subarray(headerEnd + 4, next),
    });
    pos = next + 2;
  }
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function decodeBase64Image(value: unknown): Uint8Array {
  if (typeof value !== 'string')
    throw rtError('BAD_REQUEST', `JSON field 'image' must be a base64 string, got ${value === null ? 'null' : typeof value}`);
  let text = value;
  const comma = text.indexOf(',');
  if (text.startsWith('data:') && comma > 0) {
    if (!text.slice(0, comma).endsWith(';base64'))
      throw rtError('BAD_REQUEST', "JSON field 'image': a data: URL must be base64-encoded (';base64,')");
    text = text.slice(comma + 1);
  }
  text = text.replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 === 1) throw rtError('BAD_REQUEST', "JSON field 'image' is not valid base64");
  return Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
}

function readBody(req: FastifyRequest): ImageBody {
  const body = req.body instanceof Buffer ? req.body : Buffer.alloc(0);
  const { type, params } = parseMediaType(req.headers['content-type']);
  if (type === 'multipart/form-data') {
    const parts = parseMultipart(body, params.get('boundary') ?? '');
    const fields = new Map<string, string | number>();
    for (const p of parts)
      if (p.filename === undefined && p.name !== undefined && p.name !== 'image' && p.name !== 'file') fields.set(p.name, p.data.toString('utf8'));
    const files = parts.filter((p) => p.filename !== undefined);
    const image = parts.find((p) => p.name === 'image' || p.name === 'file') ?? (files.length === 1 ? files[0] : undefined);
    if (image === undefined) {
      throw rtError(
        'BAD_REQUEST',
        `multipart/form-data: no image part (name it 'image' or 'file'; found ${parts.length === 0 ? 'no parts' : parts.map((p) => `'${p.name ?? '?'}'`).join(', ')})`,
      );
    }
    return { bytes: image.data, fields };
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    const json = parseJsonBytes(body, 'the request body');
    if (json === null || typeof json !== 'object' || Array.isArray(json))
      throw rtError('BAD_JSON', 'the request body must be a JSON object {"image": "<base64>"}');
    const obj = json as Record<string, unknown>;
    if (!('image' in obj)) throw rtError('BAD_REQUEST', "the JSON body has no 'image' field (base64 of the encoded image)");
    const fields = new Map<string, string | number>();
    for (const name of OPTION_NAMES) {
      const v = obj[name];
      if (v === undefined) continue;
      if (typeof v !== 'number' && typeof v !== 'string') throw rtError('BAD_PARAMETER', `${name} must be a number`);
      fields.set(name, v);
    }
    return { bytes: decodeBase64Image(obj['image']), fields };
  }
  if (type === '' || type === 'application/octet-stream' || type.startsWith('image/')) return { bytes: body, fields: new Map() };
  throw rtError(
    'BAD_REQUEST',
    `unsupported Content-Type '${type}': send the image itself (image/jpeg, image/png, image/webp), multipart/form-data or JSON {"image": "<base64>"}`,
  );
}

function optionsFrom(req: FastifyRequest, fields: ReadonlyMap<string, string | number>): Partial<Record<OptionName, number>> {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const out: Partial<Record<OptionName, number>> = {};
  for (const name of OPTION_NAMES) {
    const raw = fields.get(name) ?? query[name];
    if (raw === undefined) continue;
    const text = Array.isArray(raw) ? raw[0] : raw;
    const v = typeof text === 'number' ? text : typeof text === 'string' && text.trim() !== '' ? Number(text) : Number.NaN;
    if (!Number.isFinite(v)) throw rtError('BAD_PARAMETER', `${name} must be a number, got ${JSON.stringify(text)}`);
    out[name] = v;
  }
  return out;
}

/** Output tensors of a model without postprocess, as KServe JSON outputs. */
function tensorJson(t: Tensor): { name: string; datatype: string; shape: readonly number[]; data: unknown[] } {
  const d = t.data;
  const data: unknown[] = Array.isArray(d)
    ? d.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'))
    : d instanceof BigInt64Array || d instanceof BigUint64Array
      ? Array.from(d, (v) => Number(v))
      : Array.from(d as ArrayLike<number>);
  return { name: t.name, datatype: t.datatype, shape: t.shape, data };
}

export function imageResultJson(result: ImageResult): unknown {
  return result.type === 'tensors' ? { ...result, outputs: result.outputs.map(tensorJson) } : result;
}

export function registerImageRoutes(app: FastifyInstance, options: ImageRouteOptions): void {
  const { api } = options;
  // The request pipeline's image layer answers (pipeline/images.ts); an API without it has no image route.
  const inferImage =
    api.inferImage?.bind(api) ??
    ((): Promise<ImageResult> => Promise.reject(rtError('UNSUPPORTED', 'this server has no image pipeline (InferenceApi.inferImage)')));
  const handler = async (req: FastifyRequest<{ Params: ModelParams }>, reply: FastifyReply) => {
    const { model, version } = req.params;
    const { bytes, fields } = readBody(req);
    const o = optionsFrom(req, fields);
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    const requestId = req.headers['x-request-id'];
    const request: ImageRequest = {
      model,
      bytes,
      ...(version === undefined ? {} : { version }),
      ...(typeof requestId === 'string' && requestId !== '' ? { id: requestId.slice(0, 256) } : {}),
      signal: controller.signal,
      protocol: 'http',
      context: requestContextOf(req.raw),
      ...(o.top_k === undefined ? {} : { topK: o.top_k }),
      ...(o.score_threshold === undefined ? {} : { scoreThreshold: o.score_threshold }),
      ...(o.iou_threshold === undefined ? {} : { iouThreshold: o.iou_threshold }),
      ...(o.max_detections === undefined ? {} : { maxDetections: o.max_detections }),
    };
    const result = await inferImage(request);
    return reply
      .code(200)
      .type('application/json')
      .send(JSON.stringify(imageResultJson(result)));
  };
  app.post('/v2/models/:model/image', handler);
  app.post('/v2/models/:model/versions/:version/image', handler);
}
