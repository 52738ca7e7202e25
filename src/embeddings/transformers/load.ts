import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { EvalError } from "../../errors.js";
import { ONNX_FILES, TRANSFORMERS_INSTALL_HINT, TRANSFORMERS_PACKAGE, type OnnxDtype } from "./defaults.js";

/** Embeds texts, one vector per text, in order. */
type SentenceEncoder = (texts: readonly string[]) => Promise<Float32Array[]>;

interface EncoderOptions {
  /** The model folder, as given in the config (relative to the working directory). */
  folder: string;
  dtype: OnnxDtype;
  pooling: "mean" | "cls";
  normalize: boolean;
}

/** The part of transformers.js this provider uses. */
interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(
    task: "feature-extraction",
    model: string,
    options: { dtype: string; local_files_only: boolean },
  ): Promise<(texts: string[], options: { pooling: "mean" | "cls"; normalize: boolean }) => Promise<{ data: ArrayLike<number>; dims: number[] }>>;
}

/** transformers.js resolves a model id against one global folder: loads take turns so each sees its own. */
let loads: Promise<unknown> = Promise.resolve();

/**
 * Loads the model folder with transformers.js for feature extraction, remote models switched off.
 * Throws CONFIG_INVALID when the folder or one of its files is missing (naming it) or the package is
 * not installed (saying how to install it), PROVIDER_FAILED when the model does not load.
 */
export async function loadSentenceEncoder(opts: EncoderOptions): Promise<SentenceEncoder> {
  const folder = resolve(opts.folder);
  checkFolder(opts.folder, folder, opts.dtype);
  const transformers = await importTransformers();
  const load = loads.then(async () => {
    // Remote models off: a missing file is an error, never a download.
    transformers.env.allowRemoteModels = false;
    transformers.env.allowLocalModels = true;
    transformers.env.localModelPath = dirname(folder) + sep;
    return transformers.pipeline("feature-extraction", basename(folder), { dtype: opts.dtype, local_files_only: true });
  });
  loads = load.catch(() => undefined);
  let extract: Awaited<typeof load>;
  try {
    extract = await load;
  } catch (cause) {
    throw new EvalError("PROVIDER_FAILED", `transformers: could not load the model in ${folder}: ${(cause as Error).message}`, { cause });
  }
  return async (texts) => {
    const output = await extract([...texts], { pooling: opts.pooling, normalize: opts.normalize });
    const [rows, dim] = output.dims;
    if (output.dims.length !== 2 || rows !== texts.length || !dim) {
      throw new EvalError("PROVIDER_FAILED", `transformers: the model in ${folder} gave an output of shape [${output.dims.join(", ")}] for ${texts.length} texts; expected [${texts.length}, dimensions]`);
    }
    const data = Float32Array.from(output.data);
    return Array.from({ length: rows }, (_, i) => data.subarray(i * dim, (i + 1) * dim));
  };
}

/**
 * What identifies the model loaded from `folder` (relative to the working directory) with `dtype`, for
 * the embedding cache's key: the folder's absolute path and the size and modification time (whole ms)
 * of the weights file that dtype reads, as `/abs/models/m@<size>:<mtime>`. So the same relative path
 * in another folder, or weights replaced under the same path, does not reuse vectors cached from the
 * other model. Call it once the folder has been checked (it stats the weights file).
 */
export function modelIdentity(folder: string, dtype: OnnxDtype): string {
  const absolute = resolve(folder);
  const weights = statSync(join(absolute, "onnx", ONNX_FILES[dtype]));
  return `${absolute}@${weights.size}:${Math.floor(weights.mtimeMs)}`;
}

function checkFolder(given: string, folder: string, dtype: OnnxDtype): void {
  const missing = (what: string) =>
    new EvalError("CONFIG_INVALID", `transformers: the model folder "${given}" (${folder}) ${what}; expected a sentence-transformers model exported for transformers.js (config.json, tokenizer.json, onnx/${ONNX_FILES[dtype]})`, {
      issues: [{ path: ["config", "model"], message: `model folder "${given}" ${what}`, received: given }],
    });
  if (!existsSync(folder)) throw missing("does not exist");
  if (!statSync(folder).isDirectory()) throw missing("is not a folder");
  for (const file of ["config.json", "tokenizer.json", join("onnx", ONNX_FILES[dtype])]) {
    if (!existsSync(join(folder, file))) throw missing(`has no ${file}${file.startsWith("onnx") ? ` (the weights for dtype "${dtype}")` : ""}`);
  }
}

/** Imports transformers.js (`specifier` is for tests), or says how to install it. */
export async function importTransformers(specifier: string = TRANSFORMERS_PACKAGE): Promise<TransformersModule> {
  // A variable specifier: the package is optional, so TypeScript must not look for it.
  try {
    return (await import(specifier)) as TransformersModule;
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new EvalError("CONFIG_INVALID", `transformers: the package ${TRANSFORMERS_PACKAGE} is not installed. It is an optional dependency (about 470 MB with ONNX Runtime), installed only for this provider: ${TRANSFORMERS_INSTALL_HINT}`, {
        cause,
        issues: [{ path: ["config", "provider"], message: `${TRANSFORMERS_PACKAGE} is not installed: ${TRANSFORMERS_INSTALL_HINT}` }],
      });
    }
    throw new EvalError("PROVIDER_FAILED", `transformers: could not load ${TRANSFORMERS_PACKAGE}: ${(cause as Error).message}`, { cause });
  }
}
