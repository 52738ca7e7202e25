import { describe, expect, it } from "vitest";
import { thrownEvalError } from "../test-support.js";
import { createEvaluator } from "../evaluators/create.js";
import { canonicalJson, MAX_DEPTH, toText } from "./to-text.js";


describe("toText", () => {
  it("strings as they are; other JSON values as canonical JSON", () => {
    expect(toText("a b")).toBe("a b");
    expect(toText(1.5)).toBe("1.5");
    expect(toText(true)).toBe("true");
    expect(toText({ b: [2, { d: 1, c: 0 }], a: 1 })).toBe('{"a":1,"b":[2,{"c":0,"d":1}]}');
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]'); // shared, not circular
    expect(toText(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
  });

  it('a "__proto__" key (JSON.parse makes it an own key) is written as any other key, not dropped', async () => {
    const value = JSON.parse('{"b":2,"__proto__":{"x":1},"c":[{"__proto__":0}]}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":1},"b":2,"c":[{"__proto__":0}]}');
    // It gave '{"b":2}', equal to an output without the key: exact_match passed.
    const exact = createEvaluator({ type: "exact_match", inputs: { output: "$.output", expected: "$.expected" } });
    const result = await exact.evaluate({ output: JSON.parse('{"__proto__":{"x":1},"b":2}') as unknown, expected: { b: 2 } });
    expect(result.score).toBe(0);
  });

  it("a BigInt, anywhere, is INPUT_INVALID naming the parameter and where", () => {
    const top = thrownEvalError(() => toText(1n, "output"));
    expect(top.code).toBe("INPUT_INVALID");
    expect(top.message).toBe("output: cannot turn the value into text: found a BigInt (1n); expected a string, number, boolean, or JSON-compatible object or array");
    const nested = thrownEvalError(() => toText({ a: [1, 2n] }, "expected"));
    expect(nested.message).toContain("expected: cannot turn the value into text: found a BigInt (2n) at a[1]");
    expect(nested.issues[0]?.path).toEqual(["expected", "a", 1]);
  });

  it("NaN or ±Infinity, anywhere (JSON.parse reads 1e400 as Infinity), is INPUT_INVALID rather than the text \"null\"", () => {
    const row = JSON.parse('{"expected": 1e400, "meta": {"x": [-1e999]}}') as Record<string, unknown>;
    const top = thrownEvalError(() => toText(row["expected"], "expected"));
    expect(top.code).toBe("INPUT_INVALID");
    expect(top.message).toBe('expected: cannot turn the value into text: found the number Infinity, which JSON writes as null (a number beyond ±1.8e308, such as 1e400, reads as Infinity); expected a finite number, or the value as a string ("1e400")');
    expect(thrownEvalError(() => toText(row["meta"], "output")).issues[0]?.path).toEqual(["output", "x", 0]);
    // NaN is not told to be written as "1e400".
    expect(thrownEvalError(() => toText(NaN, "output")).message).toBe('output: cannot turn the value into text: found the number NaN, which JSON writes as null; expected a finite number, or the value as a string ("NaN")');
    expect(toText(1.7976931348623157e308)).toBe("1.7976931348623157e+308"); // the largest double is a number still
  });

  it("a value nested more than MAX_DEPTH levels deep is INPUT_INVALID, not a RangeError; one at MAX_DEPTH is text", () => {
    const nested = (depth: number) => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as unknown;
    expect(toText(nested(MAX_DEPTH), "output")).toBe(`${"[".repeat(MAX_DEPTH)}${"]".repeat(MAX_DEPTH)}`);
    const e = thrownEvalError(() => toText(nested(100_000), "expected"));
    expect(e.code).toBe("INPUT_INVALID");
    expect(e.message).toBe(`expected: cannot turn the value into text: found arrays or objects nested more than ${MAX_DEPTH} levels deep; expected a value nested at most ${MAX_DEPTH} levels deep`);
    expect(thrownEvalError(() => toText(nested(MAX_DEPTH + 1), "output")).issues[0]?.path).toEqual(["output"]);
    // Given as a literal, it is a config problem found when the evaluator is created.
    const spec = thrownEvalError(() => createEvaluator({ type: "exact_match", inputs: { expected: { literal: nested(100_000) } } }));
    expect(spec.code).toBe("CONFIG_INVALID");
    expect(spec.issues[0]?.path).toEqual(["inputs", "expected", "literal"]);
  });

  it("a circular structure is INPUT_INVALID, not a RangeError", () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop["self"] = { back: loop };
    const e = thrownEvalError(() => toText(loop, "output"));
    expect(e.code).toBe("INPUT_INVALID");
    expect(e.message).toContain("output: cannot turn the value into text: found a circular reference (an object that contains itself) at self.back");
  });

  it("a function, a symbol, or a toJSON that fails is INPUT_INVALID", () => {
    expect(thrownEvalError(() => toText(() => 1, "output")).message).toContain("found a function");
    expect(thrownEvalError(() => toText(Symbol("s"), "output")).message).toContain("found a symbol");
    const bad = { toJSON: () => ({ n: 3n }) };
    expect(thrownEvalError(() => toText({ v: bad }, "expected")).code).toBe("INPUT_INVALID");
  });

  it("Evaluator.evaluate rejects with INPUT_INVALID for such records", async () => {
    const e = createEvaluator({ type: "levenshtein" });
    await expect(e.evaluate({ output: 1n, expected: "1" })).rejects.toMatchObject({ name: "EvalError", code: "INPUT_INVALID", message: expect.stringContaining("output: cannot turn the value into text: found a BigInt (1n)") });
    const loop: unknown[] = [];
    loop.push(loop);
    await expect(e.evaluate({ output: "x", expected: loop })).rejects.toMatchObject({ code: "INPUT_INVALID", message: expect.stringContaining("expected: ") });
  });
});
