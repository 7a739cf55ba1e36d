import {
  errorSchema,
  inferRequestSchema,
  inferResponseSchema,
  loadRequestSchema,
  modelMetadataSchema,
  modelReadySchema,
  repositoryIndexRequestSchema,
  repositoryIndexResponseSchema,
  serverMetadataSchema,
  statisticsSchema,
  systemSharedMemoryRegisterSchema,
  systemSharedMemoryStatusSchema,
  unloadRequestSchema,
} from './schemas.ts';
import { RTSERVE_VERSION } from '../../util/version.ts';
import { jsonContent as json, modelParam, modelPaths, okResponses as ok, type JsonObject } from './openapi-common.ts';
import { addGeneratePaths, addOpenAiPaths, addOperationsPaths, addPagePaths } from './openapi-extension-paths.ts';

/**
 * OpenAPI 3.1 document for every route of the REST front end, generated from the zod schemas the routes validate
 * with (schemas.ts, openai-schemas.ts, the logging settings; OpenAPI 3.1 uses JSON Schema 2020-12, which zod emits
 * directly). test/integration/http/openapi-coverage.test.ts fails when a registered route is missing from it.
 */
export function buildOpenApiDocument(): JsonObject {
  const paths: JsonObject = {};
  const both = (base: string, op: JsonObject, method: 'get' | 'post'): void => modelPaths(paths, base, method, op);
  paths['/v2/health/live'] = {
    get: { summary: 'Server live (200 live, 400 not)', responses: { '200': { description: 'live' }, '400': { description: 'not live' } } },
  };
  paths['/v2/health/ready'] = {
    get: { summary: 'Server ready (200 ready, 400 not)', responses: { '200': { description: 'ready' }, '400': { description: 'not ready' } } },
  };
  paths['/healthz'] = {
    get: { summary: 'Liveness probe alias (200 / 503)', responses: { '200': { description: 'ok' }, '503': { description: 'not live' } } },
  };
  paths['/readyz'] = {
    get: { summary: 'Readiness probe alias (200 / 503)', responses: { '200': { description: 'ok' }, '503': { description: 'not ready' } } },
  };
  paths['/v2'] = { get: { summary: 'Server metadata', responses: ok('server metadata', serverMetadataSchema) } };
  both('', { summary: 'Model metadata', responses: ok('model metadata', modelMetadataSchema) }, 'get');
  both('/ready', { summary: 'Model ready (200 ready, 400 not)', responses: ok('ready', modelReadySchema) }, 'get');
  both('/config', { summary: 'Model configuration (Triton model_configuration extension)', responses: ok('ModelConfig as JSON') }, 'get');
  both('/stats', { summary: 'Model statistics (Triton statistics extension)', responses: ok('statistics', statisticsSchema) }, 'get');
  both(
    '/infer',
    {
      summary: 'Inference (KServe v2; binary tensor data extension with Inference-Header-Content-Length)',
      requestBody: {
        required: true,
        content: {
          ...json(inferRequestSchema),
          'application/octet-stream': {
            schema: { type: 'string', contentMediaType: 'application/octet-stream' },
            description: 'JSON header of Inference-Header-Content-Length bytes, then tensor bytes in input order',
          },
        },
      },
      responses: {
        ...ok('inference response', inferResponseSchema),
        '429': { description: 'Queue full; see Retry-After', content: json(errorSchema) },
        '413': { description: 'Body over the size limit', content: json(errorSchema) },
      },
    },
    'post',
  );
  paths['/v2/models/stats'] = { get: { summary: 'Statistics of every model', responses: ok('statistics', statisticsSchema) } };
  paths['/v2/repository/index'] = {
    post: {
      summary: 'Repository index',
      requestBody: { content: json(repositoryIndexRequestSchema) },
      responses: ok('index', repositoryIndexResponseSchema),
    },
  };
  paths['/v2/repository/models/{model}/load'] = {
    post: { summary: 'Load or reload a model', parameters: [modelParam], requestBody: { content: json(loadRequestSchema) }, responses: ok('loaded') },
  };
  paths['/v2/repository/models/{model}/unload'] = {
    post: { summary: 'Unload a model', parameters: [modelParam], requestBody: { content: json(unloadRequestSchema) }, responses: ok('unloaded') },
  };
  // Triton's system shared memory extension (docs/shared-memory.md); the CUDA paths answer 501.
  const regionParam = { name: 'region', in: 'path', required: true, schema: { type: 'string' } };
  const shm = '/v2/systemsharedmemory';
  paths[`${shm}/status`] = {
    get: { summary: 'Status of every registered system shared memory region', responses: ok('regions', systemSharedMemoryStatusSchema) },
  };
  paths[`${shm}/region/{region}/status`] = {
    get: {
      summary: 'Status of one system shared memory region (404 when not registered)',
      parameters: [regionParam],
      responses: ok('region', systemSharedMemoryStatusSchema),
    },
  };
  paths[`${shm}/region/{region}/register`] = {
    post: {
      summary: 'Register a byte range of a POSIX shared memory object (/dev/shm) as a region',
      parameters: [regionParam],
      requestBody: { required: true, content: json(systemSharedMemoryRegisterSchema) },
      responses: ok('registered'),
    },
  };
  paths[`${shm}/unregister`] = { post: { summary: 'Unregister every system shared memory region', responses: ok('unregistered') } };
  paths[`${shm}/region/{region}/unregister`] = {
    post: {
      summary: 'Unregister one system shared memory region (in-flight requests that use it finish first)',
      parameters: [regionParam],
      responses: ok('unregistered'),
    },
  };
  const cudaUnsupported = { '501': { description: 'CUDA shared memory is not supported by this server', content: json(errorSchema) } };
  for (const [path, method] of [
    ['/status', 'get'],
    ['/region/{region}/status', 'get'],
    ['/region/{region}/register', 'post'],
    ['/unregister', 'post'],
    ['/region/{region}/unregister', 'post'],
  ] as const) {
    paths[`/v2/cudasharedmemory${path}`] = {
      [method]: {
        summary: 'CUDA shared memory (not supported: 501)',
        ...(path.includes('{region}') ? { parameters: [regionParam] } : {}),
        responses: cudaUnsupported,
      },
    };
  }
  addGeneratePaths(paths);
  addOpenAiPaths(paths);
  addOperationsPaths(paths);
  addPagePaths(paths);
  return {
    openapi: '3.1.0',
    info: { title: 'rtserve REST API (KServe v2 / Open Inference Protocol, OpenAI-compatible routes)', version: RTSERVE_VERSION },
    paths,
  };
}
