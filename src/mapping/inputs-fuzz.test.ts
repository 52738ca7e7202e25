/**
 * Property-based fuzzing of input mappings: a JSONPath that cannot be parsed is refused when the
 * evaluator is created, with a message that names it; one that can is read on any record, and fails
 * only as that row's EvalError (INPUT_INVALID), selecting what jsonpath-rfc9535 selects.
 */
import fc from "fast-check";
import { query, type JsonValue } from "jsonpath-rfc9535";
import parse from "jsonpath-rfc9535/parser";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { createEvaluator } from "../evaluators/create.js";
import { compilePath } from "./jsonpath.js";

const SEED = 20240611;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });

const member = fc.oneof(fc.constantFrom("a", "b", "output", "expected", "x_1", "__proto__", "constructor", "length", "toString", "é", "0"), fc.string({ minLength: 1, maxLength: 4, unit: "grapheme" }));
const shorthand = fc.constantFrom("a", "b", "output", "expected", "x_1", "__proto__", "constructor", "length", "toString", "é", "ab");
const index = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 31));
const quoted = member.map((m) => `'${m.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`);
/** Segments of RFC 9535 paths: names, indexes, wildcards, slices, filters, descendants. */
const segment = fc.oneof(
  { weight: 4, arbitrary: shorthand.map((m) => `.${m}`) },
  { weight: 3, arbitrary: quoted.map((q) => `[${q}]`) },
  { weight: 3, arbitrary: index.map((i) => `[${i}]`) },
  { weight: 1, arbitrary: fc.constantFrom("[*]", ".*", "[0:2]", "[::-1]", "[1:]", "[0,1]", "['a','b']", "[?@.a]", "[?@.a > 1]", "[?length(@) == 1]", "[?@ == 'x']") },
  { weight: 1, arbitrary: shorthand.map((m) => `..${m}`) },
  { weight: 1, arbitrary: fc.constantFrom("..*", "..[0]") },
);
const validPath = fc.array(segment, { maxLength: 4 }).map((segs) => `$${segs.join("")}`);
/** Strings made of JSONPath's own characters, mostly malformed. */
const pathish = fc.oneof(
  fc.string({ maxLength: 12, unit: fc.constantFrom(..."$.[]'\"*?@()0123456789-:,=<>!&| abé\\\n\u202e") }),
  fc.string({ maxLength: 8, unit: "binary" }),
  validPath.chain((p) => fc.integer({ min: 0, max: p.length }).map((i) => p.slice(0, i))),
  validPath.map((p) => p.slice(1)),
);

/** Records with the names and shapes the paths above reach. */
const leaf = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const record: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("node"), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(shorthand, member), tie("node"), { maxKeys: 4 }),
})).object;

function parses(path: string): boolean {
  try {
    parse(path);
    return true;
  } catch {
    return false;
  }
}

describe("input mapping fuzzing", () => {
  it("a path the parser refuses is refused when the evaluator is created, naming it; one it reads is read", () => {
    fc.assert(
      fc.property(fc.oneof(validPath, pathish), (path) => {
        let error: unknown;
        try {
          createEvaluator({ type: "exact_match", inputs: { output: path } });
        } catch (e) {
          error = e;
        }
        if (parses(path) && path.trim() === path) {
          expect(error).toBeUndefined();
          return;
        }
        if (!(error instanceof EvalError)) throw error ?? new Error(`${JSON.stringify(path)} was accepted`);
        expect(error.code).toBe("CONFIG_INVALID");
        // Whitespace around a path is one problem, and what is left may be another.
        expect(error.issues.length).toBeGreaterThanOrEqual(1);
        for (const issue of error.issues) {
          expect(issue.path).toEqual(["inputs", "output"]);
          expect([path, path.trim(), JSON.stringify(path)]).toContain(issue.received);
        }
        // Named as written, when it holds nothing that messages escape.
        if (/^[\x20-\x7e]*$/.test(path) && path.trim() !== "") expect(error.message).toMatch(new RegExp(`["']${path.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      }),
      runs(2000),
    );
  });

  it("a valid path selects what jsonpath-rfc9535 selects, on any record", () => {
    fc.assert(
      fc.property(validPath, record, (path, value) => {
        const compiled = compilePath(path);
        const expected = query(value as JsonValue, path);
        expect(compiled.select(value)).toEqual(expected);
        if (compiled.selectOne) expect(compiled.selectOne(value)).toEqual(expected[0]);
      }),
      runs(2000),
    );
  });

  it("a valid mapping scores a row or fails it with INPUT_INVALID, never anything else", async () => {
    await fc.assert(
      fc.asyncProperty(validPath, validPath, record, async (output, expected, value) => {
        const e = createEvaluator({ type: "levenshtein", inputs: { output, expected } });
        try {
          const r = await e.evaluate(value as Record<string, unknown>);
          expect(r.skipped || (typeof r.score === "number" && r.score >= 0 && r.score <= 1)).toBe(true);
        } catch (error) {
          if (!(error instanceof EvalError)) throw error;
          expect(error.code).toBe("INPUT_INVALID");
        }
        try {
          e.texts(value as Record<string, unknown>);
        } catch (error) {
          if (!(error instanceof EvalError)) throw error;
          expect(error.code).toBe("INPUT_INVALID");
        }
      }),
      runs(1000),
    );
  });
});
