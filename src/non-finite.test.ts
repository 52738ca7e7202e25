import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nonFiniteIn } from "./non-finite.js";

/** The plain reference: the first NaN or ±Infinity JSON.stringify meets, with its path, found with a replacer. */
function byStringify(value: unknown): { path: (string | number)[]; value: number } | undefined {
  let found: { path: (string | number)[]; value: number } | undefined;
  const paths = new Map<unknown, (string | number)[]>();
  JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
    if (found !== undefined) return undefined;
    const parent = paths.get(this);
    const path = parent === undefined ? [] : [...parent, Array.isArray(this) ? Number(key) : key];
    if (typeof v === "number" && !Number.isFinite(v)) found = { path, value: v };
    else if (typeof v === "object" && v !== null) paths.set(v, path);
    return v;
  });
  return found;
}

const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, tie("leaf"), fc.array(tie("tree"), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 3 }), tie("tree"), { maxKeys: 4 })),
  leaf: fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity), fc.integer(), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null)),
}));

describe("nonFiniteIn", () => {
  it("finds what JSON.stringify writes as null first, at the same path, on random values", () => {
    fc.assert(
      fc.property(tree, (value) => {
        expect(nonFiniteIn(value)).toEqual(byStringify(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("walks ids nested deeper than the call stack goes, and each object of a cycle once", () => {
    let deep: unknown = [Infinity];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nonFiniteIn(deep)?.path).toHaveLength(100_001);
    const cycle: Record<string, unknown> = { a: 1 };
    cycle["self"] = cycle;
    expect(nonFiniteIn(cycle)).toBeUndefined();
    cycle["b"] = [NaN];
    expect(nonFiniteIn(cycle)).toEqual({ path: ["b", 0], value: NaN });
  });
});
