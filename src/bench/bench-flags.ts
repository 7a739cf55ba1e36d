/** The flags of `rtserve bench` as commander parses them (attribute names); bench-command.ts declares them. */
export interface BenchFlags {
  url?: string;
  grpcUrl?: string;
  wsUrl?: string;
  model: string;
  modelVersion?: string;
  protocol: string;
  concurrency?: string;
  requestRate?: string;
  requestDistribution: string;
  duration?: string;
  requests?: string;
  warmup: string;
  stabilityPercentage: string;
  maxTrials: string;
  percentile?: string;
  maxInflight: string;
  batch: string;
  input: string;
  shape?: string[];
  timeoutMs?: string;
  httpClient: string;
  sharedMemory: string;
  engine?: string | boolean;
  engineKinds: string;
  engineThreads?: string;
  modelRepository?: string;
  out?: string;
  report?: string;
  markdown?: string;
  progress: boolean;
}
