import { diffArrays } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffPrefixes } from "./prefix-diff.js";

const tokens = fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 16 });
const same = (x: string, y: string): boolean => x === y;

describe("diffPrefixes", () => {
  it("gives jsdiff's changes when neither side is cut", () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const ours = diffPrefixes(a, b, same, { aCut: false, bCut: false, maxEditLength: 100 });
        const theirs = diffArrays(a, b).map((c) => ({ count: c.count, added: c.added, removed: c.removed }));
        expect(ours).toEqual({ changes: theirs, aEnd: a.length, bEnd: b.length });
      }),
      { numRuns: 500 },
    );
  });

  it("ends at the end of a cut side when that is cheaper, its shared runs shared, within the edit limit", () => {
    fc.assert(
      fc.property(tokens, tokens, fc.boolean(), fc.boolean(), (a, b, aCut, bCut) => {
        const r = diffPrefixes(a, b, same, { aCut, bCut, maxEditLength: 100 });
        if (r === undefined) throw new Error("no diff within 100 edits");
        let i = 0;
        let j = 0;
        let edits = 0;
        for (const c of r.changes) {
          if (!c.added && !c.removed) expect(a.slice(i, i + c.count)).toEqual(b.slice(j, j + c.count));
          else edits += c.count;
          if (!c.added) i += c.count;
          if (!c.removed) j += c.count;
        }
        expect([i, j]).toEqual([r.aEnd, r.bEnd]);
        expect((i === a.length && (j === b.length || aCut)) || (j === b.length && bCut)).toBe(true);
        const whole = diffPrefixes(a, b, same, { aCut: false, bCut: false, maxEditLength: 100 });
        const wholeEdits = whole?.changes.filter((c) => c.added || c.removed).reduce((n, c) => n + c.count, 0) ?? Infinity;
        expect(edits).toBeLessThanOrEqual(wholeEdits);
        if (edits > 0) expect(diffPrefixes(a, b, same, { aCut, bCut, maxEditLength: edits - 1 })).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it("leaves the rest of the longer side unaligned when the other is cut: 'abc' cut against 'abcdef'", () => {
    expect(diffPrefixes([..."abc"], [..."abcdef"], same, { aCut: true, bCut: false, maxEditLength: 0 })).toEqual({ changes: [{ count: 3, added: false, removed: false }], aEnd: 3, bEnd: 3 });
    expect(diffPrefixes([..."abc"], [..."abcdef"], same, { aCut: false, bCut: true, maxEditLength: 10 })?.changes).toEqual([
      { count: 3, added: false, removed: false },
      { count: 3, added: true, removed: false },
    ]);
  });
});
