import { describe, expect, it, vi } from "vitest";
import { readJsonArray } from "./read-json.js";
import { brief, collect, tempFiles } from "./test-support.js";

// A string longer than Node.js can hold (~512 MiB) makes the tokenizer's append throw V8's RangeError
// "Invalid string length", which it reports through onError. Writing such a file in a test is too slow, so
// the tokenizer reads up to a marker inside a value, then fails there with that same error.
vi.mock("@streamparser/json", async (importOriginal) => {
  const original = await importOriginal<typeof import("@streamparser/json")>();
  class Tokenizer extends original.Tokenizer {
    override write(input: Iterable<number> | string): void {
      const bytes = Buffer.from(input as Uint8Array);
      const marker = bytes.indexOf("TOO_LONG");
      if (marker === -1) return super.write(bytes);
      super.write(bytes.subarray(0, marker));
      this.error(new RangeError("Invalid string length"));
    }
  }
  return { ...original, Tokenizer };
});

const { file } = tempFiles("simeval-json-too-long-");

describe("readJsonArray and a value too long for a string", () => {
  it("ends with a row error for the row holding it that says so (not a syntax error), after the rows before it", async () => {
    const text = '[{"id":1},\n{"id":2,\n "text":"two"},\n{"id":3,\n "text":"TOO_LONG"},\n{"id":4}]';
    const items = await collect(readJsonArray(await file("long.json", text)));
    expect(brief(items)).toEqual([
      [1, 1, { id: 1 }],
      [2, 2, { id: 2, text: "two" }],
      [3, 4, "line 4: a value is longer than the longest text Node.js can hold (about 512 MiB), so the file cannot be read past it: the rest of the file is not in the run"],
    ]);
    const last = items.at(-1)!;
    expect("error" in last && last.error.code).toBe("DATASET_READ_STOPPED");
  });
});
