import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { checkOptionWords } from "./option-words.js";

/** A command with a value option, a switch, a negated switch and a long option beginning with h. */
function command(): Command {
  return new Command("demo").option("--out <file>", "an output").option("--only", "a switch").option("--no-db", "no database").option("--header <text>", "a header");
}

describe("checkOptionWords: a short option the command lacks", () => {
  it("names the long options beginning with its letter, either case", () => {
    expect(() => checkOptionWords(command(), ["-o"])).toThrow(new EvalError("USAGE", "unknown option '-o': demo has no -o; did you mean --out or --only?"));
    expect(() => checkOptionWords(command(), ["-O"])).toThrow(/did you mean --out or --only\?/);
  });

  it("leaves to commander a letter no long option begins with, -h (help), and suggests no negated switch (--no-db for -n)", () => {
    for (const word of ["-z", "-h", "-n"]) expect(() => checkOptionWords(command(), [word])).not.toThrow();
  });
});
