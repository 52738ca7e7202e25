/**
 * Property-based fuzzing of evaluator configs: arbitrary JSON, and objects shaped like specs with keys and
 * values of the wrong kinds, either make evaluators or are refused with one EvalError (CONFIG_INVALID or
 * UNKNOWN_EVALUATOR) whose every issue is located and listed; never a TypeError. Evaluators that are made
 * score random texts within their documented range, deterministically.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtinEmbeddingProviders } from "../embeddings/registry.js";
import { EvalError, formatPath, isPlainObject } from "../errors.js";
import { hashingProvider } from "../test-support.js";
import { createEvaluator, createEvaluators, type Evaluator } from "./create.js";
import { describeEvaluators } from "./describe.js";
import { evaluatorTypes } from "./registry.js";

const SEED = 20240611;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });

const env = { embeddingProviders: { hashing: () => hashingProvider }, datasetIdf: () => ({ n: 3, df: (token: string) => (token.length % 4) }) };

const descriptions = describeEvaluators();
const configKeys = [...new Set(descriptions.flatMap((d) => [...d.config.map((c) => c.key), ...Object.keys(d.aliases)]))];

/** Values of every kind a JSON config could hold, and a few that only code could. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(-0, 0, 1, -1, 0.5, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53, 2 ** 31, 1.0000000000000002, 0.7),
  fc.constantFrom("NaN", "Infinity", "-Infinity", "0.5", "1e400", "", " ", "true", "null", "__proto__", "constructor", "word", "char_ngram", "NFC", "grapheme", "code_point", "pair", "dataset", "hashing"),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.boolean(),
  fc.constant(null),
  fc.double(),
  fc.integer({ min: -5, max: 20_000 }),
  fc.string({ maxLength: 8, unit: "binary" }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom({ from: 0.5 }, { from: 1 }, { from: -1 }, { from: "0.5" }, { to: 1 }, [], {}),
);

const keyName = fc.oneof(fc.constantFrom(...configKeys), fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"), fc.string({ maxLength: 6, unit: "binary" }));

const configArb = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(keyName, oddValue, { maxKeys: 4 }) },
  { weight: 1, arbitrary: oddValue },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const nameArb = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom("__proto__", "constructor", "toString", "lev", "LEV", "levenshtein", " lev", "a\u200bb", "a\nb", "é", "e\u0301", "😀", "\u202e", "x".repeat(300)),
  fc.string({ maxLength: 6, unit: "grapheme" }),
  oddValue,
);

const typeArb = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...evaluatorTypes) }, { weight: 1, arbitrary: fc.constantFrom("levenstein", "Levenshtein", "", "__proto__", "constructor", "toString") }, { weight: 1, arbitrary: oddValue });

const pathArb = fc.constantFrom("$.output", "$.expected", "$.a.b", "$[0]", "$..x", "$[*]", "$.", "output", "$.answer ", "$['x']", "$[?@.s > 1]");
const inputsArb = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom("output", "expected", "actual", "case_sensitive", "__proto__", "input"), fc.oneof(pathArb, fc.record({ literal: oddValue }), oddValue), { maxKeys: 3 }),
  oddValue,
);

const specArb = fc
  .record(
    {
      type: typeArb,
      name: nameArb,
      config: configArb,
      inputs: inputsArb,
      extra: fc.option(fc.tuple(keyName, oddValue), { nil: undefined }),
      provider: fc.option(fc.constantFrom("hashing", "constructor", "toString", "__proto__", "valueOf", "nope", ""), { nil: undefined }),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, provider, ...fields }) => {
    const spec: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) spec[k] = v;
    // semantic_similarity's provider is looked up by name in a table: names every object has among them.
    if (provider !== undefined && fields.type === "semantic_similarity") spec["config"] = { ...(isPlainObject(spec["config"]) ? spec["config"] : {}), provider };
    // As JSON.parse makes it: "__proto__" is then an own key.
    if (extra) Object.defineProperty(spec, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
    return spec;
  });

/** Holds `error` to the promise: an EvalError of a config code whose issues are each located and listed. */
function checkConfigError(error: unknown, at: readonly (string | number)[]): void {
  if (!(error instanceof EvalError)) throw error;
  expect(["CONFIG_INVALID", "UNKNOWN_EVALUATOR"]).toContain(error.code);
  expect(error.issues.length).toBeGreaterThan(0);
  for (const [i, issue] of error.issues.entries()) {
    expect(Array.isArray(issue.path)).toBe(true);
    expect(issue.path.slice(0, at.length)).toEqual(at);
    expect(typeof issue.message).toBe("string");
    expect(issue.message.length).toBeGreaterThan(0);
    if (i < 20) expect(error.message).toContain(`→ at ${formatPath(issue.path)}`);
  }
  expect(error.stack ?? "").not.toMatch(/TypeError/);
}

/** Every way of creating `specs` at once: the result, or the error held to the promise. */
function tryCreate(specs: unknown): Evaluator[] | undefined {
  try {
    return createEvaluators(specs, env);
  } catch (error) {
    checkConfigError(error, ["evaluators"]);
    return undefined;
  }
}

const textArb = fc.oneof(fc.string({ maxLength: 30, unit: "grapheme" }), fc.string({ maxLength: 30, unit: "binary" }), fc.constantFrom("", " ", "a", "A", "The cat.", "the CAT", "e\u0301", "é", "ﬁ", "\u0130"));

/** The score's documented range for the evaluator. */
function inRange(e: Evaluator, score: number | null): boolean {
  if (score === null) return false;
  if (e.direction === "minimize") return Number.isInteger(score) && score >= 0;
  const low = e.type === "semantic_similarity" && e.config["rescale"] === undefined ? -1 : 0;
  return Number.isFinite(score) && score >= low && score <= 1;
}

async function checkScores(evaluators: Evaluator[], output: string, expected: string): Promise<void> {
  for (const e of evaluators) {
    const record = { output, expected };
    const a = await e.evaluate(record);
    const b = await e.evaluate(record);
    expect(b).toEqual(a);
    expect(inRange(e, a.score), `${e.name}: score ${a.score}`).toBe(true);
    expect(a.label).toBe(a.passed === null ? null : a.passed ? "pass" : "fail");
    if (e.threshold !== null && a.passed !== null) {
      expect(a.passed).toBe(e.direction === "minimize" ? (a.score as number) <= e.threshold : (a.score as number) >= e.threshold);
    }
    if (e.verdictNow) {
      const v = e.verdictNow(record);
      expect(v.score).toBe(a.score);
      expect(v.passed).toBe(a.passed);
    }
  }
}

describe("config fuzzing: createEvaluators", () => {
  it("arbitrary JSON as the specs: evaluators, or a located config error", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        tryCreate(value);
        tryCreate([value]);
      }),
      runs(400),
    );
  });

  it("spec-shaped objects with wrong keys and values: evaluators that score a row, or a located config error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(specArb, { minLength: 1, maxLength: 4 }), fc.dictionary(fc.constantFrom("output", "expected", "a", "x", "s", "metadata"), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), async (specs, record) => {
        const made = tryCreate(specs) ?? [];
        for (const spec of specs) {
          try {
            made.push(createEvaluator(spec, env));
          } catch (error) {
            checkConfigError(error, []);
          }
        }
        // Not the built-in providers, which would reach the network or the disk.
        for (const e of made.filter((x) => x.type !== "semantic_similarity" || !Object.keys(builtinEmbeddingProviders).includes(x.config["provider"] as string))) {
          for (const r of [record, { output: "two words", expected: "other words" }]) {
            try {
              const result = await e.evaluate(r);
              if (!result.skipped) expect(inRange(e, result.score), `${e.name}: score ${result.score}`).toBe(true);
            } catch (error) {
              if (!(error instanceof EvalError)) throw error;
              expect(error.code).toBe("INPUT_INVALID");
            }
          }
        }
      }),
      runs(700),
    );
  });

  it("a problem inside an object-valued key (rescale) is named at its place, with what that place takes", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("from", "to", "__proto__", "threshold"), oddValue, { maxKeys: 3 }), (rescale) => {
        try {
          createEvaluator({ type: "semantic_similarity", config: { provider: "hashing", rescale } }, env);
        } catch (error) {
          checkConfigError(error, []);
          for (const issue of (error as EvalError).issues) {
            expect(issue.path.slice(0, 2)).toEqual(["config", "rescale"]);
            const key = issue.path[2];
            expect(typeof key).toBe("string");
            if (key === "from") expect(issue.expected).toBe("a number in [-1, 1)");
            else expect(issue.message).toContain(`unknown key ${JSON.stringify(key)} in config.rescale; known keys: from.`);
          }
        }
      }),
      runs(300),
    );
  });

  it("the same specs given as JSON text: the same outcome", () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 3 }), (specs) => {
        let text: string;
        try {
          text = JSON.stringify(specs);
        } catch {
          return; // a BigInt-free arbitrary, but be safe
        }
        const parsed = JSON.parse(text) as unknown;
        tryCreate(parsed);
      }),
      runs(500),
    );
  });

  it("valid configs score random texts in range, deterministically", async () => {
    // Specs that mostly pass: known keys with values of the right kind.
    const goodConfig = (type: string) => {
      const d = descriptions.find((x) => x.type === type);
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const c of d?.config ?? []) {
        if (c.key === "unicode_normalization") fields[c.key] = fc.constantFrom("NFC", "NFKC");
        else if (c.accepts === "true or false") fields[c.key] = fc.boolean();
        else if (c.accepts.startsWith("one of")) fields[c.key] = fc.constantFrom(...(JSON.parse(`[${c.accepts.slice(7)}]`) as string[]));
        else if (c.key === "threshold") fields[c.key] = type === "levenshtein_distance" ? fc.integer({ min: 0, max: 50 }) : fc.double({ min: type === "semantic_similarity" ? -1 : 0, max: 1, noNaN: true });
        else if (c.key === "max_chars") fields[c.key] = fc.integer({ min: 0, max: 40 });
        else if (c.key === "ngram_size") fields[c.key] = fc.integer({ min: 1, max: 6 });
        else if (c.key === "rescale") fields[c.key] = fc.record({ from: fc.double({ min: -1, max: 0.999, noNaN: true }) });
      }
      return fc.record(fields, { requiredKeys: [] });
    };
    const spec = fc.constantFrom(...evaluatorTypes).chain((type) =>
      goodConfig(type).map((config) => (type === "semantic_similarity" ? { type, config: { ...config, provider: "hashing" } } : { type, config })),
    );
    await fc.assert(
      fc.asyncProperty(spec, textArb, textArb, async (s, output, expected) => {
        let e: Evaluator;
        try {
          e = createEvaluator(s, env);
        } catch (error) {
          checkConfigError(error, []);
          return;
        }
        await checkScores([e], output, expected);
        await checkScores([e], expected, expected);
      }),
      runs(600),
    );
  });
});
