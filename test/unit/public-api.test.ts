import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type * as Client from '../../src/client/index.ts';
import * as experimental from '../../src/experimental.ts';
import * as stable from '../../src/index.ts';
import type { InferRequest, InferResponse, InferenceApi, ModelConfig, Tensor } from '../../src/index.ts';

// The package's three entries (package.json `exports`): `rtserve` (src/index.ts, the stable API), `rtserve/client`
// (src/client/index.ts, browser-safe) and `rtserve/experimental` (src/experimental.ts). Every runtime export is
// listed here, so adding or removing one is a visible change to review, not an accident of a re-export.

const STABLE = [
  'CudaSession',
  'DATA_TYPES',
  'ERROR_CODES',
  'FrameStream',
  'GrpcTransport',
  'InferResult',
  'RestTransport',
  'RtError',
  'RtserveClient',
  'RtserveError',
  'WsTransport',
  'createCudaEngine',
  'createNodeClient',
  'createOrtEngine',
  'isRetryable',
  'loadCudaAddon',
  'loadCudaSession',
  'loadServerConfig',
  'modelConfigSchema',
  'nodeWebSocketFactory',
  'serverConfigSchema',
  'startServer',
  'toTensor',
  'toTensors',
];
const CLIENT = [
  'FrameStream',
  'InferResult',
  'RestTransport',
  'RtserveClient',
  'RtserveError',
  'WsTransport',
  'isRetryable',
  'toTensor',
  'toTensors',
];
const EXPERIMENTAL = [
  'GenerateService',
  'InferenceServer',
  'LogControl',
  'ReplayStream',
  'RepositoryPoller',
  'ResponseCache',
  'ServerMetrics',
  'SharedMemoryManager',
  'StreamRegistry',
  'classify',
  'createLogger',
  'decodeInferResponse',
  'decodeModelInferResponse',
  'decodeModelStreamInferResponse',
  'defaultFactories',
  'encodeInferRequest',
  'encodeModelInferRequest',
  'failureReasonOf',
  'formatTraceparent',
  'imageSpecOf',
  'inferenceProtoPath',
  'logControlOf',
  'meanAveragePrecision',
  'nonMaxSuppression',
  'openFileRegion',
  'parseTraceparent',
  'postprocessDetections',
  'registerGenerateMetrics',
  'registerOpenAiRoutes',
  'renderChat',
  'renderHtmlReport',
  'runBench',
  'runIntoStream',
  'sharedMemoryParameters',
  'shmPathOfKey',
  'startGrpcServer',
  'traceFromHeaders',
  'ClassificationLayer',
  'GenerationLayer',
  'ImageLayer',
  'RequestLimitsLayer',
  'RequestPipeline',
  'SharedMemoryLayer',
  'compose',
  'imageToTensor',
];

test('rtserve (stable): exactly the listed runtime exports', () => {
  assert.deepEqual(Object.keys(stable).sort(), [...STABLE].sort());
});

test('rtserve/client: exactly the listed runtime exports, and the stable entry re-exports all of them', async () => {
  const client = await import('../../src/client/index.ts');
  assert.deepEqual(Object.keys(client).sort(), [...CLIENT].sort());
  for (const name of CLIENT) assert.equal((stable as Record<string, unknown>)[name], (client as Record<string, unknown>)[name], name);
});

test('rtserve/experimental: exactly the listed runtime exports, none of them also stable', () => {
  assert.deepEqual(Object.keys(experimental).sort(), [...EXPERIMENTAL].sort());
  assert.deepEqual(
    EXPERIMENTAL.filter((n) => STABLE.includes(n)),
    [],
  );
});

test("package.json's exports name the three entries", () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    exports: Record<string, { types: string; default: string } | string>;
  };
  const entry = (k: string): { types: string; default: string } => pkg.exports[k] as { types: string; default: string };
  assert.deepEqual(entry('.'), { types: './dist/src/index.d.ts', default: './dist/src/index.js' });
  assert.deepEqual(entry('./client'), { types: './dist/src/client/index.d.ts', default: './dist/src/client/index.js' });
  assert.deepEqual(entry('./experimental'), { types: './dist/src/experimental.d.ts', default: './dist/src/experimental.js' });
});

// Type-level checks (compiled by the suite's type check): what a user of the stable entry writes keeps compiling.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const requestInputs: Equal<InferRequest['inputs'][number], Tensor> = true;
const responseOutputs: Equal<InferResponse['outputs'][number], Tensor> = true;
const inferSignature: Equal<Parameters<InferenceApi['infer']>[0], InferRequest> = true;
const configName: Equal<ModelConfig['name'], string> = true;
const clientTensor: Equal<ReturnType<typeof Client.toTensor>, Tensor> = true;

test('the stable types line up (checked by the type check; the values only make the checks used)', () => {
  assert.deepEqual([requestInputs, responseOutputs, inferSignature, configName, clientTensor], [true, true, true, true, true]);
});
