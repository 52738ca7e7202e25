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

  it("still compiles valid paths", () => {
    expect(compilePath("$.a['b c'][0]").select({ a: { "b c": ["x"] } })).toEqual(["x"]);
    expect(compilePath("$..n").select({ a: { n: 1 } })).toEqual([1]);
  });
});
