/**
 * `rtserve bench --shared-memory system` (perf_analyzer's flag): the load client puts its tensors in POSIX shared
 * memory on the server's host instead of in the requests (Triton's system shared memory extension,
 * docs/shared-memory.md).
 *
 * Each client, once, before measuring:
 *   1. asks the server for an ordinary inference of every input set (REST, binary data): the reference outputs,
 *      which also size the output region,
 *   2. creates two objects under /dev/shm, writes every input set into the first (each input at its own offset)
 *      and fills the second with 0xFF, and registers them as two regions (REST),
 *   3. sends its first request through its own protocol and compares the output region with the reference
 *      outputs of that input set: the benchmark measures requests proven to read and write the regions.
 * Every request then names the input set's input ranges and the same output ranges. At the end the regions are
 * unregistered and the objects removed.
 */
import { randomBytes } from 'node:crypto';
import { open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_SHM_DIRECTORY } from '../shm/system-shared-memory.ts';
import type { RequestedOutput, SharedMemoryInput } from '../api/types.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { decodeInferResponse, encodeInferRequest } from '../codec/kserve-client-codec.ts';
import { sharedMemoryParameters } from '../codec/shared-memory-params.ts';
import { tensorDataToBinary } from '../codec/binary-data.ts';
import { BenchError } from './errors.ts';
import type { LoadClient, LoadTarget } from './clients/load-client.ts';

export type SharedMemoryMode = 'none' | 'system';

/** What one request of input set `k` sends when its tensors are in shared memory. */
export interface SharedMemoryRequest {
  readonly sharedMemoryInputs: readonly Omit<SharedMemoryInput, 'index'>[];
  readonly outputs: readonly RequestedOutput[];
}

/** Offsets within an object start on 64-byte boundaries (cache lines; every datatype is aligned). */
const ALIGN = 64;
const align = (n: number): number => Math.ceil(n / ALIGN) * ALIGN;

let counter = 0;

function fail(what: string, err: unknown): BenchError {
  return new BenchError(`--shared-memory system: ${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

async function postJson(url: string, body: unknown, what: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch (err) {
    throw fail(`${what} (${url})`, err);
  }
  if (res.status !== 200) {
    const text = await res.text();
    let message = text;
    try {
      const parsed = JSON.parse(text) as { error?: unknown };
      if (typeof parsed.error === 'string') message = parsed.error;
    } catch {
      // not JSON: keep the text
    }
    throw new BenchError(`--shared-memory system: ${what} answered ${res.status}: ${message}`);
  }
}

/** The regions of one load client. */
export class BenchRegions {
  private registered: string[] = [];
  private files: string[] = [];

  private constructor(
    private readonly controlUrl: string,
    /** Per input set: the request that names its ranges. */
    readonly requests: readonly SharedMemoryRequest[],
    /** Per input set: each output's expected bytes and where in the output object they go. */
    private readonly expected: readonly (readonly { readonly name: string; readonly offset: number; readonly bytes: Uint8Array }[])[],
    private readonly outputPath: string,
  ) {}

  /** Sets up the regions of a client of `target` (see the file comment, steps 1 and 2). */
  static async create(target: LoadTarget, controlUrl: string): Promise<BenchRegions> {
    const base = controlUrl.replace(/\/+$/, '');
    const m = encodeURIComponent(target.model);
    const modelPath = target.version === undefined ? `/v2/models/${m}` : `/v2/models/${m}/versions/${encodeURIComponent(target.version)}`;

    // 1. Reference outputs, one ordinary inference per input set.
    const references: Tensor[][] = [];
    for (const inputs of target.inputSets) {
      const enc = encodeInferRequest(inputs, { binary: true, parameters: { binary_data_output: true } });
      let res: Response;
      let body: Uint8Array;
      try {
        res = await fetch(`${base}${modelPath}/infer`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(enc.headerLength) },
          body: enc.body,
        });
        body = new Uint8Array(await res.arrayBuffer());
      } catch (err) {
        throw fail('the reference inference', err);
      }
      if (res.status !== 200)
        throw new BenchError(
          `--shared-memory system: the reference inference answered ${res.status}: ${new TextDecoder().decode(body).slice(0, 300)}`,
        );
      const hl = res.headers.get('inference-header-content-length');
      references.push([...decodeInferResponse(body, hl === null ? undefined : Number(hl)).outputs]);
    }

    // 2. Layout: input sets back to back; each output at one place, as large as its largest reference.
    const inputLayout: { tensor: Tensor; offset: number; bytes: Uint8Array }[][] = [];
    let inputSize = 0;
    for (const inputs of target.inputSets) {
      inputLayout.push(
        inputs.map((t) => {
          const bytes = tensorDataToBinary('input', t.name, t.datatype, t.data);
          const offset = inputSize;
          inputSize = align(inputSize + bytes.byteLength);
          return { tensor: t, offset, bytes };
        }),
      );
    }
    const outputSizes = new Map<string, number>();
    const referenceBytes = references.map((outs) =>
      outs.map((o) => ({ name: o.name, bytes: tensorDataToBinary('output', o.name, o.datatype, o.data) })),
    );
    for (const outs of referenceBytes) for (const o of outs) outputSizes.set(o.name, Math.max(outputSizes.get(o.name) ?? 0, o.bytes.byteLength));
    const outputOffsets = new Map<string, number>();
    let outputSize = 0;
    for (const [name, size] of outputSizes) {
      outputOffsets.set(name, outputSize);
      outputSize = align(outputSize + Math.max(size, 1));
    }

    const id = `rtserve-bench-${process.pid}-${++counter}-${randomBytes(3).toString('hex')}`;
    const names = { in: `${id}-in`, out: `${id}-out` };
    const requests = inputLayout.map(
      (set): SharedMemoryRequest => ({
        sharedMemoryInputs: set.map(({ tensor, offset, bytes }) => ({
          name: tensor.name,
          datatype: tensor.datatype,
          shape: tensor.shape,
          sharedMemory: { region: names.in, offset, byteSize: bytes.byteLength },
        })),
        outputs: [...outputSizes].map(([name, size]) => ({
          name,
          parameters: sharedMemoryParameters({ region: names.out, offset: outputOffsets.get(name) ?? 0, byteSize: Math.max(size, 1) }),
        })),
      }),
    );
    const expected = referenceBytes.map((outs) => outs.map((o) => ({ name: o.name, offset: outputOffsets.get(o.name) ?? 0, bytes: o.bytes })));
    const inputPath = join(DEFAULT_SHM_DIRECTORY, names.in);
    const outputPath = join(DEFAULT_SHM_DIRECTORY, names.out);
    const regions = new BenchRegions(base, requests, expected, outputPath);

    try {
      const input = new Uint8Array(Math.max(inputSize, 1));
      for (const set of inputLayout) for (const { offset, bytes } of set) input.set(bytes, offset);
      regions.files.push(inputPath);
      await writeFile(inputPath, input);
      regions.files.push(outputPath);
      await writeFile(outputPath, new Uint8Array(Math.max(outputSize, 1)).fill(0xff));
      for (const [name, path, size] of [
        [names.in, inputPath, input.byteLength],
        [names.out, outputPath, Math.max(outputSize, 1)],
      ] as const) {
        await postJson(
          `${base}/v2/systemsharedmemory/region/${encodeURIComponent(name)}/register`,
          { key: `/${path.slice(DEFAULT_SHM_DIRECTORY.length + 1)}`, offset: 0, byte_size: size },
          `registering region '${name}'`,
        );
        regions.registered.push(name);
      }
    } catch (err) {
      await regions.close();
      throw err instanceof BenchError ? err : fail(`creating the objects under ${DEFAULT_SHM_DIRECTORY}`, err);
    }
    return regions;
  }

  /** Step 3: the output region holds what an ordinary inference of input set `set` returned. */
  async check(set: number): Promise<void> {
    const fh = await open(this.outputPath, 'r');
    try {
      for (const e of this.expected[set] ?? []) {
        const got = new Uint8Array(e.bytes.byteLength);
        await fh.read(got, 0, got.byteLength, e.offset);
        if (!Buffer.from(got).equals(Buffer.from(e.bytes))) {
          throw new BenchError(
            `--shared-memory system: after the first request, output '${e.name}' in the output region differs from an ordinary inference of the same inputs (${e.bytes.byteLength} bytes at offset ${e.offset})`,
          );
        }
      }
    } finally {
      await fh.close();
    }
  }

  async close(): Promise<void> {
    const names = this.registered;
    this.registered = [];
    for (const name of names) {
      await postJson(
        `${this.controlUrl}/v2/systemsharedmemory/region/${encodeURIComponent(name)}/unregister`,
        {},
        `unregistering region '${name}'`,
      ).catch(() => undefined);
    }
    const files = this.files;
    this.files = [];
    await Promise.all(files.map((f) => rm(f, { force: true })));
  }
}

/**
 * A load client whose requests use shared memory: sets up the regions, opens the client with their requests,
 * sends request 0 and checks its outputs, and closes the regions with the client.
 */
export async function openSharedMemoryClient(
  target: LoadTarget,
  controlUrl: string,
  openClient: (requests: readonly SharedMemoryRequest[]) => Promise<LoadClient>,
): Promise<LoadClient> {
  const regions = await BenchRegions.create(target, controlUrl);
  let client: LoadClient | undefined;
  try {
    client = await openClient(regions.requests);
    await client.send(0);
    await regions.check(0);
  } catch (err) {
    await client?.close().catch(() => undefined);
    await regions.close();
    throw err instanceof BenchError ? err : fail('the first request', err);
  }
  const opened = client;
  return {
    protocol: opened.protocol,
    // The reference inferences and the checked first request.
    setupRequests: target.inputSets.length + 1,
    send: (seq) => opened.send(seq),
    close: async () => {
      try {
        await opened.close();
      } finally {
        await regions.close();
      }
    },
  };
}
