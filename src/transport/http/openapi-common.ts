import { z } from 'zod';
import { errorSchema } from './schemas.ts';

/** Building blocks of /openapi.json (openapi.ts): JSON Schema 2020-12 from zod, which OpenAPI 3.1 uses as it is. */
export type JsonObject = Record<string, unknown>;

export const jsonContent = (schema: z.ZodType): JsonObject => ({
  'application/json': { schema: z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) },
});

/** A 200 answer (with its body's schema) and the error body for every other status. */
export const okResponses = (description: string, schema?: z.ZodType, error: z.ZodType = errorSchema): JsonObject => ({
  '200': schema === undefined ? { description } : { description, content: jsonContent(schema) },
  default: { description: 'Error', content: jsonContent(error) },
});

export const pathParam = (name: string): JsonObject => ({ name, in: 'path', required: true, schema: { type: 'string' } });
export const modelParam = pathParam('model');
export const versionParam = pathParam('version');

/** `/v2/models/{model}<suffix>` and its `/versions/{version}` form, with the same operation. */
export function modelPaths(paths: JsonObject, suffix: string, method: 'get' | 'post', op: JsonObject): void {
  paths[`/v2/models/{model}${suffix}`] = { ...(paths[`/v2/models/{model}${suffix}`] as JsonObject), [method]: { ...op, parameters: [modelParam] } };
  const versioned = `/v2/models/{model}/versions/{version}${suffix}`;
  paths[versioned] = { ...(paths[versioned] as JsonObject), [method]: { ...op, parameters: [modelParam, versionParam] } };
}

/** Adds an operation to a path, keeping the path's other methods. */
export function addOperation(paths: JsonObject, path: string, method: 'get' | 'post', op: JsonObject): void {
  paths[path] = { ...(paths[path] as JsonObject | undefined), [method]: op };
}
