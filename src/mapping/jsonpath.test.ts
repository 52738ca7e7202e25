import fc from "fast-check";
import { query, type JsonValue } from "jsonpath-rfc9535";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { compilePath } from "./jsonpath.js";

function messageOf(expression: string): string {
  try {
    compilePath(expression);
  } catch (error) {
    expect(error).toBeInstanceOf(EvalError);
    expect((error as EvalError).code).toBe("CONFIG_INVALID");
    return (error as EvalError).message;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
}

/** Controls, lone surrogates, private-use and unassigned code points, U+FFFD: what the parser's classes leaked. */
const UNREADABLE = /[\p{Cc}\p{Cs}\p{Co}\p{Cn}\uFFFD]/u;

describe("compilePath: syntax errors people can read", () => {
  it.each([
    ["$.[bad", 'unexpected "[" at character 3 (after "$."); expected "*" or a member name; a path'],
    ["$.a[", 'the path ends at character 5 (after "$.a[")'],
    ["$[0", 'the path ends at character 4 (after "$[0"); expected ":", "," or "]"'],
    ["$.a b", 'unexpected "b" at character 5 (after "$.a "); expected "[", "." or ".."'],
    ["answer", 'unexpected "a" at character 1 (at the start); expected "$" (a path starts at the record, $; a fixed value is written {"literal": value})'],
    // Positions count code points: the emoji is one character, two UTF-16 units.
    ["$.😀]", 'unexpected "]" at character 4 (after "$.😀")'],
  ])("%j: %s", (expression, detail) => {
    const message = messageOf(expression);
    expect(message.startsWith(`${JSON.stringify(expression)} is not a valid JSONPath (RFC 9535): `)).toBe(true);
    expect(message).toContain(detail);
    expect(message).toContain("a path looks like $.name, $['name with spaces'], $[0], $[-1], $[*], $..name or $[?@.score > 0.5]");
    expect(message).not.toMatch(UNREADABLE);
    expect(message).not.toMatch(/\[[^\]]*\\x80|Expected .* but/);
  });

  it("writes unprintable characters of the path as escapes", () => {
    const message = messageOf("$[0]\u0000");
    expect(message).toContain('unexpected "\\u0000" at character 5 (after "$[0]")');
    expect(messageOf("$['\uD800']")).toContain('"$[\'\\ud800\']" is not a valid JSONPath');
    for (const bad of ["$[0]\u0000", "$['\uD800']", "$.\uD800", "$.a\u0085[", "$['x", "$[?@.a ==]", "$['\\q']"]) expect(messageOf(bad)).not.toMatch(UNREADABLE);
  });

  it("suggests the path with its $ when one was written without it, as the product documents write paths", () => {
    expect(messageOf("reference.answer")).toContain('; did you mean "$.reference.answer"?; a path looks like');
    expect(messageOf("answer")).toContain('did you mean "$.answer"?');
    expect(messageOf("['x y'][0]")).toContain(`did you mean "$['x y'][0]"?`);
    expect(messageOf(".a")).toContain('did you mean "$.a"?');
    // Nothing to suggest when adding the $ does not make a path, or the path already starts with one.
    for (const bad of ["reference answer", "1abc", "$.[bad", "a."]) expect(messageOf(bad)).not.toContain("did you mean");
  });

  it("still compiles valid paths", () => {
    expect(compilePath("$.a['b c'][0]").select({ a: { "b c": ["x"] } })).toEqual(["x"]);
    expect(compilePath("$..n").select({ a: { n: 1 } })).toEqual([1]);
  });

  it("a descendant path on a record that contains itself is INPUT_INVALID, not an endless walk", () => {
    const record: Record<string, unknown> = { a: { n: 1 } };
    (record["a"] as Record<string, unknown>)["back"] = record;
    expect(() => compilePath("$..n").select(record)).toThrow(expect.objectContaining({ code: "INPUT_INVALID", message: "JSONPath $..n cannot search the record: it contains itself (a circular reference)" }));
    const shared = { n: 1 };
    expect(compilePath("$..n").select({ a: shared, b: [shared] })).toEqual([1, 1]); // shared, not circular
    expect(compilePath("$[?@.n == 1]").select({ a: record["a"] })).toEqual([record["a"]]); // no descendant segment: no walk
  });
});

describe("compilePath: paths of member names and indexes, read as plain properties", () => {
  it("select and selectOne give what the JSONPath library gives", () => {
    const name = fc.constantFrom("a", "b", "x y", "0", "length", "__proto__");
    const step = fc.oneof(name.map((n) => `[${JSON.stringify(n)}]`), fc.constantFrom("a", "b").map((n) => `.${n}`), fc.integer({ min: -3, max: 3 }).map((i) => `[${i}]`));
    const path = fc.array(step, { minLength: 1, maxLength: 4 }).map((s) => `$${s.join("")}`);
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, fc.constantFrom(null, 1, "s", true), fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(name, tie("node"), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(path, value, (p, v) => {
        const compiled = compilePath(p);
        const expected = query(v as JsonValue, p);
        expect(compiled.select(v)).toEqual(expected);
        expect(compiled.selectOne?.(v)).toEqual(expected[0]);
      }),
      { numRuns: 500 },
    );
  });
});

describe("compilePath: each expression parsed once", () => {
  it("gives the same compiled path for the same expression, and a bad one fails every time", () => {
    for (const expression of ["$.a.b", "$[?@.score > 0.5]", "$..name"]) expect(compilePath(expression)).toBe(compilePath(expression));
    expect(compilePath("$.a")).not.toBe(compilePath("$.b"));
    expect(() => compilePath("$.")).toThrow(EvalError);
    expect(() => compilePath("$.")).toThrow(EvalError);
  });
});
