/**
 * The InferenceApi methods a pipeline answers by asking the API it wraps: health, metadata, configs, statistics,
 * the index, model control, labels and frame inputs. The pipelines (request-pipeline.ts in the engine owner,
 * front-pipeline.ts in a front-end worker) add their own inference calls on top.
 */
import type { InferenceApi, LoadModelOptions, ModelMetadata, RepositoryIndexEntry, ServerMetadata } from '../api/inference-api.ts';
import type { InferRequest, InferResponse } from '../api/types.ts';
import type { ImageRequest, ImageResult } from '../api/image-types.ts';
import type { ModelConfig } from '../config/model-config.ts';
import type { ModelStatsSnapshot } from '../observability/model-stats.ts';

export abstract class DelegatingApi implements InferenceApi {
  abstract readonly infer: (request: InferRequest) => Promise<InferResponse>;
  abstract readonly inferStream: (request: InferRequest) => AsyncIterable<InferResponse>;
  abstract readonly inferImage: (request: ImageRequest) => Promise<ImageResult>;

  constructor(protected readonly inner: InferenceApi) {}

  isLive(): boolean {
    return this.inner.isLive();
  }
  isReady(): boolean {
    return this.inner.isReady();
  }
  serverMetadata(): ServerMetadata {
    return this.inner.serverMetadata();
  }
  modelMetadata(name: string, version?: string): ModelMetadata {
    return this.inner.modelMetadata(name, version);
  }
  modelReady(name: string, version?: string): boolean {
    return this.inner.modelReady(name, version);
  }
  modelConfig(name: string, version?: string): ModelConfig {
    return this.inner.modelConfig(name, version);
  }
  modelStatistics(name?: string, version?: string): ModelStatsSnapshot[] | Promise<ModelStatsSnapshot[]> {
    return this.inner.modelStatistics(name, version);
  }
  repositoryIndex(readyOnly?: boolean): RepositoryIndexEntry[] {
    return this.inner.repositoryIndex(readyOnly);
  }
  loadModel(name: string, options?: LoadModelOptions): Promise<void> {
    return this.inner.loadModel(name, options);
  }
  unloadModel(name: string): Promise<void> {
    return this.inner.unloadModel(name);
  }
  outputLabels(name: string, version: string, output: string): readonly string[] | undefined {
    return this.inner.outputLabels(name, version, output);
  }
  frameInputOf(name: string, version?: string): string | undefined {
    return this.inner.frameInputOf?.(name, version);
  }
  recordRefusal(name: string, version: string | undefined, protocol: string, error: { readonly code: string; readonly category: string }): void {
    this.inner.recordRefusal?.(name, version, protocol, error);
  }
}
