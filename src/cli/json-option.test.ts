import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { parseJsonOption } from "./json-option.js";

describe("parseJsonOption", () => {
  it("names the option and keeps the parser's complaint on one line, where V8 quotes a short value whole, line breaks and all", () => {
    let error: unknown;
    try {
      parseJsonOption("--config", "hello\nworld");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EvalError);
    const message = (error as EvalError).message;
    expect(message).toMatch(/^--config is not valid JSON at line 1, column 1 \(.*"hello\\nworld" is not valid JSON\); received "hello\\nworld"$/);
    expect(message).not.toContain("\n");
  });

  it("cuts a long value in the message to 80 characters", () => {
    const text = `{${"x".repeat(200)}`;
    expect(() => parseJsonOption("--config", text)).toThrow(new RegExp(`; received "\\{${"x".repeat(79)}…"$`));
  });
});
