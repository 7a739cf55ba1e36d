import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Interactive API docs at /docs, served from the swagger-ui-dist package (no CDN: works offline), pointed at
 * /openapi.json.
 */
export async function registerDocsRoutes(app: FastifyInstance): Promise<void> {
  const dir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/docs/:asset', async (req, reply) => {
    const asset = (req.params as { asset: string }).asset;
    const type = ASSETS[asset];
    if (type === undefined) return reply.code(404).send({ error: `no docs asset '${asset}'` });
    let body = cache.get(asset);
    if (body === undefined) {
      body = await readFile(join(dir, asset));
      cache.set(asset, body);
    }
    return reply.type(type).header('cache-control', 'public, max-age=3600').send(body);
  });
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>rtserve API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
</script>
</body>
</html>
`;
