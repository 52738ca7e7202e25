import type { Evaluator } from "../evaluators/create.js";
import type { DatasetItem } from "../dataset/rows.js";
import type { Issue } from "../errors.js";
import { compileInputs } from "../mapping/inputs.js";
import { toText } from "../mapping/to-text.js";
import type { EvalRecord } from "../types.js";
import { tfidfTokenCounts, type TfidfTokenization } from "../evaluators/tfidf-similarity.js";
import type { IdfTable } from "../metrics/tfidf.js";
import type { FittedIdfs } from "./scorer-init.js";

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

/** The evaluators that want IDF fitted on the dataset (`tfidf_similarity` with `idf: "dataset"`). */
export function datasetIdfEvaluators(evaluators: readonly Evaluator[]): Evaluator[] {
  return evaluators.filter((e) => e.type === "tfidf_similarity" && e.config["idf"] === "dataset");
}

/**
 * Document frequencies over every expected text of the dataset, in one pass for all `evaluators`, by
 * name: `n` = rows with an expected output, `df(t)` = how many of those contain token t, each
 * evaluator's expected text read and tokenised the way it will score it. Outputs are never read: a row
 * whose output cannot be read (a JSONPath matching several values) is that row's error, but its reference
 * counts all the same, so that two runs on the same references (two prompt variants) share one IDF.
 * `onRows` is told the rows read so far, every 1,024 rows (for progress on a large file); `rows`, the
 * rows read in all: the scoring pass's total, which a JSON array or CSV file does not tell before it is read.
 */
export async function fitDatasetIdf(
  items: AsyncIterable<DatasetItem>,
  evaluators: readonly Evaluator[],
  onRows?: (rows: number) => void,
): Promise<{ idfs: FittedIdfs; rows: number }> {
  const fits = evaluators.map((e) => ({ evaluator: e, expected: expectedTextOf(e), distinctTokens: distinctTokensOf(e), df: new Map<string, number>(), n: 0 }));
  let rows = 0;
  for await (const item of items) {
    if (++rows % 1024 === 0) onRows?.(rows);
    if (!("record" in item)) continue;
    for (const fit of fits) {
      let expected: string | null;
      try {
        expected = fit.expected(item.record);
      } catch {
        continue; // the scoring pass reports this row's error
      }
      if (expected === null) continue;
      fit.n++;
      for (const t of fit.distinctTokens(expected)) fit.df.set(t, (fit.df.get(t) ?? 0) + 1);
    }
  }
  return { idfs: Object.fromEntries(fits.map((f) => [f.evaluator.name, { n: f.n, df: [...f.df] }])), rows };
}

/** A record's expected text as `evaluator` reads it (null when there is none), without reading its output. */
function expectedTextOf(evaluator: Evaluator): (record: EvalRecord) => string | null {
  const issues: Issue[] = [];
  // The spec was validated when the evaluator was created: it compiles without issues.
  const inputs = compileInputs(evaluator.spec.inputs, ["inputs"], issues, evaluator.name);
  return (record) => {
    const expected = inputs.expected(record);
    return expected === undefined || expected === null ? null : toText(expected, "expected");
  };
}

/** The distinct tokens of a text as `evaluator` splits it, its Unicode normalisation first. */
function distinctTokensOf(evaluator: Evaluator): (text: string) => Iterable<string> {
  const counts = tfidfTokenCounts(evaluator.config as unknown as TfidfTokenization);
  const normalization = evaluator.config["unicode_normalization"] as "NFC" | "NFKC" | undefined;
  return normalization ? (t) => counts(t.normalize(normalization)).keys() : (t) => counts(t).keys();
}
