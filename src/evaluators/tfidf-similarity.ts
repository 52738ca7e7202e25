import { z } from "zod";
import { checkedIdf, tfidfAnalysisOfCounts, tfidfCosineOfCounts, type IdfTable } from "../metrics/tfidf.js";
import { ngramCounts, equalWithoutTokens, wordCounts } from "../metrics/tokens.js";
import { describeValue, EvalError, type Issue } from "../errors.js";
import { defineEvaluator, withVerdict, type ScoreArgs } from "./define.js";
import { explainTokenSets, listedToken } from "./explain-tokens.js";
import { scoreText } from "./score-text.js";

/** How many of the heaviest terms `details.top_terms` lists (each token as `listedToken` shows it). */
const TOP_TERMS = 5;
/** The n-gram size of `"tokenizer": "char_ngram"` when `ngram_size` is not given. */
export const DEFAULT_NGRAM_SIZE = 3;
/**
 * The largest `ngram_size`, which bounds the time a huge value takes. N-grams that cannot be coded as
 * numbers (more than a few characters, or a large alphabet) are hashed whole: two 50 MB texts took 2.3 s
 * at 3, 14 s at 10 and about 50 s at 16 and 32; past 16,383 characters V8 hashes a string by its length
 * alone, and counting all but never ends. Character n-grams are used at 2 to about 10.
 */
const MAX_NGRAM_SIZE = 32;

/** How tfidf_similarity splits a text, as its config says. */
export interface TfidfTokenization {
  tokenizer: "word" | "char_ngram";
  ngram_size: number;
  case_sensitive: boolean;
}

/**
 * Token -> count of a text, split as `config` says: what the evaluator weighs, and what the dataset
 * IDF is fitted on (its keys). A text's counts are shared with the other evaluators of its row (and with
 * the explanation of a row scored first for its verdict alone).
 */
export function tfidfTokenCounts(config: TfidfTokenization): (text: string) => ReadonlyMap<string, number> {
  return config.tokenizer === "word"
    ? (t) => wordCounts(t, config.case_sensitive)
    : (t) => ngramCounts(t, config.ngram_size, config.case_sensitive);
}

/**
 * TF-IDF cosine similarity (the "Similarity (TF-IDF)" document).
 *
 * Tokens: words (runs of Unicode letters, marks and numbers) or overlapping character n-grams of the
 * white-space-collapsed, trimmed text; lower-cased unless `case_sensitive`. Weight = raw count ×
 * smoothed IDF `ln((1 + N) / (1 + df)) + 1` over the two texts (N = 2) — or, with `idf: "dataset"`,
 * over every expected text of the dataset (N = rows with an expected output) — L2-normalised; score = cosine,
 * unrounded, in [0, 1]. Identical token multisets score exactly 1.0. When neither text has a token,
 * 1.0 if the texts are equal after the case rule and white-space collapsing, else 0.0; when only one has tokens, 0.0.
 * Passes iff score >= threshold. Defaults: threshold 0.7, word tokens, ngram_size 3, case-insensitive.
 * `ngram_size` given with word tokens is a config error (see {@link ngramSizeWithWords}).
 */
export const tfidfSimilarityEvaluator = defineEvaluator({
  type: "tfidf_similarity",
  title: "Similarity (TF-IDF)",
  description: "Cosine similarity of TF-IDF vectors of words or character n-grams.",
  direction: "maximize",
  scores: { min: 0, max: 1 },
  config: {
    threshold: z.number().min(0).max(1).default(0.7).describe("Minimum similarity to pass"),
    tokenizer: z.enum(["word", "char_ngram"]).default("word").describe("How texts are split: words, or overlapping character n-grams"),
    ngram_size: z.number().int().min(1).max(MAX_NGRAM_SIZE).default(DEFAULT_NGRAM_SIZE).describe('Character n-gram size; only with "tokenizer": "char_ngram"'),
    case_sensitive: z.boolean().default(false).describe("Compare tokens case-sensitively"),
    idf: z
      .enum(["pair", "dataset"])
      .default("pair")
      .describe('IDF over the two texts, or "dataset": fitted on every expected text of the run (simeval run)'),
  },
  checkConfig: (given, config) => ngramSizeWithWords(given, config.tokenizer),
  create(config, env, name) {
    if (config.idf === "dataset" && !env.datasetIdf) {
      const message = 'idf "dataset" is fitted on a dataset\'s expected texts, so it works only in a dataset run (`simeval run`); use idf "pair" to score single pairs';
      throw new EvalError("CONFIG_INVALID", `tfidf_similarity: ${message}`, {
        issues: [{ path: ["config", "idf"], message, received: "dataset" }],
      });
    }
    const given = config.idf === "dataset" ? env.datasetIdf?.(name) : undefined;
    // The runner's tables are right; a library caller's own env.datasetIdf is checked here, once, where a bad one threw a TypeError on every row.
    if (config.idf === "dataset" && !isIdfTable(given)) {
      const message = `env.datasetIdf(${JSON.stringify(name)}) must be an IdfTable { n: an integer >= 0, df(token) }, received ${describeValue(given)}`;
      throw new EvalError("CONFIG_INVALID", `tfidf_similarity: ${message}`, { issues: [{ path: ["config", "idf"], message, received: describeValue(given) }] });
    }
    // And each df it gives, as tfidfCosine checks its idf's: a df above n (a weight below 1) or not whole was scored as it came.
    const idf = checkedIdf("tfidf_similarity", given, `env.datasetIdf(${JSON.stringify(name)})`);
    const count = tfidfTokenCounts(config);
    const tokenName = config.tokenizer === "word" ? "word" : `${config.ngram_size}-gram`;
    // Neither text has a token: 1.0 when the texts are the same (see equalWithoutTokens), else 0.0.
    const noTokens = ({ output, expected }: ScoreArgs) => (equalWithoutTokens(output, expected, config.case_sensitive) ? 1 : 0);
    const verdict = (args: ScoreArgs) => {
      const a = count(args.output);
      const b = count(args.expected);
      const score = a.size === 0 && b.size === 0 ? noTokens(args) : tfidfCosineOfCounts(a, b, idf);
      return { score, passed: score >= config.threshold };
    };
    return withVerdict((args) => {
      const a = count(args.output);
      const b = count(args.expected);
      const analysis = tfidfAnalysisOfCounts(a, b, idf);
      const tokens = explainTokenSets(a, b);
      const score = a.size === 0 && b.size === 0 ? noTokens(args) : analysis.score;
      const passed = score >= config.threshold;
      let why: string;
      if (a.size === 0 && b.size === 0) {
        why = `Neither text has a ${tokenName}; the texts are ${score === 1 ? "equal" : "different"}, so the score is ${score.toFixed(1)}.`;
      } else if (a.size === 0 || b.size === 0) {
        why = `The ${a.size === 0 ? "output" : "expected output"} has no ${tokenName}s, so the score is 0.0.`;
      } else {
        const top = analysis.terms.filter((t) => t.contribution > 0).slice(0, 3).map((t) => JSON.stringify(listedToken(t.token)));
        why = `TF-IDF cosine over ${tokenName}s: ${scoreText(score, 4, config.threshold, passed)}${top.length ? `; the shared terms weighing most: ${top.join(", ")}` : "; no shared terms"}.`;
      }
      return {
        score,
        passed,
        reasoning: `${why} ${passed ? "Meets" : "Below"} the threshold ${config.threshold}.`,
        details: {
          tokenizer: config.tokenizer,
          ngram_size: config.tokenizer === "char_ngram" ? config.ngram_size : null,
          missing: tokens.missing,
          extra: tokens.extra,
          shared_count: tokens.shared_count,
          missing_count: tokens.missing_count,
          extra_count: tokens.extra_count,
          top_terms: analysis.terms.slice(0, TOP_TERMS).map((t) => ({
            token: listedToken(t.token),
            output_count: t.countA,
            expected_count: t.countB,
            idf: t.idf,
            contribution: t.contribution,
          })),
        },
      };
    }, verdict);
  },
});

/**
 * `ngram_size` given while the tokenizer is "word" (set or by default): an issue, since words take no
 * n-gram size and it would be ignored. A config that names `"tokenizer": "word"` and the default size is
 * let through: it is how a completed config reads (a recorded run's spec, an evaluator's `spec`), so that
 * such a spec can be given again.
 */
function ngramSizeWithWords(given: Readonly<Record<string, unknown>>, tokenizer: TfidfTokenization["tokenizer"]): Issue[] {
  const size = given["ngram_size"];
  if (tokenizer !== "word" || size === undefined) return [];
  if (given["tokenizer"] === "word" && size === DEFAULT_NGRAM_SIZE) return [];
  const tokens = given["tokenizer"] === undefined ? 'the tokenizer is "word" by default' : 'the tokenizer is "word"';
  return [
    {
      path: ["ngram_size"],
      message: `config.ngram_size applies only with "tokenizer": "char_ngram" (${tokens}, and words have no n-gram size); set "tokenizer": "char_ngram" for character n-grams, or remove ngram_size`,
      expected: 'no ngram_size, or "tokenizer": "char_ngram"',
      received: describeValue(size),
    },
  ];
}

/** Whether `value` is shaped as an IdfTable: `n` an integer >= 0 and `df` a function. */
function isIdfTable(value: unknown): value is IdfTable {
  if (typeof value !== "object" || value === null) return false;
  const { n, df } = value as Partial<IdfTable>;
  return Number.isInteger(n) && (n as number) >= 0 && typeof df === "function";
}
