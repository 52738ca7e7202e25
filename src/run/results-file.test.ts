import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evalErrorOf, tempDir, writeIn } from "../test-support.js";
import { readResultsFile } from "./results-file.js";
import type { RowOutcome } from "./types.js";

const dir = tempDir("simeval-results-file-");
const all = (path: string, chunk?: number) => [...readResultsFile(path, chunk)];
const failure = (path: string) => evalErrorOf(Promise.resolve().then(() => all(path)));

describe("readResultsFile", () => {
  it("gives back every row, whatever the read size: multi-byte text split across reads, CRLF, blank lines", () => {
    const outcome = fc.record({
      row: fc.nat(),
      id: fc.oneof(fc.constant(null), fc.string({ unit: "grapheme" })),
      results: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.record({ score: fc.double({ min: 0, max: 1, noNaN: true }), reasoning: fc.string({ unit: "grapheme" }) })),
    });
    let n = 0;
    fc.assert(
      fc.property(fc.array(outcome, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 64 }), fc.boolean(), (rows, chunk, crlf) => {
        const eol = crlf ? "\r\n" : "\n";
        const path = writeIn(dir, `p${n++}.jsonl`, rows.map((r) => JSON.stringify(r)).join(`${eol}${eol}`) + eol);
        expect(all(path, chunk)).toEqual(rows as unknown as RowOutcome[]);
      }),
      { numRuns: 200 },
    );
  });

  it("a bad line, a missing file or no rows is a USAGE error naming the file and line", async () => {
    const bad = await failure(writeIn(dir, "bad.jsonl", '{"row":1,"results":{}}\n{"row":2,\n'));
    expect(bad).toMatchObject({ code: "USAGE" });
    expect(bad.message).toMatch(/bad\.jsonl:2: not valid JSON .*; expected a results\.jsonl line from simeval run --out/);
    expect((await failure(writeIn(dir, "shape.jsonl", '{"id":1}\n'))).message).toMatch(/shape\.jsonl:1: expected \{"row": N/);
    expect((await failure(join(dir, "nope.jsonl"))).message).toMatch(/nope\.jsonl: no such file/);
    expect((await failure(writeIn(dir, "empty.jsonl", "\n\n"))).message).toMatch(/empty\.jsonl: no result rows/);
  });
});
