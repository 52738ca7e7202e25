/**
 * A score as a reasoning prints it next to its threshold: `decimals` places, or more when the rounded
 * number would tell another verdict than the real one (e.g. 0.66666… against 0.6667 prints "0.66667",
 * not "0.6667", which would read as meeting it). Thresholds are printed as given, so the printed score is
 * compared with the threshold itself; `passed` is the verdict (score >= threshold) the evaluator reached.
 */
export function scoreText(score: number, decimals: number, threshold?: number, passed?: boolean | null): string {
  const fixed = score.toFixed(decimals);
  if (threshold === undefined || passed === undefined || passed === null || !Number.isFinite(score)) return fixed;
  for (let d = decimals; d <= 20; d++) {
    const shown = score.toFixed(d);
    if (Number(shown) >= threshold === passed) return shown;
  }
  return String(score); // shortest text that reads back as exactly `score`
}
