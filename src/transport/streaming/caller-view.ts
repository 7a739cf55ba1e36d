/**
 * What one caller may see of the model list, on the front ends that list models (REST, gRPC, the OpenAI routes;
 * docs/security.md "Low-severity holes"): the statistics of every model, and the models a 404 suggests, are only
 * the models its patterns cover, as GET /v1/models lists them. Without a principal (auth off, or an open
 * operation) the caller sees every model.
 */
import type { InferenceApi } from '../../api/inference-api.ts';
import { RtError, rtError } from '../../errors/registry.ts';
import type { ModelStatsSnapshot } from '../../observability/model-stats.ts';
import { mayUseModel, visibleModels, type Principal } from '../../security/principal.ts';

/** Statistics of `name` (every model when undefined), keeping only the models the caller may use. */
export async function statisticsFor(
  api: Pick<InferenceApi, 'modelStatistics'>,
  principal: Principal | undefined,
  name?: string,
  version?: string,
): Promise<ModelStatsSnapshot[]> {
  const all = await api.modelStatistics(name, version);
  return principal === undefined ? all : all.filter((s) => mayUseModel(principal, s.name));
}

/**
 * A MODEL_NOT_FOUND error with the ready models the caller may use appended; any other error as it is. The core's
 * own message names no other model, so a front end that does not call this leaks nothing, it only suggests less.
 */
export function withVisibleModels(err: unknown, api: Pick<InferenceApi, 'repositoryIndex'>, principal: Principal | undefined): unknown {
  if (!(err instanceof RtError) || err.code !== 'MODEL_NOT_FOUND') return err;
  const names = visibleModels(
    principal,
    api.repositoryIndex(true).map((e) => e.name),
  ).sort();
  return names.length === 0 ? err : rtError('MODEL_NOT_FOUND', `${err.message} (models: ${names.join(', ')})`, { cause: err });
}
