import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { rtError, type RtError } from '../errors/registry.ts';
import { PLAN_MAGIC, isPlanBytes } from '../plan/format.ts';
import type { ModelEntry, VersionEntry } from './scan.ts';

/**
 * Models of a Triton repository in a format rtserve does not run, named as such (Triton's backends: TensorRT,
 * PyTorch, TensorFlow, Python, OpenVINO, ensembles), instead of the error a missing model.onnx or a foreign
 * model.plan would give. rtserve runs ONNX models, its own plans (`rtserve build`) and Hugging Face checkpoints.
 */
const RUNS = 'rtserve runs ONNX models (model.onnx), its own plans (rtserve build MODEL.onnx -o model.plan) and Hugging Face checkpoints';

/** Triton model files (S:docs/user_guide/model_repository.md "Model Files") by name, and what they are. */
const FOREIGN_FILES: readonly { readonly test: (name: string, isDirectory: boolean) => boolean; readonly what: string; readonly hint: string }[] = [
  {
    test: (n) => /\.(pt|pth|pt2)$/.test(n) || n === 'model.torchscript',
    what: 'a PyTorch model',
    hint: 'export it to ONNX (torch.onnx.export)',
  },
  { test: (n, dir) => n === 'model.savedmodel' && dir, what: 'a TensorFlow SavedModel', hint: 'convert it to ONNX (tf2onnx)' },
  { test: (n) => n === 'model.graphdef', what: 'a TensorFlow GraphDef', hint: 'convert it to ONNX (tf2onnx)' },
  { test: (n) => n === 'model.py', what: "a Python backend model (Triton's python backend)", hint: 'there is no Python backend here' },
  { test: (n) => n === 'model.xml', what: 'an OpenVINO model', hint: 'serve the ONNX model it was converted from' },
];

/** Triton `platform` / `backend` values of formats rtserve does not run. */
const FOREIGN_PLATFORMS: Readonly<Record<string, string>> = {
  tensorrt_plan: 'a TensorRT engine',
  tensorrt: 'a TensorRT engine',
  pytorch_libtorch: 'a PyTorch model',
  pytorch: 'a PyTorch model',
  tensorflow_savedmodel: 'a TensorFlow SavedModel',
  tensorflow_graphdef: 'a TensorFlow GraphDef',
  tensorflow: 'a TensorFlow model',
  python: "a Python backend model (Triton's python backend)",
  openvino: 'an OpenVINO model',
  dali: 'a DALI pipeline',
  fil: 'a FIL (tree) model',
  ensemble: 'a Triton ensemble',
  vllm: "a model of Triton's vLLM backend",
};

function unsupported(model: string, what: string, detail: string): RtError {
  return rtError('UNSUPPORTED_MODEL_FORMAT', `model '${model}' is ${what} (${detail}), a format this server does not run: ${RUNS}`);
}

/** The first bytes of a file (enough for the plan magic). */
async function head(path: string): Promise<Uint8Array> {
  const f = await open(path, 'r');
  try {
    const buf = new Uint8Array(PLAN_MAGIC.byteLength);
    const { bytesRead } = await f.read(buf, 0, buf.byteLength, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}

/**
 * UNSUPPORTED_MODEL_FORMAT when the newest version holds no ONNX model and no rtserve plan but a file of another
 * framework, or a model.plan without rtserve's magic (a TensorRT engine); undefined otherwise.
 */
export async function foreignModelFile(entry: ModelEntry, version: VersionEntry | undefined): Promise<RtError | undefined> {
  if (version === undefined || version.files.some((f) => f.name.endsWith('.onnx'))) return undefined;
  const plan = version.files.find((f) => f.name === 'model.plan' && !f.isDirectory);
  if (plan !== undefined) {
    const bytes = await head(join(version.dir, plan.name));
    return isPlanBytes(bytes) ? undefined : unsupported(entry.name, 'a TensorRT engine', `${version.version}/model.plan is not an rtserve plan`);
  }
  for (const f of version.files) {
    const kind = FOREIGN_FILES.find((k) => k.test(f.name, f.isDirectory));
    if (kind !== undefined) return unsupported(entry.name, kind.what, `${version.version}/${f.name}; ${kind.hint}`);
  }
  return undefined;
}

/** UNSUPPORTED_MODEL_FORMAT for a config whose `platform` or `backend` is another Triton backend's. */
export function foreignPlatform(model: string, config: { readonly platform: string; readonly backend: string }): RtError | undefined {
  for (const [field, value] of [
    ['platform', config.platform],
    ['backend', config.backend],
  ] as const) {
    const what = FOREIGN_PLATFORMS[value.toLowerCase()];
    if (what !== undefined) return unsupported(model, what, `${field}: "${value}"`);
  }
  return undefined;
}
