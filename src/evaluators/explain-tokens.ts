import type { DistinctTokens } from "../metrics/jaccard.js";

/** At most this many tokens are listed in each of `details.shared/missing/extra`; counts are always exact. */
export const LISTED_TOKENS = 50;

/** A type, not an interface, so that it stays assignable to `details` (`Record<string, unknown>`). */
export type TokenExplanation = {
  shared: string[];
  missing: string[];
  extra: string[];
  shared_count: number;
  missing_count: number;
  extra_count: number;
};


/**
 * Which distinct tokens the two texts share, which the output misses and which it adds,
 * each in first-seen order and capped at {@link LISTED_TOKENS}, with exact counts.
 */
export function explainTokenSets(output: DistinctTokens, expected: DistinctTokens): TokenExplanation {
  const shared: string[] = [];
  const missing: string[] = [];
  const extra: string[] = [];
  for (const t of expected.keys()) (output.has(t) ? shared : missing).push(t);
  for (const t of output.keys()) if (!expected.has(t)) extra.push(t);
  return {
    shared: shared.slice(0, LISTED_TOKENS),
    missing: missing.slice(0, LISTED_TOKENS),
    extra: extra.slice(0, LISTED_TOKENS),
    shared_count: shared.length,
    missing_count: missing.length,
    extra_count: extra.length,
  };
}
