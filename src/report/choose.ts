/**
 * The two choices a caller makes per evaluator before rendering: how to bin its scores and how to
 * highlight its rows. Kept here so the CLI, the server and the tests choose the same way.
 */
import { DEFAULT_NGRAM_SIZE } from "../evaluators/tfidf-similarity.js";
import type { EvaluatorSummary } from "../run/types.js";
import type { HighlightOptions } from "./types.js";

/** Arguments for `histogram(values, { bins, min, max })`, plus whether the bins are integer-centred. */
interface BinChoice {
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
 * A threshold always falls on an edge, so that no bar holds passing and failing scores together
 * (drawn all pass or all fail, with the threshold line through its middle): when it would fall
 * inside a bin (a distance threshold of 10 with bins of 2, a threshold of 0.72), the bins start
 * below the range, by less than one bin, so that it falls on an edge (the first bin of distances
 * then holds only 0 when w is 2).
 */
export function chooseBins(summary: Pick<EvaluatorSummary, "direction" | "min" | "max" | "threshold">): BinChoice {
  const t = summary.threshold;
  if (summary.direction === "minimize") {
    const top = Math.max(0, Math.ceil(summary.max ?? 0), Math.ceil(t ?? 0));
    let width = Math.max(1, Math.ceil((top + 1) / MAX_INTEGER_BINS));
    for (;;) {
      // Passing is distance <= t: the edge between the last passing and the first failing integer is floor(t) + 0.5.
      const min = t === null ? -0.5 : alignedStart(Math.floor(t) + 0.5, -0.5, width);
      const bins = Math.ceil((top + 0.5 - min) / width);
      if (bins <= MAX_INTEGER_BINS) return { bins, min, max: min + bins * width, integer: true };
      width++;
    }
  }
  const [min, max] = scoreRange(summary);
  // A threshold at the top (exact_match passes only at 1.0) needs the top value in a bar of its own:
  // one more bin above, so that [1, 1.05] holds the passes and [0.95, 1) the near misses.
  if (t === max) return { bins: UNIT_BINS + 1, min, max: max + (max - min) / UNIT_BINS, integer: false };
  const width = (max - min) / UNIT_BINS;
  if (t === null || !(t > min && t < max)) return { bins: UNIT_BINS, min, max, integer: false };
  const start = alignedStart(t, min, width);
  if (start === min) return { bins: UNIT_BINS, min, max, integer: false };
  return { bins: UNIT_BINS + 1, min: start, max: start + (UNIT_BINS + 1) * width, integer: false };
}

/**
 * The values an evaluator's scores fall in, which {@link chooseBins} lays its bins over before it shifts them to put
 * the threshold on an edge: a similarity's [0, 1], widened to the lowest and highest score when some fall outside it
 * (a cosine below 0); a distance's [0, ∞).
 */
export function scoreRange(summary: Pick<EvaluatorSummary, "direction" | "min" | "max">): [number, number] {
  if (summary.direction === "minimize") return [0, Number.POSITIVE_INFINITY];
  return [Math.min(0, summary.min ?? 0), Math.max(1, summary.max ?? 1)];
}

/**
 * Where bins of `width` must start, at `min` or less than one bin below it, for `edge` to be one of
 * their edges (`min` itself when it is, allowing for binary rounding: 0.7 is 14 bins of 0.05 above 0).
 */
function alignedStart(edge: number, min: number, width: number): number {
  const k = (edge - min) / width;
  if (Math.abs(k - Math.round(k)) < 1e-9) return min;
  return Number((edge - Math.ceil(k) * width).toFixed(12));
}

/** Evaluators whose score counts character edits: highlighted with a character diff. */
const CHARACTER_EVALUATORS = new Set(["levenshtein", "levenshtein_distance", "exact_match"]);
/** Evaluators that compare token sets or multisets, in any order. */
const TOKEN_SET_EVALUATORS = new Set(["jaccard_similarity", "tfidf_similarity"]);

/**
 * A character diff for edit-distance evaluators (`levenshtein`, `levenshtein_distance`, `exact_match`);
 * for the token-set evaluators (`jaccard_similarity`, `tfidf_similarity`), the words each text has and
 * the other lacks ("word_tokens"), or with tfidf's `"tokenizer": "char_ngram"` the characters in no
 * shared n-gram ("char_ngrams", with its `ngram_size`), after the evaluator's `unicode_normalization`
 * (and exact_match's `trim` and `normalize_whitespace`);
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
  // exact_match's white-space options (trim defaults on, as in its config).
  const whitespace = type === "exact_match" ? { trim: config?.["trim"] !== false, collapse_whitespace: config?.["normalize_whitespace"] === true } : {};
  return {
    unit: CHARACTER_EVALUATORS.has(type) ? "chars" : "words",
    ignore_case: config?.["case_sensitive"] === false,
    ...normalization,
    ...whitespace,
  };
}
