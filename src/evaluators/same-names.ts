/**
 * Where a list of evaluator names repeats one: each later position whose name equals an earlier one ignoring case,
 * with the first position that had it. Names that differ only in case are one name to a reader (and to
 * case-insensitive file systems and CI dashboards, where each evaluator is a JUnit suite), and results are keyed by
 * name. Undefined names (a spec with none to read) are passed over.
 */
export function sameNames(names: readonly (string | undefined)[]): { at: number; first: number }[] {
  const seen = new Map<string, number>();
  const repeats: { at: number; first: number }[] = [];
  names.forEach((name, at) => {
    if (name === undefined) return;
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first === undefined) seen.set(key, at);
    else repeats.push({ at, first });
  });
  return repeats;
}
