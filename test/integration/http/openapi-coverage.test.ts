/**
 * /openapi.json against the routes the real server registers (fastify's onRoute hook, recorded by trackRoutes):
 * every route is in the document and every path of the document is a route; its schemas are valid JSON Schema
 * 2020-12 (what OpenAPI 3.1 uses), and those of the validated bodies are the routes' own zod schemas.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { registeredRoutes } from '../../../src/security/route-table.ts';
import { logSettingsPatchSchema } from '../../../src/observability/logger.ts';
import { chatCompletionRequestSchema, completionRequestSchema } from '../../../src/transport/http/openai-schemas.ts';
import { systemSharedMemoryRegisterSchema } from '../../../src/transport/http/schemas.ts';
import { startTestServer } from '../../helpers/server.ts';

type Operation = {
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** fastify's `/v2/models/:model/infer` as OpenAPI writes it: `/v2/models/{model}/infer`. */
const openApiPath = (url: string): string => url.replace(/:([A-Za-z_]+)/g, '{$1}');

let server: RunningServer;
let doc: Document;
before(async () => {
  // Auth on registers the WebSocket ticket route; the bundled repository has charlm, so the OpenAI routes exist.
  server = await startTestServer({ auth: { enabled: true, apiKeys: [{ id: 'k', sha256: 'a'.repeat(64), scopes: ['admin'] }] } });
  const res = await fetch(`${server.httpUrl}/openapi.json`);
  assert.equal(res.status, 200);
  doc = (await res.json()) as Document;
});
after(async () => server?.close());

describe('/openapi.json covers the registered routes', () => {
  test('every registered route is an operation of the document, and every operation a registered route', () => {
    assert.equal(doc.openapi, '3.1.0');
    const routes = registeredRoutes(server.http).filter((r) => !r.startsWith('HEAD '));
    assert.ok(routes.length > 50, `only ${routes.length} routes recorded`);
    const missing = routes.filter((r) => {
      const [method, url] = r.split(' ') as [string, string];
      return doc.paths[openApiPath(url)]?.[method.toLowerCase()] === undefined;
    });
    assert.deepEqual(missing, [], 'routes the server registers but /openapi.json leaves out');
    const registered = new Set(routes.map((r) => openApiPath(r).replace(/^(\w+) /, (_m, m: string) => `${m.toLowerCase()} `)));
    const phantom = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .map((method) => `${method} ${path}`)
        .filter((op) => !registered.has(op)),
    );
    assert.deepEqual(phantom, [], 'operations in /openapi.json that no route serves');
  });

  test('every schema in it compiles as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    let schemas = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const contents = [op.requestBody?.content, ...Object.values(op.responses).map((r) => r.content)];
        for (const content of contents) {
          for (const [type, media] of Object.entries(content ?? {})) {
            if (media.schema === undefined) continue;
            assert.doesNotThrow(() => ajv.compile(media.schema as object), `${method} ${path} ${type}`);
            schemas++;
          }
        }
      }
    }
    assert.ok(schemas > 60, `${schemas} schemas`);
  });

  test('the validated bodies are described by the schemas the routes validate with', () => {
    const requestSchema = (path: string): unknown => doc.paths[path]?.['post']?.requestBody?.content['application/json']?.schema;
    const emitted = (schema: z.ZodType): unknown =>
      JSON.parse(JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' })));
    assert.deepEqual(requestSchema('/v1/completions'), emitted(completionRequestSchema));
    assert.deepEqual(requestSchema('/v1/chat/completions'), emitted(chatCompletionRequestSchema));
    assert.deepEqual(requestSchema('/v2/logging'), emitted(logSettingsPatchSchema));
    assert.deepEqual(requestSchema('/v2/systemsharedmemory/region/{region}/register'), emitted(systemSharedMemoryRegisterSchema));
  });
});
