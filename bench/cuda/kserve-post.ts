/**
 * One KServe v2 REST binary request with node:http (keep-alive through the caller's Agent), for the served-frame load
 * generators (jpeg-served.ts, camera-streams.ts). Never throws: a refused or reset connection is status 0 with its
 * message, so a server that goes away ends a run with counted errors instead of a crash.
 */
import { type Agent, request } from 'node:http';

export interface PostBody {
  readonly body: Uint8Array;
  /** The JSON header's length when binary tensors follow it (Inference-Header-Content-Length). */
  readonly headerLength?: number | undefined;
}

export interface PostAnswer {
  readonly status: number;
  /** The answer's bytes: always for status 200 when `keepBody`, and the first 300 characters of a failure's. */
  readonly body: Buffer | undefined;
  /** The answer's Inference-Header-Content-Length (binary outputs follow its JSON). */
  readonly headerLength?: number | undefined;
  readonly error?: string;
}

export function postInfer(url: URL, agent: Agent, b: PostBody, keepBody = false): Promise<PostAnswer> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': b.body.byteLength,
          ...(b.headerLength === undefined ? {} : { 'inference-header-content-length': b.headerLength }),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const keep = status !== 200 || keepBody;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (keep) chunks.push(c);
        });
        res.on('end', () => {
          const body = keep ? Buffer.concat(chunks) : undefined;
          const h = res.headers['inference-header-content-length'];
          const headerLength = typeof h === 'string' ? Number(h) : undefined;
          resolve({ status, body: status === 200 ? body : body?.subarray(0, 300), headerLength });
        });
      },
    );
    req.on('error', (e) => resolve({ status: 0, body: undefined, error: e.message }));
    req.end(b.body);
  });
}
