import { describe, expect, it } from "vitest";
import { describeValue, EvalError, formatIssues } from "./errors.js";
import { thrownEvalError } from "./test-support.js";

describe("formatIssues", () => {
  it("writes one line per issue with its path", () => {
    expect(formatIssues([{ path: ["evaluators", 2, "config", "threshold"], message: "bad" }])).toBe("✖ bad\n  → at evaluators[2].config.threshold");
    expect(formatIssues([])).toBe("");
    // A long list is cut after the first 20, counting the rest.
    const many = Array.from({ length: 20_021 }, (_, i) => ({ path: ["evaluators", i], message: `bad ${i}` }));
    const lines = formatIssues(many).split("\n");
    expect(lines).toHaveLength(41);
    expect(lines.slice(38)).toEqual(["✖ bad 19", "  → at evaluators[19]", "…and 20,001 more such problems."]);
    expect(formatIssues(many.slice(0, 20)).split("\n")).toHaveLength(40);
  });

  it("refuses what is not a list of issues with INPUT_INVALID naming the entry, not a TypeError", () => {
    const cases: [unknown, string][] = [
      [null, "formatIssues: issues must be an array of issues ({ path, message }), received null"],
      ["oops", 'formatIssues: issues must be an array of issues ({ path, message }), received string "oops"'],
      [[null], "formatIssues: issues[0] must be an issue ({ path, message }), received null"],
      [[{}], "formatIssues: issues[0].message must be a string, received nothing"],
      [[{ message: "m" }], "formatIssues: issues[0].path must be an array of strings and numbers, received nothing"],
      [[{ message: "m", path: [] }, { message: "n", path: ["a", {}] }], "formatIssues: issues[1].path[1] must be a string or a number, received object"],
    ];
    for (const [bad, message] of cases) {
      expect(thrownEvalError(() => formatIssues(bad as never))).toMatchObject({ code: "INPUT_INVALID", message });
    }
  });
});

describe("EvalError", () => {
  it("is not transient unless told it is: a refusal is not worth retrying, a failure of the moment may be", () => {
    expect(new EvalError("RUN_NOT_FOUND", "no run").transient).toBe(false);
    expect(new EvalError("STORE_FAILED", "locked", { transient: true })).toMatchObject({ code: "STORE_FAILED", message: "locked", transient: true, issues: [] });
    expect(new EvalError("STORE_FAILED", "damaged", { transient: false }).transient).toBe(false);
  });

  it("gives its code, message, issues and transient to JSON.stringify (an Error's own properties leave the message out), not its cause", () => {
    const issues = [{ path: ["evaluators", 0, "type"], message: "unknown type" }];
    const error = new EvalError("CONFIG_INVALID", "1 problem", { issues, cause: new Error("/secret/path"), transient: false });
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: "EvalError", code: "CONFIG_INVALID", message: "1 problem", issues, transient: false });
    expect(JSON.stringify({ error: new EvalError("STORE_FAILED", "locked", { transient: true }) })).toBe(
      '{"error":{"name":"EvalError","code":"STORE_FAILED","message":"locked","issues":[],"transient":true}}',
    );
  });
});

describe("describeValue", () => {
  it("quotes a string as JSON with the characters JSON leaves as they are escaped too: a bidi override cannot reverse the message after it", () => {
    expect(describeValue("a\u202eb\u200bc\u007f\u0085d\n")).toBe('string "a\\u202eb\\u200bc\\u007f\\u0085d\\n"');
    expect(describeValue("héllo — ok")).toBe('string "héllo — ok"'); // printable text as it is
    // A text that shows nothing (a zero width joiner, a Hangul filler) is escaped whole, not quoted as a blank "".
    expect(describeValue("\u200d")).toBe('string "\\u200d"');
    expect(describeValue(" \u3164\u200c ")).toBe('string " \\u3164\\u200c "');
    expect(describeValue("👩\u200d💻")).toBe('string "👩\u200d💻"'); // the joiner of a visible emoji left as it is
    expect(describeValue(undefined)).toBe("nothing");
    expect(describeValue([1, 2])).toBe("array of 2");
  });
});
