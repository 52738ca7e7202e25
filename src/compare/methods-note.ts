/** How a comparison's p-values and intervals were computed, said in one sentence beside its figures. */
import { formatInt, formatLevel } from "../report/format.js";
import { evaluatorList } from "./evaluator-list.js";
import type { Comparison, EvaluatorComparison } from "./types.js";

/**
 * One sentence naming the tests behind a {@link Comparison}'s figures, as the text and the HTML report
 * print it under the table, e.g. "p: two-sided paired sign-flip permutation test over 10,000 random sign
 * patterns (seed 1), exact (every sign pattern counted) for exact_match; CI: 95% paired percentile bootstrap
 * of the mean difference, 10,000 resamples (seed 1)." Which evaluators got an exact p (at most 20 rows
 * differ) and which a sampled one is named, since a sampled p carries sampling error and depends on the seed;
 * so are those without a p-value (no pairs) beside others that have one. Long lists are cut ({@link evaluatorList}).
 */
export function methodsNote(c: Comparison): string {
  const { seed, resamples, alpha } = c.settings;
  const names = (method: EvaluatorComparison["p_method"]): string[] => c.evaluators.filter((e) => e.p_method === method).map((e) => e.name);
  const exact = names("exact");
  const sampled = names("monte_carlo");
  const none = names(null);
  const random = sampled.length ? ` over ${formatInt(resamples)} random sign patterns (seed ${seed})` : "";
  const counted = exact.length ? `, exact (every sign pattern counted)${sampled.length ? ` for ${evaluatorList(exact, c.evaluators.length)}` : ""}` : "";
  const missing = none.length ? `, none for ${evaluatorList(none, c.evaluators.length)} (no pairs)` : "";
  const how = random || counted ? `${random}${counted}${missing}` : " (no pairs: no p-value)";
  return `p: two-sided paired sign-flip permutation test${how}; CI: ${formatLevel(1 - alpha)} paired percentile bootstrap of the mean difference, ${formatInt(resamples)} resamples (seed ${seed}).`;
}
