/**
 * A token diff of two texts of which either may be only the start (cut for the report). Myers' O(ND)
 * algorithm, with jsdiff's choice between equally good moves, and one change: when a side is a cut
 * start, the diff may end as soon as that side is used up, and the rest of the other side is left
 * unaligned rather than marked. A plain diff of two cut texts must explain the tail that one side
 * lacks only because the other was cut, and with repetitive content it may place that difference
 * anywhere, marking a sentence near the start that both texts share.
 */

/** A run of tokens in the diff: shared (neither flag), only in `a` (removed) or only in `b` (added). */
export interface Change {
  count: number;
  added: boolean;
  removed: boolean;
}

/** The changes covering `a`'s first `aEnd` tokens and `b`'s first `bEnd`; the tokens after those are unaligned. */
interface PrefixDiff {
  changes: Change[];
  aEnd: number;
  bEnd: number;
}

/** Which sides are cut starts of longer texts, and the most edits to search. */
interface PrefixDiffOptions {
  aCut: boolean;
  bCut: boolean;
  maxEditLength: number;
}

/**
 * The shortest edit script from `a` to `b` (`equals` decides shared tokens), or undefined when it needs
 * more than `opts.maxEditLength` edits. It ends at the end of both, or at the end of a side that is cut
 * (`aCut`, `bCut`), whichever costs fewer edits. Work and memory are O(D·min(N, M)) plus the snakes.
 */
export function diffPrefixes<T>(a: readonly T[], b: readonly T[], equals: (x: T, y: T) => boolean, opts: PrefixDiffOptions): PrefixDiff | undefined {
  const n = a.length;
  const m = b.length;
  const done = (x: number, y: number): boolean => (x >= n && (y >= m || opts.aCut)) || (y >= m && opts.bCut);
  const snake = (x0: number, k: number): number => {
    let x = x0;
    while (x < n && x - k < m && equals(a[x] as T, b[x - k] as T)) x++;
    return x;
  };
  // v[k + off]: the furthest x reached on diagonal k (x - y = k); trace[d] keeps diagonals lo[d]..hi[d] after d edits.
  const off = m + 1;
  let stepAdded = false;
  const v = new Int32Array(n + m + 3);
  const trace: Int32Array[] = [];
  const lo: number[] = [];
  const x0 = snake(0, 0);
  v[off] = x0;
  trace.push(v.slice(off, off + 1));
  lo.push(0);
  const hi: number[] = [0];
  if (done(x0, x0)) return backtrack(0, 0, x0);
  const limit = Math.min(opts.maxEditLength, n + m);
  for (let d = 1; d <= limit; d++) {
    // A path of d edits has (d + k) / 2 removals, at most n, and (d - k) / 2 additions, at most m.
    const kLo = Math.max(-d, d - 2 * m);
    const kHi = Math.min(d, 2 * n - d);
    for (let k = kLo; k <= kHi; k += 2) {
      const start = step(d, k);
      // Both neighbours stopped at an edge: nothing reaches this diagonal with d edits.
      const x = start < 0 ? -1 : snake(start, k);
      v[k + off] = x;
      if (x < 0) continue;
      if (done(x, x - k)) return backtrack(d, k, x);
    }
    if (kLo > kHi) return undefined;
    trace.push(v.slice(kLo + off, kHi + off + 1));
    lo.push(kLo);
    hi.push(kHi);
  }
  return undefined;

  /** The x reached on diagonal k with edit d before its snake (an addition when it sets `stepAdded`): one addition from k + 1 or one removal from k - 1 (after d - 1 edits); -1 when neither can be made. */
  function step(d: number, k: number): number {
    const pLo = lo[d - 1] as number;
    const pHi = hi[d - 1] as number;
    const row = trace[d - 1] as Int32Array;
    const fromAdd = k + 1 >= pLo && k + 1 <= pHi ? (row[k + 1 - pLo] as number) : -1;
    const fromRemove = k - 1 >= pLo && k - 1 <= pHi ? (row[k - 1 - pLo] as number) : -1;
    const canAdd = fromAdd >= 0 && fromAdd - k <= m;
    const canRemove = fromRemove >= 0 && fromRemove + 1 <= n;
    stepAdded = canAdd && (!canRemove || fromRemove < fromAdd);
    return stepAdded ? fromAdd : canRemove ? fromRemove + 1 : -1;
  }

  /** Walks back from (x, x - k) after d edits, collecting the runs. */
  function backtrack(d: number, k: number, x: number): PrefixDiff {
    const aEnd = x;
    const bEnd = x - k;
    const runs: Change[] = [];
    const push = (count: number, added: boolean, removed: boolean): void => {
      if (count === 0) return;
      const last = runs[runs.length - 1];
      if (last && last.added === added && last.removed === removed) last.count += count;
      else runs.push({ count, added, removed });
    };
    for (; d > 0; d--) {
      const start = step(d, k);
      push(x - start, false, false);
      const added = stepAdded;
      if (added) {
        push(1, true, false);
        k += 1;
      } else {
        push(1, false, true);
        k -= 1;
      }
      x = added ? start : start - 1;
    }
    push(x, false, false);
    return { changes: runs.reverse(), aEnd, bEnd };
  }
}
