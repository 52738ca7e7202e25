/**
 * Property-based fuzzing of the EVALS.json reader: any file is either read (and its specs then make
 * evaluators or a located config error), or refused with one CONFIG_INVALID error that names the file,
 * and every issue it lists is located; never a TypeError or the tokenizer's own error.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalError, formatPath } from "../errors.js";
import { createRunEvaluators } from "../run/run-dataset.js";
import { tempDir, writeIn } from "../test-support.js";
import { readEvalsFile } from "./config-file.js";

const SEED = 20240611;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });
const dir = tempDir("simeval-config-fuzz-");

const spec = fc.record(
  {
    type: fc.oneof(fc.constantFrom("levenshtein", "exact_match", "jaccard_similarity", "tfidf_similarity", "levenshtein_distance", "levenstein"), fc.jsonValue({ maxDepth: 0 })),
    name: fc.oneof(fc.string({ maxLength: 5, unit: "grapheme" }), fc.constantFrom("__proto__", "constructor", "a", "A")),
    config: fc.dictionary(fc.constantFrom("threshold", "case_sensitive", "max_chars", "__proto__", "similarity_threshold", "ngram_size"), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  },
  { requiredKeys: ["type"] },
);
const topLevel = fc.oneof(
  fc.record({ evaluators: fc.array(spec, { maxLength: 3 }) }),
  fc.record({ evaluators: fc.jsonValue({ maxDepth: 2 }), other: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
  fc.jsonValue({ maxDepth: 3 }),
);
/** JSON text of a config, with its layout varied and, at times, a key given twice or unusual escapes. */
const configText = fc.oneof(
  fc.tuple(topLevel, fc.constantFrom(0, 2, "\t")).map(([value, indent]) => JSON.stringify(value, null, indent)),
  fc.tuple(topLevel, fc.constantFrom('"evaluators"', '"type"', '"threshold"', '"\\u0065valuators"', '"__proto__"')).map(([value, key]) => {
    const text = JSON.stringify(value);
    const at = text.indexOf("{");
    return at < 0 ? text : `${text.slice(0, at + 1)}${key}: 1${text[at + 1] === "}" ? "" : ", "}${text.slice(at + 1)}`;
  }),
  fc.constantFrom('{"evaluators": [{"type": "levenshtein", "config": {"threshold": 1e400}}]}', '{"evaluators": [{"type": "lev\\ud800"}]}', '{"evaluators": [{"type": "levenshtein", "name": "\\u0000"}]}', '{"evaluators": [{"type": "levenshtein"}], "evaluators": []}', "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]", "\ufeff{}", "-0", "1e999999"),
  fc.string({ maxLength: 20, unit: "binary" }),
  fc.string({ maxLength: 20, unit: fc.constantFrom(..."{}[]\":,evaluators type 01-e\\u\n#") }),
);

describe("EVALS.json reader fuzzing", () => {
  it("any file is read, or refused with one CONFIG_INVALID error naming it and locating every issue", async () => {
    let i = 0;
    await fc.assert(
      fc.asyncProperty(configText, async (text) => {
        const path = writeIn(dir, `c${i++}.json`, text);
        let specs: unknown[];
        try {
          specs = await readEvalsFile(path);
        } catch (error) {
          if (!(error instanceof EvalError)) throw error;
          expect(error.code).toBe("CONFIG_INVALID");
          expect(error.message.startsWith(`${path}: `)).toBe(true);
          for (const [n, issue] of error.issues.entries()) {
            expect(typeof issue.message).toBe("string");
            if (n < 20) expect(error.message).toContain(`→ at ${formatPath(issue.path)}`);
          }
          return;
        }
        expect(Array.isArray(specs)).toBe(true);
        expect(specs.length).toBeGreaterThan(0);
        try {
          createRunEvaluators(specs);
        } catch (error) {
          if (!(error instanceof EvalError)) throw error;
          expect(["CONFIG_INVALID", "UNKNOWN_EVALUATOR"]).toContain(error.code);
          for (const issue of error.issues) expect(issue.path[0]).toBe("evaluators");
        }
      }),
      runs(400),
    );
  });
});
