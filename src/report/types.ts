/**
 * What the report renderers read: plain data (numbers, strings, arrays), so a caller can build it from a
 * stored run, a comparison or a list of runs without the renderers knowing where it came from.
 * Field names follow the run store's snake_case.
 */
import type { Direction } from "../types.js";
import type { TokenExplanation } from "../evaluators/explain-tokens.js";
import type { EvaluatorSummary, RowOutcome, RunInfo, RunSummary } from "../run/types.js";

/**
 * Equal-width bins as `histogram(values, { bins, min, max })` returns them: `counts[i]` rows fell in
 * `[edges[i], edges[i + 1])`; `edges.length === counts.length + 1`.
 */
export interface HistogramData {
  edges: number[];
  counts: number[];
  /**
   * True when the values are integers (counts, never below 0) and the edges lie half-way between them, as
   * {@link chooseBins} lays out `levenshtein_distance`: the axis is labelled with integers and the
   * threshold line is drawn between the last passing and the first failing integer.
   */
  integer?: boolean;
}

/**
 * What a row's marks show:
 * - "chars": a character diff, in order (edit-distance evaluators);
 * - "words": a word diff, in order (embedding similarity);
 * - "word_tokens": the words one text has and the other lacks, in any order, split and cased as the
 *   token evaluators split them (jaccard_similarity, tfidf_similarity over words);
 * - "char_ngrams": the characters in no n-gram of `ngram_size` characters that the other text has
 *   (tfidf_similarity over character n-grams).
 */
export type HighlightUnit = "chars" | "words" | "word_tokens" | "char_ngrams";

/** How to highlight a row's differences; see `highlightFor()`. */
export interface HighlightOptions {
  unit: HighlightUnit;
  /**
   * Differences of case only are not highlighted (the evaluator compared case-insensitively); for
   * "word_tokens" and "char_ngrams", tokens are lower-cased as the evaluator's are.
   */
  ignore_case: boolean;
  /** The n-gram size of "char_ngrams" (default 3, tfidf_similarity's). */
  ngram_size?: number;
  /**
   * The evaluator's `unicode_normalization`: every unit marks (and shows) the texts
   * normalised so, as the evaluator compared them.
   */
  unicode_normalization?: "NFC" | "NFKC";
  /** exact_match's `normalize_whitespace`: each run of white space is shown (and compared) as one space. */
  collapse_whitespace?: boolean;
  /** exact_match's `trim`: white space at either end is left out. */
  trim?: boolean;
}

/** A token evaluator's explanation of one row (the shape of `details` from jaccard/tfidf). */
/** What a row card shows of a token evaluator's details: the part that jaccard's and tfidf's both hold. */
export type TokenLists = Omit<TokenExplanation, "shared">;

/** One of an evaluator's worst rows, with the two texts it compared. */
export interface WorstRow {
  /** 1-based row number in the dataset. */
  row: number;
  /** The row's id as the dataset has it (shown as text; JSON for non-strings); null/undefined = none. */
  id: unknown;
  score: number | null;
  passed: boolean | null;
  reasoning: string;
  expected: string;
  output: string;
  /** Present for token evaluators: how many tokens are shared, and those missing from the output and extra in it. */
  tokens?: TokenLists;
}

/** One evaluator's part of a run report. */
export interface RunReportEvaluator {
  summary: EvaluatorSummary;
  /** The scored rows' histogram; null when no row was scored. */
  histogram: HistogramData | null;
  /** Defaults to `highlightFor(summary.type)`. */
  highlight?: HighlightOptions;
  /** Up to N worst rows, worst first (the caller picks N). */
  worst: WorstRow[];
}

/** A row that could not be read at all (bad JSON, ragged CSV). */
export interface RowErrorEntry {
  row: number;
  line?: number;
  message: string;
}

/** Input of `renderRunReport()`. */
export interface RunReportInput {
  run: Pick<RunInfo, "id" | "name" | "started_at" | "finished_at" | "status" | "dataset_path" | "dataset_hash">;
  summary: Pick<RunSummary, "rows" | "row_errors" | "skipped_as_zero">;
  evaluators: RunReportEvaluator[];
  /**
   * Unreadable rows to list under the header, after which the report says how many more `summary.row_errors`
   * counts; optional. A run's report lists its first 100: `runDataset` keeps no more (`rowErrors`).
   */
  row_errors?: RowErrorEntry[];
  /** What the run said besides its figures (an evaluator that failed on rows, a read that stopped), shown at the top. */
  warnings?: string[];
  /** The gates the run was held to (--fail-under, --min-pass-rate, --fail-over, --fail-on-regression), shown at the top; optional. */
  gates?: { name: string; passed: boolean; message: string }[];
  /** ISO 8601 time the report was made; shown in the footer when given (omitted keeps output reproducible). */
  generated_at?: string;
}

/** A run as named in comparison and trend reports. */
export type RunLabel = Pick<RunInfo, "id" | "name" | "started_at" | "dataset_path" | "dataset_hash">;

/** A row whose score moved between run A (baseline) and run B (candidate). */
export interface ComparisonRow {
  row: number;
  /** Its row number in run B, where rows were paired by key (shown beside `row`, run A's). */
  row_b?: number;
  id: unknown;
  score_a: number;
  score_b: number;
  /** score_b - score_a in the evaluator's own units (so negative is worse when maximizing). */
  delta: number;
  /** The texts as the runs compared them; null when they could not be read back (see `texts_unavailable`). */
  expected: string | null;
  output_a: string | null;
  output_b: string | null;
}

/** One evaluator's comparison of two runs over their paired rows. */
export interface ComparisonEvaluator {
  name: string;
  type: string;
  direction: Direction;
  /** Rows scored in both runs. */
  n_pairs: number;
  mean_a: number | null;
  mean_b: number | null;
  /** mean_b - mean_a; null with no pairs. */
  diff: number | null;
  /** Confidence interval of `diff`, [lo, hi]; null when it could not be computed (fewer than 2 pairs). */
  ci: [number, number] | null;
  p_value: number | null;
  /** Which run is better on this evaluator; null when neither is (equal means or no pairs). */
  better: "a" | "b" | null;
  /** Whether the difference is significant at the comparison's level. */
  significant: boolean;
  improved: number;
  regressed: number;
  unchanged: number;
  /** The rows that regressed most, worst first. */
  worst: ComparisonRow[];
  /** Defaults to `highlightFor(type)`. */
  highlight?: HighlightOptions;
}

/** Input of `renderComparisonReport()`. Run A is the baseline, run B the candidate. */
export interface ComparisonReportInput {
  a: RunLabel;
  b: RunLabel;
  evaluators: ComparisonEvaluator[];
  /** Confidence level of the intervals, e.g. 0.95 (shown in the table header); default 0.95. */
  confidence?: number;
  /** How the p-values and intervals were computed, one sentence shown under the table (see `methodsNote`). */
  methods?: string;
  /** The comparison's warnings (ids that disagree, row counts that differ, …), shown at the top. */
  warnings?: string[];
  /**
   * Why some rows' texts are null, one clause per dataset (`the dataset of A (/data/x.jsonl) is missing`):
   * said once at the top, and the row panes say "unavailable" rather than "(empty)".
   */
  texts_unavailable?: string[];
  /** Evaluators of one run only, which were not compared (the text's "only in A (not compared)"): said under the table; default none. */
  only_in_a?: string[];
  only_in_b?: string[];
  generated_at?: string;
}

/** One evaluator's mean across runs, aligned with `TrendReportInput.runs` (null = not in that run). */
export interface TrendSeries {
  name: string;
  type: string;
  direction: Direction;
  threshold: number | null;
  means: (number | null)[];
  /** Per run, whether it had this evaluator but it scored no row (every row skipped or an error), so its mean is null; default none. */
  unscored?: boolean[];
}

/** Input of `renderTrendReport()`: runs oldest first. */
export interface TrendReportInput {
  /** `dataset_path`, when given, is shown in the table (as the terminal's `dataset` column). */
  runs: (Pick<RunInfo, "id" | "name" | "started_at"> & { dataset_path?: string })[];
  series: TrendSeries[];
  /** What the terminal warned about these runs (several datasets, changed configs), shown above the charts. */
  warnings?: string[];
  /** Heading; default "simeval trend". */
  title?: string;
  generated_at?: string;
}

/** One `--fail-under` gate's outcome, e.g. name `levenshtein=0.8`. */
export interface GateResult {
  name: string;
  passed: boolean;
  /** Why it passed or failed, e.g. "mean 0.74 is below 0.8". */
  message: string;
}

/** Input of `renderJUnit()`. */
export interface JUnitInput {
  /** The `<testsuites name>`, e.g. "simeval run 2024-05-01-abc". */
  name: string;
  /** ISO 8601; written as each suite's `timestamp` when given. */
  timestamp?: string;
  /**
   * The run's duration in seconds (a finite number >= 0), written to 3 decimals as the `time` of `<testsuites>`
   * and of each suite of rows (each evaluator's, and the unreadable rows'), whose rows were scored over the
   * whole run alongside the other evaluators'; `simeval:gates` has time 0, its checks made once the run ended.
   * Testcases have no `time`: a row's time per evaluator is not measured, and a `time="0"` on each would say
   * that it took none. Absent: no `time` is written at all.
   */
  time?: number;
  /** Evaluator names in the order their suites should appear. */
  evaluators: string[];
  /**
   * Evaluators whose skipped rows (no expected output) are failed testcases rather than skipped ones:
   * with `--count-skipped-as-zero`, those the summary counted them as failed verdicts for (the ones
   * that give verdicts). Absent or empty: every skipped row is a skipped testcase.
   */
  skippedAsFailed?: readonly string[];
  rows: Iterable<RowOutcome>;
  gates: GateResult[];
}
