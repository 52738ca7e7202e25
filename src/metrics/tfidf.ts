import { badArgument, notTokens } from "./arguments.js";
import { checkedCounts } from "./tokens.js";

/**
 * Document frequencies for IDF: `n` documents, `df(token)` of which contain the token.
 * By default the two texts being compared are the whole corpus (n = 2).
 */
export interface IdfTable {
  n: number;
  df(token: string): number;
}

/**
 * Smoothed IDF: `ln((1 + n) / (1 + df)) + 1` — never 0, so shared words still count. Throws EvalError
 * (INPUT_INVALID) unless `n` is an integer >= 0 and `df` an integer in [0, n], as an {@link IdfTable}'s
 * must be (NaN gave NaN, and a df above n a weight below 1).
 */
export function smoothIdf(n: number, df: number): number {
  checkDocuments("smoothIdf", "n", n);
  checkFrequency("smoothIdf", "df", df, "n", n);
  return idfOf(n, df);
}

/** Throws INPUT_INVALID (as `fn`'s argument `arg`) unless `n` is a document count: an integer >= 0. */
function checkDocuments(fn: string, arg: string, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw badArgument(fn, arg, "an integer >= 0", n);
}

/** Throws INPUT_INVALID (as `fn`'s argument `arg`) unless `df` is a document frequency among `n` (named `nArg`) documents: an integer in [0, n]. */
function checkFrequency(fn: string, arg: string, df: number, nArg: string, n: number): void {
  if (!Number.isInteger(df) || df < 0 || df > n) throw badArgument(fn, arg, `an integer in [0, ${nArg} = ${n}]`, df);
}

/** {@link smoothIdf} of arguments already checked: the metrics' loops call this. */
function idfOf(n: number, df: number): number {
  return Math.log((1 + n) / (1 + df)) + 1;
}

/**
 * `idf` as a public caller gave it, checked: `n` an integer >= 0 and `df` a function, each of whose
 * answers must be an integer in [0, n]; else INPUT_INVALID naming the function and the table as `arg`
 * (`idf`, or `env.datasetIdf("tfidf")` for an evaluator's). A malformed table gave NaN.
 */
export function checkedIdf(fn: string, idf: IdfTable | undefined, arg = "idf"): IdfTable | undefined {
  if (idf === undefined) return undefined;
  if (typeof idf !== "object" || idf === null || typeof idf.df !== "function") throw badArgument(fn, arg, "an IdfTable { n, df(token) }", idf);
  checkDocuments(fn, `${arg}.n`, idf.n);
  // `n` and `df` are read at each use: a dataset run's table is filled in place once its IDF is fitted.
  return {
    get n() {
      return idf.n;
    },
    df(token) {
      const n = idf.n;
      const df = idf.df(token);
      // Checked inline, the messages made only on failure: this runs for every token of every row of a dataset run.
      if (!Number.isInteger(n) || n < 0) checkDocuments(fn, `${arg}.n`, n);
      if (!Number.isInteger(df) || df < 0 || df > n) checkFrequency(fn, `${arg}.df(${JSON.stringify(token)})`, df, `${arg}.n`, n);
      return df;
    },
  };
}

/** The two IDF values of the two-text corpus: a token in both texts, and in one. */
const PAIR_IDF_SHARED = idfOf(2, 2);
const PAIR_IDF_ONE = idfOf(2, 1);

/** One term of the comparison, for explaining a score. */
export interface TfidfTerm {
  token: string;
  /** Raw count in the first text (`a`) and second text (`b`). */
  countA: number;
  countB: number;
  idf: number;
  /** This term's share of the cosine: `wA·wB / (‖A‖ ‖B‖)`; the contributions sum to the score. */
  contribution: number;
}

export interface TfidfAnalysis {
  score: number;
  /** Every term of either text, the largest contributions first, then by weight. */
  terms: TfidfTerm[];
  /** Token -> count in each text, in first-seen order. */
  countsA: ReadonlyMap<string, number>;
  countsB: ReadonlyMap<string, number>;
}

/**
 * Cosine similarity of TF-IDF vectors: weight `w = count × idf`, vectors compared by
 * `A·B / (‖A‖ ‖B‖)` (equivalent to L2-normalising both first). Raw counts as term frequency;
 * IDF smoothed as {@link smoothIdf}, over the two texts unless `idf` gives a corpus.
 * Result in [0, 1]; identical token multisets give exactly 1; no tokens on both sides gives 1,
 * on one side 0. Throws EvalError (INPUT_INVALID) when `a` or `b` is not an array of strings, or `idf`
 * is not `{ n, df }` with `n` an integer >= 0 and every `df(token)` it asks for an integer in [0, n]
 * (identical token multisets score 1 without asking).
 */
export function tfidfCosine(a: readonly string[], b: readonly string[], idf?: IdfTable): number {
  const bad = notTokens("tfidfCosine", "a", a) ?? notTokens("tfidfCosine", "b", b);
  if (bad) throw bad;
  return tfidfCosineOfCounts(checkedCounts("tfidfCosine", "a", a), checkedCounts("tfidfCosine", "b", b), checkedIdf("tfidfCosine", idf));
}

/** {@link tfidfCosine} of two texts' token counts (token -> count, as {@link countTokens} gives). */
export function tfidfCosineOfCounts(countsA: ReadonlyMap<string, number>, countsB: ReadonlyMap<string, number>, idf?: IdfTable): number {
  if (countsA.size === 0 || countsB.size === 0) return countsA.size === countsB.size ? 1 : 0;
  if (sameCounts(countsA, countsB)) return 1;
  // The same sums, in the same order, as tfidfAnalysis: the two give the very same number.
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [token, ca] of countsA) {
    const cb = countsB.get(token) ?? 0;
    const weight = idf ? idfOf(idf.n, idf.df(token)) : cb > 0 ? PAIR_IDF_SHARED : PAIR_IDF_ONE;
    const wa = ca * weight;
    const wb = cb * weight;
    dot += wa * wb;
    normA += wa * wa;
    normB += wb * wb;
  }
  for (const [token, cb] of countsB) {
    if (countsA.has(token)) continue;
    const wb = cb * (idf ? idfOf(idf.n, idf.df(token)) : PAIR_IDF_ONE);
    normB += wb * wb;
  }
  return Math.min(1, dot / Math.sqrt(normA * normB));
}

/** {@link tfidfCosine} with the per-term breakdown. */
export function tfidfAnalysis(a: readonly string[], b: readonly string[], idf?: IdfTable): TfidfAnalysis {
  const bad = notTokens("tfidfAnalysis", "a", a) ?? notTokens("tfidfAnalysis", "b", b);
  if (bad) throw bad;
  return tfidfAnalysisOfCounts(checkedCounts("tfidfAnalysis", "a", a), checkedCounts("tfidfAnalysis", "b", b), checkedIdf("tfidfAnalysis", idf));
}

/** {@link tfidfAnalysis} of two texts' token counts (token -> count, as {@link countTokens} gives). */
export function tfidfAnalysisOfCounts(countsA: ReadonlyMap<string, number>, countsB: ReadonlyMap<string, number>, idf?: IdfTable): TfidfAnalysis {
  const terms: TfidfTerm[] = [];
  let dot = 0;
  let normA = 0;
  let normB = 0;
  const visit = (token: string, ca: number) => {
    const cb = countsB.get(token) ?? 0;
    const weight = idf ? idfOf(idf.n, idf.df(token)) : cb > 0 && ca > 0 ? PAIR_IDF_SHARED : PAIR_IDF_ONE;
    const wa = ca * weight;
    const wb = cb * weight;
    dot += wa * wb;
    normA += wa * wa;
    normB += wb * wb;
    terms.push({ token, countA: ca, countB: cb, idf: weight, contribution: wa * wb });
  };
  // The vocabulary: every token of a, then the tokens of b that a lacks.
  for (const [token, ca] of countsA) visit(token, ca);
  for (const token of countsB.keys()) if (!countsA.has(token)) visit(token, 0);
  let score: number;
  if (countsA.size === 0 || countsB.size === 0) score = countsA.size === countsB.size ? 1 : 0;
  else if (sameCounts(countsA, countsB)) score = 1; // exact, whatever floating point does
  else score = Math.min(1, dot / Math.sqrt(normA * normB));
  const norm = normA > 0 && normB > 0 ? Math.sqrt(normA * normB) : 1;
  for (const t of terms) t.contribution /= norm;
  terms.sort((x, y) => y.contribution - x.contribution || Math.max(y.countA, y.countB) * y.idf - Math.max(x.countA, x.countB) * x.idf);
  return { score, terms, countsA, countsB };
}

function sameCounts(x: ReadonlyMap<string, number>, y: ReadonlyMap<string, number>): boolean {
  if (x.size !== y.size) return false;
  for (const [k, v] of x) if (y.get(k) !== v) return false;
  return true;
}
