import { z } from "zod";
import { EvalError } from "../../errors.js";
import { loadOnce } from "../load-once.js";
import { processEnv } from "../process-env.js";
import { parseProviderOptions } from "../provider-options.js";
import type { EmbeddingProvider, EmbeddingProviderDefinition, EmbeddingProviderOptions } from "../provider.js";
import { ONNX_FILES, TRANSFORMERS_PACKAGE, type OnnxDtype } from "./defaults.js";

/** The `transformers` provider's config keys (besides `provider` and `model`), each defaulted. */
const transformersOptions = {
  pooling: z.enum(["mean", "cls"]).default("mean").describe("transformers: how token vectors become one text vector, as the model card says: mean (sentence-transformers) or cls"),
  normalize: z.boolean().default(true).describe("transformers: L2-normalise the pooled vector (cosine is the same either way)"),
  dtype: z.enum(Object.keys(ONNX_FILES) as [OnnxDtype, ...OnnxDtype[]]).default("fp32").describe("transformers: which ONNX weights of the model folder to run (fp32: onnx/model.onnx, q8: onnx/model_quantized.onnx, …)"),
  batch_size: z.number().int().min(1).max(1024).default(32).describe("transformers: texts per forward pass"),
} satisfies z.ZodRawShape;

const optionsSchema = z.strictObject(transformersOptions);

/**
 * Sentence embeddings from a sentence-transformers ONNX model run locally by transformers.js: the
 * model folder given as `model` (a path, e.g. `./models/all-MiniLM-L6-v2`, holding `config.json`,
 * `tokenizer.json` and `onnx/model.onnx`, as exported for transformers.js) is loaded from disk only;
 * nothing is downloaded. Texts are tokenised (truncated to the model's maximum length), run through the
 * model, pooled (`pooling`, default mean over the real tokens, padding excluded) and L2-normalised
 * (`normalize`, default true): what sentence-transformers does for models such as all-MiniLM-L6-v2.
 *
 * transformers.js is an optional dependency (about 470 MB with ONNX Runtime):
 * `ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers`. The package and the model are
 * loaded at the first `embed()`, once per process (each scoring thread loads its own copy).
 *
 * `model` as shown in results is the folder as given; the embedding-cache key (`cacheModel`) adds dtype,
 * pooling and the model loaded (absolute folder, weights' size and mtime; see `modelIdentity`).
 */
export function createTransformersProvider(options: EmbeddingProviderOptions): EmbeddingProvider {
  const { model, ...rest } = options;
  if (typeof model !== "string" || model.trim() === "") {
    const message = `"model" must be the path of a local model folder (e.g. "./models/all-MiniLM-L6-v2"), but received ${model === undefined ? "nothing" : JSON.stringify(model)}`;
    throw new EvalError("CONFIG_INVALID", `transformers: ${message}`, {
      issues: [{ path: ["config", "model"], message, expected: "path of a model folder", received: String(model) }],
    });
  }
  const { pooling, normalize, dtype, batch_size: batchSize } = parseProviderOptions("transformers", optionsSchema, rest);
  quietOnnxRuntime();

  const shownKey = `${model} ${dtype} ${pooling}${normalize ? "" : " unnormalized"}`;
  // The embedding cache's key: `model` is the folder as given (often relative), so the key also holds the
  // model loaded (absolute folder, weights' size and mtime): the same relative path run from another
  // folder, or weights replaced in place, must not be served vectors cached from the other model.
  // Until the load, a key never written.
  let loadedFrom: string | null = null;
  const encoder = loadOnce(async () => {
    const { loadSentenceEncoder, modelIdentity } = await import("./load.js");
    const encode = await loadSentenceEncoder({ folder: model, dtype, pooling, normalize });
    loadedFrom = modelIdentity(model, dtype);
    return encode;
  });

  return {
    name: "transformers",
    model,
    get cacheModel() {
      return `${shownKey} ${loadedFrom ?? "(not loaded)"}`;
    },
    batchSize,
    // ONNX Runtime already uses every core for one forward pass.
    concurrency: 1,
    async embed(texts, signal) {
      signal?.throwIfAborted();
      const encode = await encoder();
      return { vectors: texts.length ? await encode(texts) : [] };
    },
  };
}

/** The `transformers` entry of the provider registry. */
export const transformersProviderDefinition: EmbeddingProviderDefinition = {
  name: "transformers",
  description: `Local: a sentence-transformers ONNX model folder run by transformers.js (${TRANSFORMERS_PACKAGE}, optional), mean pooling and normalisation`,
  options: transformersOptions,
  create: createTransformersProvider,
};

/**
 * Switches off ONNX Runtime's usage telemetry (`ORT_DISABLE_TELEMETRY=1`) unless the environment says otherwise:
 * onnxruntime-node 1.30 on Linux starts Microsoft's 1DS telemetry with each process that loads it (outside CI, which
 * it detects), which tries to send to Microsoft's event collector and leaves `.ses` and `mat-debug-PID.log` in the
 * temporary folder. simeval sends nothing anywhere that the config does not name. Set on the thread that creates
 * the provider: the main thread's `process.env` is the process's environment, read by the scoring threads'
 * ONNX Runtime too (the runner creates every evaluator on the main thread before it starts them); a thread's
 * is its own copy. Nothing in a browser, which has no `process`.
 */
function quietOnnxRuntime(): void {
  const env = processEnv();
  if (env && env["ORT_DISABLE_TELEMETRY"] === undefined) env["ORT_DISABLE_TELEMETRY"] = "1";
}
