import type { DistinctTokens } from "../metrics/jaccard.js";
import { cutText } from "../cut-text.js";

/** At most this many tokens are listed in each of `details.shared/missing/extra`; counts are always exact. */
const LISTED_TOKENS = 50;
/** A token longer than this many UTF-16 code units is listed cut short; see {@link listedToken}. */
const LISTED_TOKEN_LENGTH = 100;

/**
 * A token as `details` and `reasoning` show it: whole up to {@link LISTED_TOKEN_LENGTH} code units,
 * else its first 100 (99 where the 100th would split a surrogate pair) followed by "…", so that a
 * 50 MB "word" costs a row's results about 100 bytes a mention, not 50 MB.
 */
export function listedToken(token: string): string {
  return cutText(token, LISTED_TOKEN_LENGTH);
}

/**
 * Whether a listed token may be one {@link listedToken} cut (a token that long ending in "…"): it then
 * stands for no token of the text, so a list holding one cannot be matched against the text's tokens.
 */
export function mayBeCutToken(listed: string): boolean {
  return listed.length >= LISTED_TOKEN_LENGTH && listed.endsWith("…");
}

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
 * each in first-seen order and capped at {@link LISTED_TOKENS}, with exact counts. Lists only what it
 * keeps: a text's vocabulary may be millions of tokens. Each listed token is {@link listedToken}.
 */
export function explainTokenSets(output: DistinctTokens, expected: DistinctTokens): TokenExplanation {
  const shared = new ListedTokens();
  const missing = new ListedTokens();
  const extra = new ListedTokens();
  for (const t of expected.keys()) (output.has(t) ? shared : missing).add(t);
  for (const t of output.keys()) if (!expected.has(t)) extra.add(t);
  return {
    shared: shared.listed,
    missing: missing.listed,
    extra: extra.listed,
    shared_count: shared.count,
    missing_count: missing.count,
    extra_count: extra.count,
  };
}

/** The first {@link LISTED_TOKENS} tokens added, and how many were. */
class ListedTokens {
  readonly listed: string[] = [];
  count = 0;

  add(token: string): void {
    if (this.count++ < LISTED_TOKENS) this.listed.push(listedToken(token));
  }
}
