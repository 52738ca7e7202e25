/**
 * How the SQLite store keeps a row's pairable scores (`rows.scores`): a JSON array with one entry per
 * evaluator, in the run's evaluator order, null where the evaluator has no pairable score on the row;
 * e.g. `[1,0.79,null]`. Text rather than a blob of doubles: better-sqlite3 reads a short string about
 * twice as fast as a small Buffer (measured on a million rows), and a person can read it with `sqlite3`.
 */

/** Encodes scores given in the run's evaluator order (NaN or null = none). */
export function encodeScores(scores: ArrayLike<number | null>): string {
  // JSON.stringify writes NaN (and ±Infinity, which no pairable score is) as null.
  return JSON.stringify(Array.from(scores));
}

/** Decodes scores for the evaluators `names`; undefined when the text does not hold one score or null per name. */
export function decodeScores(text: string, names: readonly string[]): Record<string, number | null> | undefined {
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length !== names.length) return undefined;
  const scores: Record<string, number | null> = {};
  for (let j = 0; j < names.length; j++) {
    const v: unknown = values[j];
    if (v !== null && typeof v !== "number") return undefined;
    scores[names[j] as string] = v;
  }
  return scores;
}
