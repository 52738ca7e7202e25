import { mkdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EvalError } from "../../errors.js";
import { createEvaluator } from "../../evaluators/create.js";
import { memoryEmbeddingCache } from "../cache.js";
import { builtinEmbeddingProviders } from "../registry.js";
import { TRANSFORMERS_PACKAGE } from "./defaults.js";
import { createTransformersProvider } from "./definition.js";
import { importTransformers, modelIdentity } from "./load.js";
import { transformersInstalled, writeTinyModel } from "./test-support.js";
import { tempDir } from "../../test-support.js";

const dir = tempDir("simeval-transformers-");
const env = { embeddingProviders: builtinEmbeddingProviders };


describe("transformers provider: config", () => {
  it("needs the model folder as model, and checks its options", () => {
    expect(() => createTransformersProvider({})).toThrow(/"model" must be the path of a local model folder/);
    expect(() => createTransformersProvider({ model: "m", pooling: "max" })).toThrow(EvalError);
    expect(() => createTransformersProvider({ model: "m", pooling: "max" })).toThrow(/transformers: pooling: Invalid option/);
    expect(() => createTransformersProvider({ model: "m", batch_size: 0 })).toThrow(/batch_size/);
    const p = createTransformersProvider({ model: "./models/m", dtype: "q8" });
    // The cache key names the model loaded, which is known only once it is: until then, a key never written.
    expect(p).toMatchObject({ name: "transformers", model: "./models/m", cacheModel: "./models/m q8 mean (not loaded)", batchSize: 32, concurrency: 1 });
  });

  it("switches ONNX Runtime's telemetry off (ORT_DISABLE_TELEMETRY=1) when the provider is created, unless the environment says otherwise", () => {
    const before = process.env["ORT_DISABLE_TELEMETRY"];
    try {
      delete process.env["ORT_DISABLE_TELEMETRY"];
      createTransformersProvider({ model: "./models/m" });
      expect(process.env["ORT_DISABLE_TELEMETRY"]).toBe("1");
      // Set by the user (here, to have it on): theirs, not overwritten.
      process.env["ORT_DISABLE_TELEMETRY"] = "0";
      createTransformersProvider({ model: "./models/m" });
      expect(process.env["ORT_DISABLE_TELEMETRY"]).toBe("0");
    } finally {
      if (before === undefined) delete process.env["ORT_DISABLE_TELEMETRY"];
      else process.env["ORT_DISABLE_TELEMETRY"] = before;
    }
  });

  it("identifies the model for the embedding cache by absolute folder and weights file, not by the path as given", () => {
    // The same relative path "models/m" from two working directories: two models, two keys.
    const one = join(dir, "one");
    const two = join(dir, "two");
    writeTinyModel(join(one, "models", "m"), ["cat"]);
    writeTinyModel(join(two, "models", "m"), ["cat", "dog"]);
    const cwd = process.cwd();
    let keys: string[];
    try {
      process.chdir(one);
      const fromOne = modelIdentity("models/m", "fp32");
      process.chdir(two);
      keys = [fromOne, modelIdentity("models/m", "fp32"), modelIdentity("./models/m/", "fp32")];
    } finally {
      process.chdir(cwd);
    }
    const weights = (root: string) => statSync(join(root, "models", "m", "onnx", "model.onnx"));
    const expected = (root: string) => `${join(root, "models", "m")}@${weights(root).size}:${Math.floor(weights(root).mtimeMs)}`;
    expect(keys).toEqual([expected(one), expected(two), expected(two)]);
    expect(keys[0]).not.toBe(keys[1]);
    // Weights replaced in place (another size): another key.
    writeFileSync(join(one, "models", "m", "onnx", "model.onnx"), "replaced");
    expect(modelIdentity(join(one, "models", "m"), "fp32")).toBe(`${join(one, "models", "m")}@8:${Math.floor(weights(one).mtimeMs)}`);
  });

  it("names the missing folder or file before loading anything", async () => {
    const missing = createTransformersProvider({ model: join(dir, "nowhere") });
    await expect(missing.embed(["x"])).rejects.toThrow(/the model folder ".*nowhere" .* does not exist; expected a sentence-transformers model/);
    const partial = join(dir, "partial");
    mkdirSync(partial);
    writeFileSync(join(partial, "config.json"), "{}");
    writeFileSync(join(partial, "tokenizer.json"), "{}");
    await expect(createTransformersProvider({ model: partial, dtype: "q8" }).embed(["x"])).rejects.toThrow(/has no onnx\/model_quantized\.onnx \(the weights for dtype "q8"\)/);
  });

  it("says how to install transformers.js when it is missing", async () => {
    const error = await importTransformers("@simeval/no-such-package").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvalError);
    expect(error).toMatchObject({ code: "CONFIG_INVALID" });
    expect((error as Error).message).toMatch(/@huggingface\/transformers is not installed.*ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface\/transformers/);
  });
});

if (!transformersInstalled) console.warn(`transformers: the model tests are skipped: ${TRANSFORMERS_PACKAGE} is not installed (ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save ${TRANSFORMERS_PACKAGE} to run them; .ci/run does).`);

describe.skipIf(!transformersInstalled)("transformers provider with transformers.js and ONNX Runtime on a tiny model", () => {
  const model = writeTinyModel(join(dir, "tiny"), ["hello", "world", "the", "cat", "sat", "on", "mat"]);
  const id = (t: string) => model.vocab.get(t) ?? (model.vocab.get("[UNK]") as number);

  /** Mean pooling written out: the average of the tokens' rows, [CLS] and [SEP] included; then L2. */
  function reference(words: string[], pooling: "mean" | "cls", normalize: boolean): number[] {
    const ids = [id("[CLS]"), ...words.map(id), id("[SEP]")];
    const rows = pooling === "cls" ? [ids[0] as number] : ids;
    const sum = new Array<number>(model.dim).fill(0);
    for (const r of rows) model.embedding(r).forEach((x, j) => (sum[j] = (sum[j] as number) + x / rows.length));
    const norm = normalize ? Math.hypot(...sum) : 1;
    return sum.map((x) => x / norm);
  }

  it("embeds with mean pooling over real tokens (padding excluded) and normalises", async () => {
    const p = createTransformersProvider({ model: model.dir });
    // Different lengths in one batch: the shorter text is padded with [PAD], whose row is 1000s.
    const { vectors } = await p.embed(["Hello world", "the cat sat on the mat", "Hello zebra"]);
    expect(vectors).toHaveLength(3);
    const expected = [reference(["hello", "world"], "mean", true), reference(["the", "cat", "sat", "on", "the", "mat"], "mean", true), reference(["hello", "[UNK]"], "mean", true)];
    vectors.forEach((v, i) => expected[i]!.forEach((x, j) => expect(v[j]).toBeCloseTo(x, 6)));
  });

  it("pools the [CLS] token and skips normalisation when told", async () => {
    const { vectors } = await createTransformersProvider({ model: model.dir, pooling: "cls", normalize: false }).embed(["the cat"]);
    expect(Array.from(vectors[0]!)).toEqual(reference(["the", "cat"], "cls", false));
  });

  it("scores through semantic_similarity", async () => {
    const ev = createEvaluator({ type: "semantic_similarity", config: { provider: "transformers", model: model.dir, threshold: 0.99 } }, env);
    const same = await ev.evaluate({ output: "the cat sat", expected: "The cat sat" });
    expect(same).toMatchObject({ passed: true, details: { provider: "transformers", model: model.dir } });
    expect(same.score).toBeCloseTo(1, 6);
    const other = await ev.evaluate({ output: "hello world", expected: "the cat sat on the mat" });
    const a = reference(["hello", "world"], "mean", true);
    const b = reference(["the", "cat", "sat", "on", "the", "mat"], "mean", true);
    expect(other.score).toBeCloseTo(a.reduce((s, x, j) => s + x * (b[j] as number), 0), 6);
  });

  it("does not serve vectors cached from another model under the same relative path", async () => {
    // One embedding cache, as a run database keeps, and "models/m" run from two folders holding different models.
    const shared = memoryEmbeddingCache();
    const one = join(dir, "rel-one");
    const two = join(dir, "rel-two");
    writeTinyModel(join(one, "models", "m"), ["cat", "dog"]);
    writeTinyModel(join(two, "models", "m"), ["cat", "zebra", "dog"]);
    const score = async (cwd: string, cache = shared) => {
      const before = process.cwd();
      process.chdir(cwd);
      try {
        const ev = createEvaluator({ type: "semantic_similarity", config: { provider: "transformers", model: "models/m" } }, { ...env, embeddingCache: cache });
        return (await ev.evaluate({ output: "cat", expected: "dog" })).score as number;
      } finally {
        process.chdir(before);
      }
    };
    const fromOne = await score(one);
    const fromTwo = await score(two);
    expect(fromTwo).toBe(await score(two, memoryEmbeddingCache()));
    expect(fromTwo).not.toBeCloseTo(fromOne, 3);
  });

  it("reports a model that does not load as a provider failure", async () => {
    const broken = writeTinyModel(join(dir, "broken"), ["a"]);
    writeFileSync(join(broken.dir, "onnx", "model.onnx"), "not a protobuf");
    await expect(createTransformersProvider({ model: broken.dir }).embed(["a"])).rejects.toThrow(/transformers: could not load the model in .*broken/);
    unlinkSync(join(broken.dir, "onnx", "model.onnx"));
  });
});
