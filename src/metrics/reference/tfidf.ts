/**
 * Plain reference for tests: builds both TF-IDF vectors over a sorted vocabulary, L2-normalises each,
 * and takes the dot product — the textbook steps, with no shortcuts.
 */
export function referenceTfidfCosine(a: readonly string[], b: readonly string[]): number {
  const vocabulary = [...new Set([...a, ...b])].sort();
  const count = (doc: readonly string[], t: string) => doc.filter((x) => x === t).length;
  const idf = (t: string) => Math.log((1 + 2) / (1 + (a.includes(t) ? 1 : 0) + (b.includes(t) ? 1 : 0))) + 1;
  const vector = (doc: readonly string[]) => vocabulary.map((t) => count(doc, t) * idf(t));
  const normalise = (v: number[]) => {
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return v.map((x) => x / n);
  };
  const va = normalise(vector(a));
  const vb = normalise(vector(b));
  return va.reduce((s, x, i) => s + x * (vb[i] ?? 0), 0);
}

/** |A ∩ B| / |A ∪ B| with arrays only. */
export function referenceJaccard(a: readonly string[], b: readonly string[]): number {
  const union = [...new Set([...a, ...b])];
  if (union.length === 0) return 1;
  const shared = union.filter((t) => a.includes(t) && b.includes(t));
  return shared.length / union.length;
}
