/**
 * The browser demo (web/, docs/image.md "Live demo") on the HTTP port: GET / is the page, /demo/app.js its script,
 * /demo/style.css its styles. A fixed set of files: nothing here maps a URL path onto the file system.
 *
 * The script is bundled from web/src (with the client SDK it imports) by esbuild on the first request and kept in
 * memory (scripts/build-web.mjs holds the build; esbuild comes with the dev dependencies). Where esbuild is not
 * installed, a bundle written beforehand with `node scripts/build-web.mjs` (dist/web/app.js) is served instead.
 * Nothing is committed that could go stale when the SDK or what it imports changes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { packageRoot } from '../../util/package-root.ts';
import { rtError } from '../../errors/registry.ts';

export interface WebDemoOptions {
  /** The web/ directory; default: the package's. */
  readonly root?: string;
  /** Where scripts/build-web.mjs and the prebuilt dist/web/app.js are looked for; default: the package root. */
  readonly packageRoot?: string;
}

const FILES: readonly { readonly url: string; readonly file: readonly string[]; readonly type: string }[] = [
  { url: '/', file: ['index.html'], type: 'text/html; charset=utf-8' },
  { url: '/demo/style.css', file: ['style.css'], type: 'text/css; charset=utf-8' },
];

/** Per package root (one in a server; tests use others): the bundle, or its pending build. */
const bundles = new Map<string, Promise<string>>();

/** The demo script: built in memory once per process, else the prebuilt file. */
export function demoBundle(root: string = packageRoot()): Promise<string> {
  let bundle = bundles.get(root);
  if (bundle !== undefined) return bundle;
  bundle = (async () => {
    let buildError: unknown;
    try {
      const script = pathToFileURL(join(root, 'scripts', 'build-web.mjs')).href;
      const mod = (await import(script)) as { buildWebBundle: () => Promise<string> };
      return await mod.buildWebBundle();
    } catch (err) {
      buildError = err;
    }
    try {
      return await readFile(join(root, 'dist', 'web', 'app.js'), 'utf8');
    } catch {
      const why = buildError instanceof Error ? buildError.message.split('\n')[0] : String(buildError);
      throw rtError(
        'ROUTE_NOT_FOUND',
        `the demo script is not available: bundling web/src failed (${why}) and there is no prebuilt dist/web/app.js (run \`node scripts/build-web.mjs\`)`,
      );
    }
  })();
  bundles.set(root, bundle);
  // A failed build is retried on the next request (after a fix, once esbuild is installed, or the prebuilt file is written).
  bundle.catch(() => {
    bundles.delete(root);
  });
  return bundle;
}

// The page loads only its own script and styles, talks only to this server (fetch and WebSocket), and draws
// frames from blob: and data: URLs.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'";

const headersOf = (reply: FastifyReply, type: string): FastifyReply =>
  reply.header('content-security-policy', CSP).header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache').type(type);

export function registerWebDemo(app: FastifyInstance, options: WebDemoOptions = {}): void {
  const root = options.root ?? join(packageRoot(), 'web');
  const pkg = options.packageRoot ?? packageRoot();
  app.get('/demo/app.js', async (_req, reply: FastifyReply) => headersOf(reply, 'text/javascript; charset=utf-8').send(await demoBundle(pkg)));
  for (const f of FILES) {
    app.get(f.url, async (_req, reply: FastifyReply) => {
      let body: Buffer;
      try {
        body = await readFile(join(root, ...f.file));
      } catch {
        throw rtError('ROUTE_NOT_FOUND', `the demo file web/${f.file.join('/')} is missing`);
      }
      return headersOf(reply, f.type).send(body);
    });
  }
}
