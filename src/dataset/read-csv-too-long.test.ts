import { describe, expect, it, vi } from "vitest";
import { CHUNK_BYTES } from "./read-bytes.js";
import { readCsv } from "./read-csv.js";
import { brief, collect, tempFiles } from "./test-support.js";

// A value longer than Node.js can hold as a string (~512 MiB) makes csv-parse throw ERR_STRING_TOO_LONG
// while it decodes the field. Writing such a file in a test is too slow, so the parser is made to throw
// the same error on the read after a marker value starts.
vi.mock("csv-parse", async (importOriginal) => {
  const original = await importOriginal<typeof import("csv-parse")>();
  return {
    ...original,
    parse: (options: Parameters<typeof original.parse>[0]) => {
      const parser = original.parse(options);
      const transform = parser._transform.bind(parser);
      let inLongValue = false;
      parser._transform = (chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void) => {
        // The read after the one where the marked value starts is where the value outgrows a string.
        if (!inLongValue) inLongValue = chunk.includes("TOO_LONG");
        else {
          throw Object.assign(new Error("Cannot create a string longer than 0x1fffffe8 characters"), { code: "ERR_STRING_TOO_LONG" });
        }
        transform(chunk, encoding, callback);
      };
      return parser;
    },
  };
});

const { file } = tempFiles("simeval-csv-too-long-");

describe("readCsv and a value too long for a string", () => {
  it("ends with a row error saying that the rest of the file is not read, after the rows before it", async () => {
    // The rows before the value are read before it (a real one spans thousands of reads): it starts a read of its own.
    const before = 'id,text\n1,fine\n\n2,"two\nlines"\n3,';
    const pad = "x".repeat(CHUNK_BYTES - before.length - 1);
    const path = await file("long.csv", `${before}${pad}\n4,TOO_LONG${"y".repeat(CHUNK_BYTES)}\n5,later\n`);
    const items = await collect(readCsv(path));
    expect(brief(items)).toEqual([
      [1, 2, { id: "1", text: "fine" }],
      [2, 4, { id: "2", text: "two\nlines" }],
      [3, 6, { id: "3", text: pad }],
      [
        4,
        7,
        "line 7: a value is longer than the longest text Node.js can hold (about 512 MiB), so the file cannot be read past it: the rest of the file is not in the run",
      ],
    ]);
    const last = items.at(-1)!;
    expect("error" in last && last.error.code).toBe("DATASET_READ_STOPPED");
  });
});
