/**
 * Smooth inverse frequency (SIF) sentence embeddings: Arora, Liang and Ma (2017), "A Simple but
 * Tough-to-Beat Baseline for Sentence Embeddings", ICLR, Algorithm 1. Pure arithmetic, no I/O.
 *
 * 1. `v_s = (1/|s|) Σ_{w∈s} a / (a + p(w)) · v_w` over the sentence's known words (repeats counted);
 * 2. remove the common component: `v_s ← v_s − u (u · v_s)`, where `u` is the first principal component
 *    (uncentred, as the paper's TruncatedSVD) of sentence vectors; the paper's released code fits it on
 *    the batch of sentences being embedded, here it is estimated from the vocabulary ({@link commonComponent});
 * 3. (not in the paper) a `v_s` left with a negligible norm, its words' vectors having cancelled out, is
 *    the zero vector, as for a text with no known word ({@link zeroIfNegligible}).
 */
import { addRow, rowNorm, type WordTable } from "./table.js";

/** The paper's fixed SIF parameter (they report a in [1e-4, 1e-3] works well and use 1e-3). */
export const DEFAULT_SIF_A = 1e-3;

/**
 * Unigram probabilities estimated from frequency rank by Zipf's law, `p(r) = 1 / (r · H_n)` for the
 * 1-based rank `r` among `n` words, `H_n = Σ_{k=1..n} 1/k`, so they sum to 1. This is the standard
 * stand-in when a vectors file gives the frequency order but no counts (GloVe and fastText files list
 * words most frequent first); with n = 341,479 it gives p("the") ≈ 0.076 (about 0.06 in real English).
 */
export function zipfProbabilities(n: number): Float64Array {
  let harmonic = 0;
  // Summed from the smallest term up, so the float64 sum loses nothing to cancellation.
  for (let k = n; k >= 1; k--) harmonic += 1 / k;
  const p = new Float64Array(n);
  for (let r = 1; r <= n; r++) p[r - 1] = 1 / (r * harmonic);
  return p;
}

/** SIF weight of each word from its probability: `a / (a + p(w))`, in (0, 1]; rare words weigh ~1. */
export function sifWeights(probabilities: ArrayLike<number>, a: number): Float32Array {
  const w = new Float32Array(probabilities.length);
  for (let i = 0; i < probabilities.length; i++) w[i] = a / (a + (probabilities[i] as number));
  return w;
}

/** A sentence's weighted average and what went into it. */
interface WeightedAverage {
  /** `(1/m) Σ weight(w) v_w` over the m known tokens; all zeros when m = 0. */
  vector: Float64Array;
  /** Known tokens (repeats counted). */
  known: number;
  /** Tokens not in the vocabulary, skipped. */
  unknown: number;
  /**
   * `(1/m) Σ weight(w) ‖v_w‖`: the norm `vector` would have if its words' vectors all pointed one way,
   * against which {@link zeroIfNegligible} tells cancellation from a direction; 0 when m = 0.
   */
  scale: number;
}

/**
 * Step 1 of SIF: the weighted average of the known tokens' vectors, weights by row (`weights[row]`).
 * Unknown tokens are skipped; with no known token the vector is all zeros (cosine 0 with anything).
 */
export function weightedAverage(tokens: readonly string[], table: WordTable, index: ReadonlyMap<string, number>, weights: ArrayLike<number>): WeightedAverage {
  const vector = new Float64Array(table.dim);
  let known = 0;
  let scale = 0;
  for (const token of tokens) {
    const row = index.get(token);
    if (row === undefined) continue;
    addRow(table, row, weights[row] as number, vector);
    scale += (weights[row] as number) * rowNorm(table, row);
    known++;
  }
  if (known > 1) {
    for (let j = 0; j < vector.length; j++) vector[j] = (vector[j] as number) / known;
    scale /= known;
  }
  return { vector, known, unknown: tokens.length - known, scale };
}

/**
 * Below this fraction of its {@link WeightedAverage.scale}, a sentence vector is float64 rounding
 * (about 1e-16 of it), not a direction: its words' vectors cancelled out, in the average or when the
 * common component was removed (a text whose words all lie along it).
 */
export const NEGLIGIBLE_NORM = 1e-9;

/**
 * In place: sets `v` to the zero vector, as for a text with no known word (cosine 0 by convention,
 * reported as such), when `‖v‖ ≤ NEGLIGIBLE_NORM × scale`; otherwise its cosine would be that of
 * rounding errors, anything in [−1, 1]. Returns `v`.
 */
export function zeroIfNegligible(v: Float64Array, scale: number): Float64Array {
  let norm = 0;
  for (let j = 0; j < v.length; j++) norm += (v[j] as number) ** 2;
  if (Math.sqrt(norm) <= NEGLIGIBLE_NORM * scale) v.fill(0);
  return v;
}

/** Step 2 of SIF, in place: `v ← v − Σ_k u_k (u_k · v)` for orthonormal components `u_k`. Returns `v`. */
export function removeComponents(v: Float64Array, components: readonly Float64Array[]): Float64Array {
  for (const u of components) {
    let dot = 0;
    for (let j = 0; j < v.length; j++) dot += (u[j] as number) * (v[j] as number);
    for (let j = 0; j < v.length; j++) v[j] = (v[j] as number) - dot * (u[j] as number);
  }
  return v;
}

/**
 * The common component, estimated without a sentence corpus: the unit direction of the expected
 * weighted word vector `μ = Σ_w p(w) · a/(a + p(w)) · v_w` over the rows in `rows` (the words a
 * tokenizer can produce; their probabilities are used as given, since only the direction matters).
 *
 * Why this is the paper's first principal component: if a sentence is m words drawn from the unigram
 * distribution, the uncentred second moment of its SIF vector is `(1 − 1/m) μμᵀ + S/m` with
 * `S = Σ_w p(w) (a/(a + p(w)))² v_w v_wᵀ`, whose top eigenvector tends to `μ/‖μ‖` as m grows. On the
 * STS Benchmark *train* sentences with the wink vectors, the principal component of real sentence
 * vectors and this direction have |cos| = 0.97, and the finite-m versions (m = 1…20) score the same as
 * m → ∞ to within 0.2 Spearman points. Against the train-sentence component it scores 71.3 vs 73.1
 * Spearman × 100 on STS-B dev and 59.2 vs 58.9 on test. It is deterministic, needs no data the user
 * lacks (the STS train split does not ship with simeval), and works for any vectors file; fitting on
 * the run's own texts instead would make a row's score depend on the other rows.
 * Returns null when μ = 0 (nothing to remove).
 */
export function commonComponent(table: WordTable, rows: Iterable<number>, probabilities: ArrayLike<number>, weights: ArrayLike<number>): Float64Array | null {
  const mu = new Float64Array(table.dim);
  for (const row of rows) addRow(table, row, (probabilities[row] as number) * (weights[row] as number), mu);
  let norm = 0;
  for (let j = 0; j < mu.length; j++) norm += (mu[j] as number) ** 2;
  if (norm === 0) return null;
  norm = Math.sqrt(norm);
  for (let j = 0; j < mu.length; j++) mu[j] = (mu[j] as number) / norm;
  return mu;
}
