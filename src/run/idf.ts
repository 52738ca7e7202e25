import type { Evaluator } from "../evaluators/create.js";
import type { DatasetItem } from "../dataset/rows.js";
import { charNgrams, wordTokens } from "../metrics/tokens.js";
import type { IdfTable } from "../metrics/tfidf.js";
import type { FittedIdf } from "./scorer-init.js";

/**
 * Stands in for the dataset IDF until the first pass has fitted it: where a run's specs are validated
 * (the main thread), and on a scoring thread until the fitted table arrives. Scoring with it throws.
 */
export function unfittedIdf(): IdfTable {
  return {
    n: 0,
    df: () => {
      throw new Error("the dataset IDF is used before it was fitted");
    },
  };
}

/** Whether any evaluator wants IDF fitted on the dataset (`tfidf_similarity` with `idf: "dataset"`). */
export function needsDatasetIdf(evaluators: readonly Evaluator[]): Evaluator | undefined {
  return evaluators.find((e) => e.type === "tfidf_similarity" && e.config["idf"] === "dataset");
}

/**
 * Document frequencies over every expected text of the dataset (a first pass): `n` = rows with an
 * expected output, `df(t)` = how many of those contain token t. Tokenised the way `evaluator` will.
 */
export async function fitDatasetIdf(items: AsyncIterable<DatasetItem>, evaluator: Evaluator): Promise<FittedIdf> {
  const config = evaluator.config;
  const caseSensitive = config["case_sensitive"] === true;
  const tokenize =
    config["tokenizer"] === "char_ngram"
      ? (t: string) => charNgrams(t, config["ngram_size"] as number, caseSensitive)
      : (t: string) => wordTokens(t, caseSensitive);
  const df = new Map<string, number>();
  let n = 0;
  for await (const item of items) {
    if (!("record" in item)) continue;
    let expected: string | null;
    try {
      expected = evaluator.texts(item.record).expected;
    } catch {
      continue; // the scoring pass reports this row's error
    }
    if (expected === null) continue;
    n++;
    const text = config["unicode_normalization"] ? expected.normalize(config["unicode_normalization"] as "NFC" | "NFKC") : expected;
    for (const t of new Set(tokenize(text))) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { n, df: [...df] };
}
