/**
 * The benchmark's control plane over KServe v2 REST (docs/protocol.md §2.1, §2.4): model metadata and config to build
 * inputs, and the statistics extension for the server-side breakdown. Not on the measured path, so plain fetch.
 */
import type { ModelStatsSnapshot } from '../observability/model-stats.ts';
import type { TensorMetadata } from '../tensor/tensor.ts';
import { isDataType } from '../tensor/datatype.ts';
import { BenchError } from './errors.ts';
import { countersOf, type StatsCounters } from './server-stats.ts';

export interface ModelInfo {
  readonly name: string;
  readonly versions: readonly string[];
  readonly inputs: readonly TensorMetadata[];
  readonly outputs: readonly TensorMetadata[];
  /** From the model config; 0 means the model takes no batch dimension. */
  readonly maxBatchSize: number;
}

export class RestControl {
  readonly baseUrl: string;

  constructor(
    url: string,
    readonly model: string,
    readonly version?: string,
  ) {
    this.baseUrl = url.replace(/\/+$/, '');
  }

  private modelPath(): string {
    const m = encodeURIComponent(this.model);
    return this.version === undefined ? `/v2/models/${m}` : `/v2/models/${m}/versions/${encodeURIComponent(this.version)}`;
  }

  private async getJson(path: string): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path);
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
      throw new BenchError(`cannot reach ${this.baseUrl}${path}${cause}`, { cause: err });
    }
    const text = await res.text();
    if (res.status !== 200) {
      let message = text;
      try {
        const body = JSON.parse(text) as { error?: unknown };
        if (typeof body.error === 'string') message = body.error;
      } catch {
        // not JSON: keep the text
      }
      throw new BenchError(`GET ${this.baseUrl}${path} answered ${res.status}: ${message}`);
    }
    return JSON.parse(text) as unknown;
  }

  async modelInfo(): Promise<ModelInfo> {
    const meta = (await this.getJson(this.modelPath())) as { name?: unknown; versions?: unknown; inputs?: unknown; outputs?: unknown };
    const config = (await this.getJson(`${this.modelPath()}/config`)) as { max_batch_size?: unknown };
    const tensors = (raw: unknown, what: string): TensorMetadata[] => {
      if (!Array.isArray(raw)) throw new BenchError(`model metadata of '${this.model}' has no ${what} list`);
      return raw.map((t: { name?: unknown; datatype?: unknown; shape?: unknown }) => {
        if (typeof t.name !== 'string' || !isDataType(t.datatype) || !Array.isArray(t.shape)) {
          throw new BenchError(`model metadata of '${this.model}' has a malformed ${what} entry: ${JSON.stringify(t)}`);
        }
        return { name: t.name, datatype: t.datatype, shape: t.shape.map(Number) };
      });
    };
    return {
      name: typeof meta.name === 'string' ? meta.name : this.model,
      versions: Array.isArray(meta.versions) ? meta.versions.map(String) : [],
      inputs: tensors(meta.inputs, 'inputs'),
      outputs: tensors(meta.outputs, 'outputs'),
      maxBatchSize: typeof config.max_batch_size === 'number' ? config.max_batch_size : 0,
    };
  }

  async statistics(): Promise<StatsCounters> {
    const body = (await this.getJson(`${this.modelPath()}/stats`)) as { model_stats?: unknown };
    if (!Array.isArray(body.model_stats)) throw new BenchError(`statistics of '${this.model}' have no model_stats list`);
    return countersOf(body.model_stats as ModelStatsSnapshot[]);
  }
}
