/**
 * Triton's shared-memory extension over REST (docs/protocol.md §2.4; S:docs/protocol/extension_shared_memory.md):
 *
 *   GET  /v2/systemsharedmemory[/region/{r}]/status     → [{name, key, offset, byte_size}]
 *   POST /v2/systemsharedmemory/region/{r}/register     {key, offset?, byte_size} → 200, empty body
 *   POST /v2/systemsharedmemory[/region/{r}]/unregister → 200, empty body (one region, or all)
 *
 * Regions belong to the principal that registered them: every call acts on the caller's own (shm/system-shared-memory.ts).
 * The CUDA shared-memory paths (/v2/cudasharedmemory/...) answer UNSUPPORTED (501): this server has no CUDA
 * IPC. Errors use the registry like every other route (docs/errors.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InferenceApi } from '../../api/inference-api.ts';
import { cudaSharedMemoryUnsupported, systemSharedMemoryOf } from '../../shm/system-shared-memory.ts';
import { principalOf } from '../../security/http-guard.ts';
import { parseBodyWith, systemSharedMemoryRegisterSchema } from './schemas.ts';

type RegionRequest = FastifyRequest<{ Params: { region: string } }>;

/** The paths, for the route table, the security guard and the OpenAPI document. */
export const SYSTEM_SHM_PREFIX = '/v2/systemsharedmemory';
export const CUDA_SHM_PREFIX = '/v2/cudasharedmemory';

export function registerSharedMemoryRoutes(app: FastifyInstance, api: InferenceApi): void {
  const status = async (req: FastifyRequest<{ Params: { region?: string } }>) =>
    systemSharedMemoryOf(api).status(req.params.region, principalOf(req)?.id);
  app.get(`${SYSTEM_SHM_PREFIX}/status`, status);
  app.get(`${SYSTEM_SHM_PREFIX}/region/:region/status`, status);

  app.post(`${SYSTEM_SHM_PREFIX}/region/:region/register`, async (req: RegionRequest, reply: FastifyReply) => {
    const shm = systemSharedMemoryOf(api);
    const { region } = req.params;
    const body = parseBodyWith(systemSharedMemoryRegisterSchema, req.body, `register request of shared memory region '${region}'`);
    await shm.register(region, body.key, body.offset ?? 0, body.byte_size, principalOf(req)?.id);
    return reply.code(200).send();
  });

  const unregister = async (req: FastifyRequest<{ Params: { region?: string } }>, reply: FastifyReply) => {
    await systemSharedMemoryOf(api).unregister(req.params.region, principalOf(req)?.id);
    return reply.code(200).send();
  };
  app.post(`${SYSTEM_SHM_PREFIX}/unregister`, unregister);
  app.post(`${SYSTEM_SHM_PREFIX}/region/:region/unregister`, unregister);

  const cuda = async (): Promise<never> => cudaSharedMemoryUnsupported();
  app.get(`${CUDA_SHM_PREFIX}/status`, cuda);
  app.get(`${CUDA_SHM_PREFIX}/region/:region/status`, cuda);
  app.post(`${CUDA_SHM_PREFIX}/region/:region/register`, cuda);
  app.post(`${CUDA_SHM_PREFIX}/unregister`, cuda);
  app.post(`${CUDA_SHM_PREFIX}/region/:region/unregister`, cuda);
}
