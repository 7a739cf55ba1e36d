import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BenchFlags } from '../../../src/bench/bench-command.ts';
import { nativeBenchFlags, parseRange, perfAnalyzerCsv, type PerfAnalyzerFlags } from '../../../src/bench/perf-analyzer.ts';
import type { LevelResult, WindowResult } from '../../../src/bench/types.ts';

const base: BenchFlags = {
  model: 'm',
  protocol: 'http-binary',
  requestDistribution: 'constant',
  warmup: '1',
  stabilityPercentage: '10',
  maxTrials: '10',
  maxInflight: '1024',
  batch: '1',
  input: 'random',
  httpClient: 'net',
  sharedMemory: 'none',
  engineKinds: 'inprocess',
  progress: true,
};
const native = (pa: PerfAnalyzerFlags & Partial<BenchFlags>): BenchFlags => nativeBenchFlags({ ...base, ...pa });

function level(concurrency: number, inferencesPerSec: number, avgUs: number): LevelResult {
  const latency = {
    count: 10,
    avgUs,
    stdUs: 1,
    minUs: avgUs - 10,
    maxUs: avgUs + 10,
    p50Us: avgUs,
    p90Us: avgUs + 5.7,
    p95Us: avgUs + 6,
    p99Us: avgUs + 9,
  };
  const server = {
    requests: 10,
    failures: 0,
    inferences: 10,
    executions: 10,
    avgBatchSize: 1,
    requestUs: avgUs - 50,
    queueUs: 20.6,
    computeInputUs: 5,
    computeInferUs: 100,
    computeOutputUs: 4,
    overheadUs: 3,
  };
  const merged: WindowResult = {
    startMs: 0,
    durationMs: 1000,
    succeeded: 10,
    failed: 0,
    requestsPerSec: inferencesPerSec,
    inferencesPerSec,
    latency,
    server,
  };
  return {
    protocol: 'http-binary',
    batch: 1,
    mode: { kind: 'concurrency', concurrency },
    stable: true,
    warnings: [],
    windows: [merged],
    merged,
    errors: [],
    dropped: 0,
  };
}

describe('perf_analyzer flags of rtserve bench', () => {
  test('--concurrency-range start[:end[:step]]', () => {
    assert.deepEqual(parseRange('--concurrency-range', '4'), [4]);
    assert.deepEqual(parseRange('--concurrency-range', '1:4'), [1, 2, 3, 4]);
    assert.deepEqual(parseRange('--concurrency-range', '1:8:3'), [1, 4, 7]);
    assert.throws(() => parseRange('--concurrency-range', '1:0'), /end 0 .* not implemented/);
    assert.throws(() => parseRange('--concurrency-range', '4:2'), /start <= end/);
    assert.throws(() => parseRange('--concurrency-range', 'a:b'), /whole numbers/);
  });

  test('translate to the native flags', () => {
    const f = native({ x: '2', s: '5', concurrencyRange: '1:3', inputData: 'zero', measurementInterval: '2500', i: 'HTTP', url: 'localhost:8000' });
    assert.equal(f.modelVersion, '2');
    assert.equal(f.stabilityPercentage, '5');
    assert.equal(f.concurrency, '1,2,3');
    assert.equal(f.input, 'zero');
    assert.equal(f.duration, '2.5');
    assert.equal(f.protocol, 'http-binary');
    assert.equal(f.url, 'http://localhost:8000');
    const g = native({ i: 'grpc', url: 'node7:9001', streaming: true, measurementMode: 'count_windows' });
    assert.equal(g.protocol, 'grpc-stream');
    assert.equal(g.grpcUrl, 'node7:9001');
    assert.equal(g.url, 'http://node7:8000', 'control plane: REST on the same host');
    assert.equal(g.requests, '50', "perf_analyzer's default request count");
    assert.equal(native({ i: 'grpc' }).grpcUrl, 'localhost:8001');
    assert.equal(native({ url: 'http://h:1' }).url, 'http://h:1', 'a URL with a scheme stays as given');
  });

  test('contradictions are refused', () => {
    assert.throws(() => native({ concurrencyRange: '1', concurrency: '2' }), /not both/);
    assert.throws(() => native({ measurementMode: 'count_windows', measurementInterval: '100' }), /count_windows takes --measurement-request-count/);
    assert.throws(() => native({ measurementRequestCount: '10' }), /needs --measurement-mode count_windows/);
    assert.throws(() => native({ streaming: true }), /--streaming needs -i grpc/);
    assert.throws(() => native({ f: 'x.csv', protocol: 'http-json,grpc' }), /-f writes one protocol and one batch size/);
  });

  test("-f CSV: perf_analyzer's header, whole microseconds, rows by increasing throughput", () => {
    const csv = perfAnalyzerCsv([level(4, 900.26, 1000), level(1, 300, 400.9)]);
    const [header, ...rows] = csv.trim().split('\n');
    assert.equal(
      header,
      'Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency',
    );
    // avg 400.9 - queue 20.6 - compute 109 = 271.3 → 271
    assert.deepEqual(rows, ['1,300,0,271,20,5,100,4,0,400,406,406,409', '4,900.3,0,870,20,5,100,4,0,1000,1005,1006,1009']);
  });
});
