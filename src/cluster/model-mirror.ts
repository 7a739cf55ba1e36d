/**
 * What a front-end worker knows of the engine owner without asking (docs/workers.md): liveness, readiness, server
 * metadata, the repository index, and each model version's metadata, config, readiness and output labels — the
 * answers of InferenceApi's synchronous methods. The owner takes a snapshot of its API and sends it when the
 * repository says it changed (ahead of the answers sent after the change, so the worker that asked for a load
 * already sees the result: owner-hub.ts); statistics
 * and shared memory status are asked for each time instead, since they change with every request.
 */
import type { InferenceApi, ModelMetadata, RepositoryIndexEntry, ServerMetadata } from '../api/inference-api.ts';
import type { ModelConfig } from '../config/model-config.ts';
import { rtError } from '../errors/registry.ts';
import { errorFromWire, errorToWire } from './rpc-peer.ts';

type Answer<T> = { readonly ok: T } | { readonly error: ReturnType<typeof errorToWire> };

interface VersionAnswers {
  readonly metadata: Answer<ModelMetadata>;
  readonly config: Answer<ModelConfig>;
  readonly ready: Answer<boolean>;
  /** Output name → labels, of the version the answers are about. */
  readonly labels: Readonly<Record<string, readonly string[]>>;
  /** InferenceApi.frameInputOf: the input its engine fills from encoded frames, if any. */
  readonly frameInput?: string;
}

export interface MirrorSnapshot {
  readonly live: boolean;
  readonly ready: boolean;
  readonly server: ServerMetadata;
  readonly index: readonly RepositoryIndexEntry[];
  readonly readyIndex: readonly RepositoryIndexEntry[];
  /** Model → version ('' = the version policy's choice) → answers. */
  readonly models: Readonly<Record<string, Readonly<Record<string, VersionAnswers>>>>;
}

function answer<T>(f: () => T): Answer<T> {
  try {
    return { ok: f() };
  } catch (err) {
    return { error: errorToWire(err) };
  }
}

/** The owner's side: the snapshot of `api` as it is now. */
export function takeSnapshot(api: InferenceApi): MirrorSnapshot {
  const index = api.repositoryIndex(false);
  const models: Record<string, Record<string, VersionAnswers>> = {};
  for (const name of new Set(index.map((e) => e.name))) {
    const versions = new Set(['', ...index.filter((e) => e.name === name && e.version !== undefined).map((e) => e.version as string)]);
    const byVersion: Record<string, VersionAnswers> = {};
    for (const v of versions) {
      const version = v === '' ? undefined : v;
      const metadata = answer(() => api.modelMetadata(name, version));
      const labels: Record<string, readonly string[]> = {};
      if ('ok' in metadata) {
        const resolved = version ?? metadata.ok.versions[0];
        for (const o of metadata.ok.outputs) {
          const l = resolved === undefined ? undefined : api.outputLabels(name, resolved, o.name);
          if (l !== undefined) labels[o.name] = l;
        }
      }
      const frameInput = api.frameInputOf?.(name, version);
      byVersion[v] = {
        metadata,
        config: answer(() => api.modelConfig(name, version)),
        ready: answer(() => api.modelReady(name, version)),
        labels,
        ...(frameInput === undefined ? {} : { frameInput }),
      };
    }
    models[name] = byVersion;
  }
  return {
    live: api.isLive(),
    ready: api.isReady(),
    server: api.serverMetadata(),
    index,
    readyIndex: api.repositoryIndex(true),
    models,
  };
}

/** The worker's side: InferenceApi's synchronous answers from the latest snapshot. */
export class ModelMirror {
  constructor(public snapshot: MirrorSnapshot) {}

  private answers(name: string, version: string | undefined): VersionAnswers {
    const model = this.snapshot.models[name];
    // No list of the other models: the front end adds those the caller may see (transport/streaming/caller-view.ts).
    if (model === undefined) throw rtError('MODEL_NOT_FOUND', `unknown model '${name}'`);
    const v = model[version ?? ''];
    if (v === undefined) {
      const known = Object.keys(model).filter((k) => k !== '');
      throw rtError('VERSION_NOT_FOUND', `model '${name}' has no version '${version ?? ''}' (versions: ${known.join(', ') || 'none loaded'})`);
    }
    return v;
  }

  private static unwrap<T>(a: Answer<T>): T {
    if ('ok' in a) return a.ok;
    throw errorFromWire(a.error);
  }

  modelMetadata(name: string, version?: string): ModelMetadata {
    return ModelMirror.unwrap(this.answers(name, version).metadata);
  }
  modelConfig(name: string, version?: string): ModelConfig {
    return ModelMirror.unwrap(this.answers(name, version).config);
  }
  modelReady(name: string, version?: string): boolean {
    return ModelMirror.unwrap(this.answers(name, version).ready);
  }
  outputLabels(name: string, version: string, output: string): readonly string[] | undefined {
    try {
      return this.answers(name, version).labels[output];
    } catch {
      return undefined;
    }
  }
  frameInputOf(name: string, version?: string): string | undefined {
    try {
      return this.answers(name, version).frameInput;
    } catch {
      return undefined;
    }
  }
  repositoryIndex(readyOnly = false): RepositoryIndexEntry[] {
    return [...(readyOnly ? this.snapshot.readyIndex : this.snapshot.index)];
  }
}
