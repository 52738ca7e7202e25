import { describe, expect, it } from "vitest";
import { inSimevalVoice } from "./commander-voice.js";

describe("inSimevalVoice", () => {
  it("says a choice not allowed with the flag, the value given and the choices", () => {
    expect(inSimevalVoice("error: option '--pair-by <how>' argument 'id' is invalid. Allowed choices are row, key.\n")).toBe(
      'simeval: --pair-by "id" is not one of its choices; expected row or key\n',
    );
    expect(inSimevalVoice("error: option '-f, --format <f>' argument 'x y' is invalid. Allowed choices are a, b, c.\n")).toBe(
      'simeval: --format "x y" is not one of its choices; expected a, b or c\n',
    );
  });

  it("says an option without its value, or a required one not given, by its long flag, with the value's placeholder", () => {
    expect(inSimevalVoice("error: option '-c, --config <file>' argument missing\n")).toBe("simeval: --config needs a value: --config <file>\n");
    expect(inSimevalVoice("error: option '--seed <n>' argument missing\n")).toBe("simeval: --seed needs a value: --seed <n>\n");
    expect(inSimevalVoice("error: required option '-t, --type <type>' not specified\n")).toBe("simeval: --type is required: --type <type>\n");
    // Given after --, it was read as an argument: said so.
    for (const given of ["-t", "-texact_match", "--type", "--type=exact_match"]) {
      expect(inSimevalVoice("error: required option '-t, --type <type>' not specified\n", { name: "score", usage: "[options]", args: [given, "exact_match"] })).toBe(
        "simeval: --type is required: --type <type>; it was given after --, where every word is read as an argument: give the options before --\n",
      );
    }
    expect(inSimevalVoice("error: required option '-t, --type <type>' not specified\n", { name: "score", usage: "[options]", args: ["--typo", "-x"] })).toBe("simeval: --type is required: --type <type>\n");
  });

  it("says a missing argument with the command's usage, when the command is known", () => {
    const command = { name: "compare", usage: "[options] <run_a> <run_b>" };
    expect(inSimevalVoice("error: missing required argument 'run_b'\n", command)).toBe("simeval: compare needs its <run_b> argument: simeval compare [options] <run_a> <run_b>\n");
    expect(inSimevalVoice("error: missing required argument 'run_b'\n")).toBe("simeval: missing required argument 'run_b'\n");
  });

  it("says too many arguments with the words given and the command's usage, and what -- did to an option", () => {
    const show = { name: "show", usage: "[options] <run>", args: ["a", "b"] };
    expect(inSimevalVoice("error: too many arguments for 'show'. Expected 1 argument but got 2.\n", show)).toBe(
      'simeval: show takes 1 argument, received 2: "a", "b"; usage: simeval show [options] <run>\n',
    );
    const score = { name: "score", usage: "[options]", args: ["-t", "x"] };
    expect(inSimevalVoice("error: too many arguments for 'score'. Expected 0 arguments but got 2.\n", score)).toBe(
      'simeval: score takes no arguments, received 2: "-t", "x"; after --, every word is read as an argument, options too: give the options before --; usage: simeval score [options]\n',
    );
    const baseline = { name: "baseline", usage: "[options] [action] [run]", args: ["set", "a", "b"], optional: true };
    expect(inSimevalVoice("error: too many arguments for 'baseline'. Expected 2 arguments but got 3.\n", baseline)).toBe(
      'simeval: baseline takes at most 2 arguments, received 3: "set", "a", "b"; usage: simeval baseline [options] [action] [run]\n',
    );
    const compare = { name: "compare", usage: "[options] <run_a> <run_b>", args: ["a", "b", "c"] };
    expect(inSimevalVoice("error: too many arguments for 'compare'. Expected 2 arguments but got 3.\n", compare)).toBe(
      'simeval: compare takes 2 arguments, received 3: "a", "b", "c"; usage: simeval compare [options] <run_a> <run_b>\n',
    );
  });

  it("keeps any other message's words, starting it with simeval:", () => {
    expect(inSimevalVoice("error: option '--x <v>' argument 'a' is invalid. Not a number.\n")).toBe("simeval: option '--x <v>' argument 'a' is invalid. Not a number.\n");
  });

  it("says an unknown option as checkOptionWords does: the command that lacks it and commander's suggestion, not its \"(Did you mean …?)\" line", () => {
    const run = { name: "run", usage: "[options] <dataset>" };
    expect(inSimevalVoice("error: unknown option '--confg'\n(Did you mean --config?)\n", run)).toBe("simeval: unknown option '--confg': run has no --confg; did you mean --config?\n");
    expect(inSimevalVoice("error: unknown option '--bogus=1'\n", run)).toBe("simeval: unknown option '--bogus=1': run has no --bogus\n");
    expect(inSimevalVoice("error: unknown option '--limit'\n")).toBe("simeval: unknown option '--limit': simeval takes only --help and --version before a command\n");
  });
});
