/**
 * The browser demo (web/, docs/image.md "Live demo") on the HTTP port: GET / is the page, /demo/app.js its bundle
 * (built by scripts/build-web.mjs and committed, so the server needs no build tools), /demo/style.css its styles.
 * A fixed set of files: nothing here maps a URL path onto the file system.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { packageRoot } from '../../core/package-root.ts';
import { rtError } from '../../errors/registry.ts';

export interface WebDemoOptions {
  /** The web/ directory; default: the package's. */
  readonly root?: string;
}

const FILES: readonly { readonly url: string; readonly file: readonly string[]; readonly type: string }[] = [
  { url: '/', file: ['index.html'], type: 'text/html; charset=utf-8' },
  { url: '/demo/app.js', file: ['build', 'app.js'], type: 'text/javascript; charset=utf-8' },
  { url: '/demo/style.css', file: ['style.css'], type: 'text/css; charset=utf-8' },
];

// The page loads only its own script and styles, talks only to this server (fetch and WebSocket), and draws
// frames from blob: and data: URLs.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'";

export function registerWebDemo(app: FastifyInstance, options: WebDemoOptions = {}): void {
  const root = options.root ?? join(packageRoot(), 'web');
  for (const f of FILES) {
    app.get(f.url, async (_req, reply: FastifyReply) => {
      let body: Buffer;
      try {
        body = await readFile(join(root, ...f.file));
      } catch {
        throw rtError('ROUTE_NOT_FOUND', `the demo file ${f.file.join('/')} is missing${f.file[0] === 'build' ? ' (build it with `node scripts/build-web.mjs`)' : ''}`);
      }
      return reply
        .header('content-security-policy', CSP)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .type(f.type)
        .send(body);
    });
  }
}
