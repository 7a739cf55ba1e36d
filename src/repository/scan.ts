/**
 * Model repository scanning (docs/protocol.md §1.1, Triton's layout):
 *   <repo>/<model>/config.json | config.yaml | config.yml | config.pbtxt   (optional; the first found wins)
 *   <repo>/<model>/<version>/model.onnx | model.plan | <default_model_filename>
 * Version directories are numeric; names that are not, or that start with "0", are ignored (as Triton does).
 * Scanning only looks at names and kinds of entries; reading configs and models is the loader's job.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { rtError } from '../errors/registry.ts';

export type ConfigFormat = 'json' | 'yaml' | 'pbtxt';

/** Config file names in order of precedence: JSON, then YAML, then Triton's text format. */
export const CONFIG_FILE_NAMES: readonly { readonly fileName: string; readonly format: ConfigFormat }[] = [
  { fileName: 'config.json', format: 'json' },
  { fileName: 'config.yaml', format: 'yaml' },
  { fileName: 'config.yml', format: 'yaml' },
  { fileName: 'config.pbtxt', format: 'pbtxt' },
];

export interface ConfigFileRef {
  readonly fileName: string;
  readonly path: string;
  readonly format: ConfigFormat;
}

export type ModelFileKind = 'onnx' | 'plan';

export interface ModelFile {
  readonly fileName: string;
  /** The file to read. For an ONNX model stored as a directory (`model.onnx/` with external data) it is the
   *  `model.onnx` file inside that directory, as in Triton's ONNX Runtime backend. */
  readonly path: string;
  readonly kind: ModelFileKind;
}

export interface VersionEntry {
  readonly version: number;
  readonly dir: string;
  /** Names of the entries in the version directory, sorted, with whether each is a directory. */
  readonly files: readonly { readonly name: string; readonly isDirectory: boolean }[];
}

export interface ModelEntry {
  readonly name: string;
  readonly dir: string;
  /** The config file that applies, if any. */
  readonly configFile?: ConfigFileRef;
  /** Other config files present but ignored because `configFile` takes precedence. */
  readonly shadowedConfigFiles: readonly string[];
  /** Numeric version directories, ascending. */
  readonly versions: readonly VersionEntry[];
  /** Entries of the model directory that are neither a config file nor a valid version directory. */
  readonly ignoredEntries: readonly string[];
}

/**
 * A model name is also a directory name and appears in URLs: it must not be able to leave the repository.
 * Triton does not restrict names further, so neither do we (spaces and dots inside a name are allowed).
 */
export function assertSafeModelName(name: string): void {
  let problem: string | undefined;
  if (name.length === 0) problem = 'it is empty';
  else if (name.includes('/') || name.includes('\\')) problem = 'it contains a path separator';
  else if (name.includes('..')) problem = "it contains '..'";
  else if (name === '.') problem = "it is '.'";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for control characters.
  else if (/[\u0000-\u001f\u007f]/.test(name)) problem = 'it contains a control character';
  if (problem !== undefined) {
    throw rtError('BAD_CONFIG', `invalid model name ${JSON.stringify(name)}: ${problem}`);
  }
}

/** `1`, `2`, `10`...: digits only, not starting with 0 (Triton ignores "0" and "01"). */
export function parseVersionDirName(name: string): number | undefined {
  if (!/^[1-9]\d*$/.test(name)) return undefined;
  const v = Number(name);
  return Number.isSafeInteger(v) ? v : undefined;
}

interface DirEntryInfo {
  readonly name: string;
  readonly isDirectory: boolean;
  readonly isFile: boolean;
}

/** Directory entries with symlinks followed (a symlinked model or version directory is common in deployments). */
async function listDir(dir: string): Promise<DirEntryInfo[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: DirEntryInfo[] = [];
  for (const e of entries) {
    if (e.isSymbolicLink()) {
      try {
        const s = await stat(join(dir, e.name));
        out.push({ name: e.name, isDirectory: s.isDirectory(), isFile: s.isFile() });
      } catch {
        // A dangling link is not a model, a version or a config; it is reported as ignored.
        out.push({ name: e.name, isDirectory: false, isFile: false });
      }
    } else {
      out.push({ name: e.name, isDirectory: e.isDirectory(), isFile: e.isFile() });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function scanModelDir(name: string, dir: string): Promise<ModelEntry> {
  const entries = await listDir(dir);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const configs = CONFIG_FILE_NAMES.filter((c) => byName.get(c.fileName)?.isFile === true);
  const chosen = configs[0];
  const versions: VersionEntry[] = [];
  const ignoredEntries: string[] = [];
  for (const e of entries) {
    if (configs.some((c) => c.fileName === e.name)) continue;
    const version = e.isDirectory ? parseVersionDirName(e.name) : undefined;
    if (version === undefined) {
      ignoredEntries.push(e.name);
      continue;
    }
    const vdir = join(dir, e.name);
    const files = (await listDir(vdir)).map((f) => ({ name: f.name, isDirectory: f.isDirectory }));
    versions.push({ version, dir: vdir, files });
  }
  versions.sort((a, b) => a.version - b.version);
  const entry: ModelEntry = {
    name,
    dir,
    shadowedConfigFiles: configs.slice(1).map((c) => c.fileName),
    versions,
    ignoredEntries,
    ...(chosen === undefined ? {} : { configFile: { fileName: chosen.fileName, path: join(dir, chosen.fileName), format: chosen.format } }),
  };
  return entry;
}

async function assertRepositoryDir(repoDir: string): Promise<string> {
  const abs = resolve(repoDir);
  let isDir = false;
  try {
    isDir = (await stat(abs)).isDirectory();
  } catch {
    throw rtError('BAD_CONFIG', `model repository '${repoDir}' does not exist`);
  }
  if (!isDir) throw rtError('BAD_CONFIG', `model repository '${repoDir}' is not a directory`);
  return abs;
}

/**
 * Every model directory of a repository, sorted by name. Hidden entries (`.git`, `.DS_Store`) and plain files
 * at the top level are skipped. A directory whose name is not a safe model name fails the scan, naming it.
 */
export async function scanRepository(repoDir: string): Promise<ModelEntry[]> {
  const abs = await assertRepositoryDir(repoDir);
  const models: ModelEntry[] = [];
  for (const e of await listDir(abs)) {
    if (!e.isDirectory || e.name.startsWith('.')) continue;
    try {
      assertSafeModelName(e.name);
    } catch (err) {
      throw rtError('BAD_CONFIG', `model repository '${repoDir}': ${(err as Error).message}`);
    }
    models.push(await scanModelDir(e.name, join(abs, e.name)));
  }
  return models;
}

/** One model of a repository, e.g. for an explicit load request; MODEL_NOT_FOUND when it has no directory. */
export async function scanModel(repoDir: string, name: string): Promise<ModelEntry> {
  assertSafeModelName(name);
  const abs = await assertRepositoryDir(repoDir);
  const dir = join(abs, name);
  let isDir = false;
  try {
    isDir = (await stat(dir)).isDirectory();
  } catch {
    isDir = false;
  }
  // Clients see this message: it names no host path (the operator's log has the repositories).
  if (!isDir || name.startsWith('.')) throw rtError('MODEL_NOT_FOUND', `no model named '${name}' in the model repository`);
  return scanModelDir(name, dir);
}

const DEFAULT_FILE_NAMES: Readonly<Record<ModelFileKind, string>> = { onnx: 'model.onnx', plan: 'model.plan' };

/** The kind of a model file by its name: `.plan` files are plans, anything else is treated as ONNX. */
export function modelFileKindOf(fileName: string): ModelFileKind {
  return fileName.endsWith('.plan') ? 'plan' : 'onnx';
}

/**
 * The model file of one version: `default_model_filename` when the config sets it, else `model.onnx` or
 * `model.plan` (the first of `kinds` present). Undefined when the version has no such file.
 */
export function findModelFile(
  version: VersionEntry,
  options: { readonly defaultModelFilename?: string | undefined; readonly kinds?: readonly ModelFileKind[] } = {},
): ModelFile | undefined {
  const kinds = options.kinds ?? ['onnx', 'plan'];
  const candidates =
    options.defaultModelFilename !== undefined
      ? [{ fileName: options.defaultModelFilename, kind: modelFileKindOf(options.defaultModelFilename) }]
      : kinds.map((kind) => ({ fileName: DEFAULT_FILE_NAMES[kind], kind }));
  for (const c of candidates) {
    if (!kinds.includes(c.kind)) continue;
    const f = version.files.find((x) => x.name === c.fileName);
    if (f === undefined) continue;
    if (f.isDirectory && c.kind !== 'onnx') continue;
    const path = f.isDirectory ? join(version.dir, c.fileName, 'model.onnx') : join(version.dir, c.fileName);
    return { fileName: c.fileName, path, kind: c.kind };
  }
  return undefined;
}

/**
 * A repository directory with neither a config file nor a numeric version directory is not a model (the bundled
 * repository keeps its training scripts in models/train): it is skipped instead of being listed as a model that
 * failed to load, which would also keep a strictly-ready server unready.
 */
export function isModelDirectory(e: ModelEntry): boolean {
  return e.configFile !== undefined || e.versions.length > 0;
}
