/**
 * The layer table of src/ (docs/architecture.md shows the same table; test/unit/architecture/layering.test.ts
 * checks the code against it and the docs against it). A folder may import itself and the folders of its row,
 * nothing else. Bottom-up order.
 */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  tensor: [],
  errors: [],
  util: ['errors'],
  observability: ['errors', 'util', 'tensor'],
  config: ['errors', 'tensor', 'util'],
  onnx: ['errors', 'tensor'],
  plan: ['errors', 'tensor', 'onnx', 'util'],
  shm: ['errors', 'tensor', 'observability'],
  api: ['tensor', 'errors', 'config', 'observability', 'shm'],
  codec: ['tensor', 'errors', 'api', 'observability', 'util'],
  compiler: ['plan', 'onnx', 'tensor', 'errors', 'config', 'util'],
  engine: ['plan', 'onnx', 'tensor', 'errors', 'util', 'observability', 'config', 'shm'],
  scheduler: ['engine', 'api', 'tensor', 'errors', 'config', 'observability', 'util'],
  repository: ['engine', 'scheduler', 'api', 'config', 'tensor', 'errors', 'observability', 'onnx', 'plan', 'util'],
  core: ['repository', 'scheduler', 'engine', 'plan', 'api', 'config', 'observability', 'tensor', 'errors', 'util', 'shm'],
  postprocess: ['tensor', 'errors'],
  preprocess: ['postprocess', 'api', 'codec', 'config', 'tensor', 'errors', 'observability', 'util'],
  generate: ['engine', 'api', 'codec', 'config', 'tensor', 'errors', 'observability', 'util'],
  security: ['api', 'config', 'tensor', 'errors', 'observability', 'util'],
  pipeline: ['api', 'codec', 'preprocess', 'postprocess', 'generate', 'security', 'shm', 'config', 'tensor', 'errors', 'observability', 'util'],
  transport: ['pipeline', 'api', 'codec', 'preprocess', 'postprocess', 'generate', 'security', 'shm', 'config', 'tensor', 'errors', 'observability', 'util'],
  client: ['api', 'codec', 'config', 'tensor', 'errors'],
  app: ['transport', 'pipeline', 'core', 'repository', 'scheduler', 'engine', 'generate', 'preprocess', 'postprocess', 'security', 'api', 'codec', 'shm', 'config', 'plan', 'onnx', 'tensor', 'errors', 'observability', 'util'],
  bench: ['client', 'api', 'codec', 'engine', 'shm', 'config', 'tensor', 'errors', 'observability', 'util'],
  cli: ['app', 'bench', 'compiler', 'repository', 'engine', 'security', 'plan', 'config', 'tensor', 'errors', 'observability', 'util'],
  '(root)': ['app', 'bench', 'client', 'compiler', 'transport', 'pipeline', 'core', 'repository', 'scheduler', 'engine', 'generate', 'preprocess', 'postprocess', 'security', 'api', 'codec', 'shm', 'config', 'plan', 'onnx', 'tensor', 'errors', 'observability', 'util'],
};
