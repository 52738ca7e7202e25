/**
 * A score as a reasoning prints it next to its threshold: `decimals` places, or more when the rounded
 * number would tell another verdict than the real one (e.g. 0.66666… against 0.6667 prints "0.66667",
 * not "0.6667", which would read as meeting it) or read as a whole number the score is not (0.99999997
 * prints "0.99999997", not "1.0000", which would read as texts alike; as the reports and the summary print
 * figures). Thresholds are printed as given, so the printed score is compared with the threshold itself;
 * `passed` is the verdict (score >= threshold) the evaluator reached.
 */
export function scoreText(score: number, decimals: number, threshold?: number, passed?: boolean | null): string {
  if (!Number.isFinite(score)) return score.toFixed(decimals);
  const verdictKept = (shown: number) => threshold === undefined || passed === undefined || passed === null || shown >= threshold === passed;
  for (let d = decimals; d <= 20; d++) {
    const shown = Number(score.toFixed(d));
    if (verdictKept(shown) && Number.isInteger(shown) === Number.isInteger(score)) return score.toFixed(d);
  }
  return String(score); // shortest text that reads back as exactly `score`
}
