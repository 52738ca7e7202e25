import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HeldRows } from "./held-rows.js";

describe("HeldRows", () => {
  // First in the file, so that no earlier test's garbage is collected while it measures.
  it("holds what its rows need, not what their highest row number would: 70,000 rows numbered up to 2^28", () => {
    const before = process.memoryUsage().arrayBuffers;
    const held = new HeldRows();
    for (let i = 70_000; i >= 1; i--) held.add({ row: i * 3_834, id: null, scores: { s: i / 70_000, t: 1 } });
    expect(held.take(70_000 * 3_834)?.scores).toEqual({ s: 1, t: 1 });
    // Indexed by row number, it took 2 GiB an evaluator.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 2 ** 20);
    expect(held.take(3_834)?.scores).toEqual({ s: 1 / 70_000, t: 1 });
  });

  it("gives back each row as it was added (its finite scores, its id), and null for a row never added, whatever the order", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 28 }), { maxLength: 200 }),
        fc.array(fc.oneof(fc.double(), fc.constant(Number.NaN)), { minLength: 200, maxLength: 200 }),
        fc.array(fc.integer({ min: 1, max: 2 ** 28 }), { maxLength: 50 }),
        (rows, values, probes) => {
          const held = new HeldRows();
          const added = rows.map((row, i) => ({ row, id: i % 3 ? `q${row}` : null, scores: { a: values[i] as number, ...(i % 2 ? { b: row } : {}) } }));
          for (const r of added) held.add(r);
          for (const r of added) {
            const scores: Record<string, number> = {};
            if (Number.isFinite(r.scores.a)) scores["a"] = r.scores.a;
            if (r.scores.b !== undefined) scores["b"] = r.scores.b;
            expect(held.take(r.row)).toEqual({ row: r.row, id: r.id ?? undefined, scores });
          }
          for (const p of probes) if (!rows.includes(p)) expect(held.take(p)).toBeNull();
        },
      ),
    );
  });

  it("refuses a row added after the first was taken, whose place the sorted numbers would not have", () => {
    const held = new HeldRows();
    held.add({ row: 2, id: null, scores: {} });
    expect(held.take(1)).toBeNull();
    expect(() => held.add({ row: 1, id: null, scores: {} })).toThrow("added after the first was taken");
  });
});
