import { describe, expect, it } from "vitest";
import type { Issue } from "../errors.js";
import { thrownEvalError } from "../test-support.js";
import { canonicalInputs, compileInputs } from "./inputs.js";

describe("compileInputs", () => {
  it("reports a malformed JSONPath as an issue whose message names the position and the usual forms", () => {
    const issues: Issue[] = [];
    compileInputs({ output: "$.[bad", expected: "$.ok" }, ["inputs"], issues, 'evaluator "em" (exact_match)');
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toEqual(["inputs", "output"]);
    expect(issues[0]?.message).toBe(
      'evaluator "em" (exact_match): input "output": "$.[bad" is not a valid JSONPath (RFC 9535): unexpected "[" at character 3 (after "$."); ' +
        'expected "*" or a member name; ' +
        "a path looks like $.name, $['name with spaces'], $[0], $[-1], $[*], $..name or $[?@.score > 0.5]",
    );
    expect(issues[0]?.message).not.toMatch(/[\p{Cc}\p{Cs}\p{Co}\p{Cn}\uFFFD]/u);
  });

  it("reads the mapped and default paths", () => {
    const issues: Issue[] = [];
    const inputs = compileInputs({ output: "$.answer" }, ["inputs"], issues, "e");
    expect(issues).toEqual([]);
    expect(inputs.output({ answer: "a" })).toBe("a");
    expect(inputs.expected({ metadata: { expectedOutput: "b" } })).toBe("b");
  });

  it("takes actual, the Levenshtein distance document's name, for output; both at once is an issue", () => {
    const issues: Issue[] = [];
    const inputs = compileInputs({ actual: "$.model_response.text", expected: { literal: "sitting" } }, ["inputs"], issues, "e");
    expect(issues).toEqual([]);
    expect(inputs.output({ model_response: { text: "kitten" } })).toBe("kitten");
    compileInputs({ actual: "$.a", output: "$.b" }, ["inputs"], issues, "e");
    expect(issues.map((i) => [i.path, i.message])).toEqual([[["inputs", "actual"], 'e: "actual" is another name for the input "output", which is also given; keep one']]);
    const unknown: Issue[] = [];
    compileInputs({ response: "$.a" }, ["inputs"], unknown, "e");
    expect(unknown[0]?.message).toBe('e: unknown input "response"; known inputs: output, expected ("actual" for output).');
    compileInputs({ outptu: "$.a", expcted: "$.b", acutal: "$.c" }, ["inputs"], unknown, "e");
    expect(unknown.slice(1).map((i) => i.message.split(". ")[1])).toEqual(['Did you mean "output"?', 'Did you mean "expected"?', 'Did you mean "actual"?']);
    expect(canonicalInputs({ actual: "$.a", expected: "$.b" })).toEqual({ output: "$.a", expected: "$.b" });
  });

  it("a path that matches several values on a record is INPUT_INVALID naming the input and the path", () => {
    const inputs = compileInputs({ actual: "$.answers[*]", expected: "$..ref" }, ["inputs"], [], "e");
    const output = thrownEvalError(() => inputs.output({ answers: ["a", "b"] }));
    expect(output.code).toBe("INPUT_INVALID");
    expect(output.message).toBe("actual: JSONPath $.answers[*] matched 2 values; it must select at most one");
    expect(output.issues.map((i) => i.path)).toEqual([["actual"]]);
    expect(thrownEvalError(() => inputs.expected({ ref: 1, more: { ref: 2 }, last: { ref: 3 } })).message).toBe("expected: JSONPath $..ref matched 3 values; it must select at most one");
  });

  it("a JSONPath with whitespace around it is an issue naming the input and saying to remove the whitespace", () => {
    const issues: Issue[] = [];
    compileInputs({ output: "$.answer ", expected: "\t$.ref\n" }, ["inputs"], issues, "e");
    expect(issues).toEqual([
      {
        path: ["inputs", "output"],
        message: 'e: input "output": the JSONPath "$.answer " has whitespace at its end, which a JSONPath may not have; remove it: "$.answer"',
        expected: "a JSONPath without leading or trailing whitespace",
        received: '"$.answer "',
      },
      {
        path: ["inputs", "expected"],
        message: 'e: input "expected": the JSONPath "\\t$.ref\\n" has whitespace at its start and end, which a JSONPath may not have; remove it: "$.ref"',
        expected: "a JSONPath without leading or trailing whitespace",
        received: '"\\t$.ref\\n"',
      },
    ]);
    // What is left once trimmed is checked as well; whitespace inside a path is RFC 9535's own.
    const both: Issue[] = [];
    compileInputs({ actual: " $.[bad", expected: "$ .ref" }, ["inputs"], both, "e");
    expect(both.map((i) => i.message)).toEqual([
      'e: input "actual": the JSONPath " $.[bad" has whitespace at its start, which a JSONPath may not have; remove it: "$.[bad"',
      expect.stringContaining('e: input "actual": "$.[bad" is not a valid JSONPath (RFC 9535): unexpected "["'),
    ]);
  });

  it("a literal that cannot be used as text, or holds a number JSON writes as null, is an issue at the literal", () => {
    const issuesOf = (literal: unknown) => {
      const issues: Issue[] = [];
      compileInputs({ expected: { literal } }, ["inputs"], issues, "e");
      return issues;
    };
    // What JSON.parse makes of a number too large for a double, anywhere in the literal.
    expect(issuesOf(JSON.parse('{"a": [1, -1e400]}'))).toEqual([
      {
        path: ["inputs", "expected", "literal", "a", 1],
        message:
          'e: input "expected" (a literal): cannot turn the value into text: found the number -Infinity, which JSON writes as null ' +
          '(a number beyond ±1.8e308, such as 1e400, reads as Infinity) at a[1]; expected a finite number, or the value as a string ("1e400")',
        expected: 'a finite number, or the value as a string ("1e400")',
        received: "the number -Infinity, which JSON writes as null (a number beyond ±1.8e308, such as 1e400, reads as Infinity)",
      },
    ]);
    expect(issuesOf(NaN)[0]?.message).toBe('e: input "expected" (a literal): cannot turn the value into text: found the number NaN, which JSON writes as null; expected a finite number, or the value as a string ("NaN")');
    const big = issuesOf({ x: [2n] });
    expect(big.map((i) => [i.path, i.message])).toEqual([
      [["inputs", "expected", "literal", "x", 0], 'e: input "expected" (a literal): cannot turn the value into text: found a BigInt (2n) at x[0]; expected a string, number, boolean, or JSON-compatible object or array'],
    ]);
    const loop: Record<string, unknown> = {};
    loop["me"] = loop;
    expect(issuesOf(loop)[0]?.message).toContain("found a circular reference");
    expect(issuesOf(() => 1)[0]?.message).toContain("found a function");
    for (const fine of ["x", 1.5, false, null, { a: [1, "b"] }, new Date(0)]) expect(issuesOf(fine)).toEqual([]);
  });
});
