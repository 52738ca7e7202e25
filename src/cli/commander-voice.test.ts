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
  });

  it("says a missing argument with the command's usage, when the command is known", () => {
    const command = { name: "compare", usage: "[options] <run_a> <run_b>" };
    expect(inSimevalVoice("error: missing required argument 'run_b'\n", command)).toBe("simeval: compare needs its <run_b> argument: simeval compare [options] <run_a> <run_b>\n");
    expect(inSimevalVoice("error: missing required argument 'run_b'\n")).toBe("simeval: missing required argument 'run_b'\n");
  });

  it("keeps any other message's words, starting it with simeval:", () => {
    expect(inSimevalVoice("error: unknown option '--limit'\n")).toBe("simeval: unknown option '--limit'\n");
    expect(inSimevalVoice("error: option '--x <v>' argument 'a' is invalid. Not a number.\n")).toBe("simeval: option '--x <v>' argument 'a' is invalid. Not a number.\n");
  });
});
