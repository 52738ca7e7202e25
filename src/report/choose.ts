/**
 * The two choices a caller makes per evaluator before rendering: how to bin its scores and how to
 * highlight its rows. Kept here so the CLI, the server and the tests choose the same way.
 */
import { DEFAULT_NGRAM_SIZE } from "../evaluators/tfidf-similarity.js";
import type { EvaluatorSummary } from "../run/types.js";
import type { HighlightOptions } from "./types.js";

/** Arguments for `histogram(values, { bins, min, max })`, plus whether the bins are integer-centred. */
export interface BinChoice {
  bins: number;
  min: number;
  max: number;
  integer: boolean;
}

/** Bins for scores in [0, 1]: 0.05 wide, so 0.7 or 0.85 thresholds fall on an edge. */
export const UNIT_BINS = 20;
/** At most this many bars for integer scores; wider integer bins beyond that. */
export const MAX_INTEGER_BINS = 40;

/**
 * Minimizing evaluators (`levenshtein_distance`: integer edit counts with no fixed range) get
 * integer-centred bins from 0 up to the larger of the max score and the threshold: width
 * w = ceil((top + 1) / 40), so bin k holds [k·w, k·w + w - 1] and its edges are k·w - 0.5 and
 * (k + 1)·w - 0.5. Everything else gets 20 bins over [0, 1], widened to [min, max] if scores
 * fall outside it, and one bin more above when the threshold is the top value.
 */
export function chooseBins(summary: Pick<EvaluatorSummary, "direction" | "min" | "max" | "threshold">): BinChoice {
  if (summary.direction === "minimize") {
    const top = Math.max(0, Math.ceil(summary.max ?? 0), Math.ceil(summary.threshold ?? 0));
    const width = Math.max(1, Math.ceil((top + 1) / MAX_INTEGER_BINS));
    const bins = Math.ceil((top + 1) / width);
    return { bins, min: -0.5, max: bins * width - 0.5, integer: true };
  }
  const min = Math.min(0, summary.min ?? 0);
  const max = Math.max(1, summary.max ?? 1);
  // A threshold at the top (exact_match passes only at 1.0) needs the top value in a bar of its own:
  // one more bin above, so that [1, 1.05] holds the passes and [0.95, 1) the near misses.
  if (summary.threshold === max) return { bins: UNIT_BINS + 1, min, max: max + (max - min) / UNIT_BINS, integer: false };
  return { bins: UNIT_BINS, min, max, integer: false };
}

/** Evaluators whose score counts character edits: highlighted with a character diff. */
const CHARACTER_EVALUATORS = new Set(["levenshtein", "levenshtein_distance", "exact_match"]);
/** Evaluators that compare token sets or multisets, in any order. */
const TOKEN_SET_EVALUATORS = new Set(["jaccard_similarity", "tfidf_similarity"]);

/**
 * A character diff for edit-distance evaluators (`levenshtein`, `levenshtein_distance`, `exact_match`);
 * for the token-set evaluators (`jaccard_similarity`, `tfidf_similarity`), the words each text has and
 * the other lacks ("word_tokens"), or with tfidf's `"tokenizer": "char_ngram"` the characters in no
 * shared n-gram ("char_ngrams", with its `ngram_size`), after the evaluator's `unicode_normalization`;
 * a word diff for the others (embeddings). Case differences are not highlighted when the evaluator's
 * config says `case_sensitive: false` (pass the config with its defaults filled in); the token-set
 * evaluators are case-insensitive unless it says `case_sensitive: true`, as their tokens are by default.
 */
export function highlightFor(type: string, config?: Record<string, unknown>): HighlightOptions {
  // Every evaluator takes unicode_normalization: the texts are marked as the evaluator compared them.
  const form = config?.["unicode_normalization"];
  const normalization: Pick<HighlightOptions, "unicode_normalization"> = form === "NFC" || form === "NFKC" ? { unicode_normalization: form } : {};
  if (TOKEN_SET_EVALUATORS.has(type)) {
    const ignore_case = config?.["case_sensitive"] !== true;
    if (type === "tfidf_similarity" && config?.["tokenizer"] === "char_ngram") {
      const size = config["ngram_size"];
      return { unit: "char_ngrams", ignore_case, ngram_size: typeof size === "number" ? size : DEFAULT_NGRAM_SIZE, ...normalization };
    }
    return { unit: "word_tokens", ignore_case, ...normalization };
  }
  return {
    unit: CHARACTER_EVALUATORS.has(type) ? "chars" : "words",
    ignore_case: config?.["case_sensitive"] === false,
    ...normalization,
  };
}
