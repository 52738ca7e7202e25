/**
 * Where the first number JSON writes as null (NaN, ±Infinity) is in `value`, in the order JSON.stringify writes its
 * members, as a path below `value` (array indexes and object keys), and which number; undefined when there is none.
 * Ids are checked with it, where such a number would be recorded as null: the row without the id it was given.
 * Walked with a stack of its own, not by recursion (JSON.parse reads arrays nested 100,000 levels deep, which
 * would overflow the call stack), and each object once (a cycle, which JSON cannot write at all, is refused where
 * the value is written).
 */
export function nonFiniteIn(value: unknown): { path: (string | number)[]; value: number } | undefined {
  // A number, text or nothing, as most ids are, is checked without a walk (this runs on every row read).
  if (typeof value !== "object" || value === null) return typeof value === "number" && !Number.isFinite(value) ? { path: [], value } : undefined;
  interface Step {
    value: unknown;
    parent: Step | undefined;
    key: string | number | undefined;
  }
  const pathOf = (step: Step): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let s: Step | undefined = step; s?.key !== undefined; s = s.parent) path.push(s.key);
    return path.reverse();
  };
  const seen = new Set<object>();
  const stack: Step[] = [{ value, parent: undefined, key: undefined }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const v = step.value;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return { path: pathOf(step), value: v };
    } else if (typeof v === "object" && v !== null && !seen.has(v)) {
      seen.add(v);
      // Pushed last member first, so that members are taken in the order JSON writes them.
      if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: step, key: i });
      else {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (v as Record<string, unknown>)[keys[i]!], parent: step, key: keys[i]! });
      }
    }
  }
  return undefined;
}
