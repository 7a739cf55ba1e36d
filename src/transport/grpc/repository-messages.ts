import type { ModelConfig } from '../../config/model-config.ts';
import { rtError } from '../../errors/registry.ts';
import { refuseModelFiles } from '../../codec/load-parameters.ts';

/** The messages of the model metadata and repository RPCs as the proto-loader codec hands them over, and their checks. */

export interface ModelRef {
  name: string;
  version: string;
}

export interface RepositoryParameter {
  parameter_choice?: string;
  bool_param?: boolean;
  int64_param?: number;
  string_param?: string;
  bytes_param?: Uint8Array;
}

export interface RepositoryModelRequest {
  repository_name: string;
  model_name: string;
  parameters: Record<string, RepositoryParameter>;
}

export function checkRepositoryName(name: string): void {
  if (name !== '') throw rtError('UNSUPPORTED', `repository_name '${name}': rtserve serves its repositories as one; leave repository_name empty`);
}

/** The load request's `config` parameter (a JSON ModelConfig, docs/protocol.md §1.4 "Load params"). */
export function loadConfigParameter(params: Record<string, RepositoryParameter>): string | undefined {
  refuseModelFiles(Object.keys(params));
  let config: string | undefined;
  for (const [key, p] of Object.entries(params)) {
    if (key === 'config') {
      if (p.parameter_choice !== 'string_param' || typeof p.string_param !== 'string') {
        throw rtError('BAD_PARAMETER', "load parameter 'config' must be a string_param holding a JSON ModelConfig");
      }
      config = p.string_param;
    }
  }
  return config;
}

/**
 * The model configuration as the ModelConfig message (proto/model_config.proto keeps Triton's names, so the
 * JSON spelling maps field for field). rtserve's own `engine` section has no Triton field and is left out.
 */
export function configMessage(config: ModelConfig): Record<string, unknown> {
  const { engine: _engine, ...triton } = config;
  return triton;
}
