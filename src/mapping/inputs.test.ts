import { describe, expect, it } from "vitest";
import type { Issue } from "../errors.js";
import { compileInputs } from "./inputs.js";

describe("compileInputs", () => {
  it("reports a malformed JSONPath as an issue whose message names the position and the usual forms", () => {
    const issues: Issue[] = [];
    compileInputs({ output: "$.[bad", expected: "$.ok" }, ["inputs"], issues, 'evaluator "em" (exact_match)');
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toEqual(["inputs", "output"]);
    expect(issues[0]?.message).toBe(
      'evaluator "em" (exact_match): "$.[bad" is not a valid JSONPath (RFC 9535): unexpected "[" at character 3 (after "$."); ' +
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
});
