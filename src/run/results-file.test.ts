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
      results: fc.dictionary(
        fc.string({ minLength: 1, maxLength: 6 }),
        fc.oneof(
          fc.record({ type: fc.constant("levenshtein"), score: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true })), reasoning: fc.string({ unit: "grapheme" }) }),
          fc.record({ type: fc.constant("levenshtein_distance"), score: fc.oneof(fc.constant(null), fc.nat()), reasoning: fc.string({ unit: "grapheme" }) }),
        ),
      ),
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

  it("skips a UTF-8 byte order mark starting the file (saved by an editor) or a line (files joined with cat), whatever the read size", () => {
    const line = (row: number) => `{"row":${row},"results":{"x":{"type":"levenshtein","score":0.5}}}\n`;
    const path = writeIn(dir, "bom.jsonl", `\ufeff${line(1)}\ufeff${line(2)}\ufeff\n${line(3)}`);
    for (const chunk of [1, 2, 3, 7, 1 << 20]) expect(all(path, chunk).map((r) => r.row)).toEqual([1, 2, 3]);
  });

  it("tells onRow each row's line as the row is given, blank lines and a byte order mark counted, whatever the read size", () => {
    const line = (row: number) => JSON.stringify({ row, id: null, results: {} });
    const path = writeIn(dir, "lines.jsonl", `\uFEFF${line(1)}\n\n  \r\n${line(2)}\r\n${line(3)}`);
    for (const chunk of [1, 7, 1 << 20]) {
      const seen: [number, number | undefined][] = [];
      let at: number | undefined;
      for (const o of readResultsFile(path, chunk, undefined, (n) => (at = n))) seen.push([o.row, at]);
      expect(seen).toEqual([[1, 1], [2, 4], [3, 5]]);
    }
  });

  it("a bad line, a missing file or no rows is a USAGE error naming the file and line", async () => {
    const bad = await failure(writeIn(dir, "bad.jsonl", '{"row":1,"results":{}}\n{"row":2,\n'));
    expect(bad).toMatchObject({ code: "USAGE" });
    expect(bad.message).toMatch(/bad\.jsonl:2: not valid JSON .*; expected a results\.jsonl line from simeval run --out/);
    // The column where the line stops being JSON, counted from 1, not V8's 0-based "at position N".
    const placed = await failure(writeIn(dir, "placed.jsonl", '{"row":1,"results":{}}\n{"row":2,"results":{"x":{"type":"levenshtein" "score":1}}}\n'));
    expect(placed.message).toBe(`${join(dir, "placed.jsonl")}:2: not valid JSON at column 47 (Expected ',' or '}' after property value); expected a results.jsonl line from simeval run --out`);
    expect((await failure(writeIn(dir, "shape.jsonl", '{"id":1}\n'))).message).toMatch(/shape\.jsonl:1: expected \{"row": N.*; "row" is missing$/);
    expect((await failure(writeIn(dir, "no-results.jsonl", '{"row":1}\n'))).message).toMatch(/; "results" is missing$/);
    expect((await failure(writeIn(dir, "row.jsonl", '{"row":"4","results":{}}\n'))).message).toMatch(/row\.jsonl:1: expected \{"row": N.*; "row" must be a number, received string "4"$/);
    expect((await failure(writeIn(dir, "results.jsonl", '{"row":4,"results":[]}\n'))).message).toMatch(/; "results" must be an object, received array of 0$/);
    expect((await failure(writeIn(dir, "array.jsonl", "[1]\n"))).message).toMatch(/array\.jsonl:1: expected \{"row": N.*; received array of 1$/);
    expect((await failure(join(dir, "nope.jsonl"))).message).toMatch(/nope\.jsonl: no such file/);
    expect((await failure(writeIn(dir, "empty.jsonl", "\n\n"))).message).toMatch(/empty\.jsonl: no result rows/);
  });

  it("says a UTF-16 or compressed file is one, where its garbage was taken for a line cut short", async () => {
    const line = '{"row":1,"id":null,"results":{}}\n';
    const utf16 = writeIn(dir, "utf16.jsonl", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(line, "utf16le")]));
    const bare = writeIn(dir, "utf16-bare.jsonl", Buffer.from(line, "utf16le"));
    const gzip = writeIn(dir, "gz.jsonl", Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]));
    for (const read of [(path: string) => [...readResultsFile(path, undefined, () => {})], (path: string) => all(path)]) {
      expect((await evalErrorOf(Promise.resolve().then(() => read(utf16)))).message).toBe(`${utf16}: is UTF-16 text (it starts with a UTF-16 byte order mark); expected UTF-8: convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8`);
      expect((await evalErrorOf(Promise.resolve().then(() => read(bare)))).message).toContain(`${bare}: looks like UTF-16LE text without a byte order mark`);
      expect((await evalErrorOf(Promise.resolve().then(() => read(gzip)))).message).toBe(`${gzip}: is gzip-compressed; expected a UTF-8 text file (a results.jsonl from simeval run --out): decompress it first, e.g. gunzip -k FILE`);
    }
  });

  it("leaves out a last line cut short (not JSON, no line break after it) when told where, whatever the read size; refuses it otherwise, saying it looks cut short", async () => {
    const line = (row: number) => `{"row":${row},"id":"é${row}","results":{"x":{"type":"levenshtein","score":0.5}}}`;
    const cut = writeIn(dir, "cut.jsonl", `${line(1)}\n${line(2)}\n${line(3).slice(0, 30)}`);
    for (const chunk of [1, 5, 1 << 20]) {
      const heard: number[] = [];
      expect([...readResultsFile(cut, chunk, (n) => heard.push(n))].map((r) => r.row)).toEqual([1, 2]);
      expect(heard).toEqual([3]);
    }
    expect((await failure(cut)).message).toMatch(/cut\.jsonl:3: not valid JSON .*; the file's last line, with no line break after it, looks cut short/);
    // A whole last line without a line break is a row; a bad line that a line break ends is refused, as before.
    const heard: number[] = [];
    expect([...readResultsFile(writeIn(dir, "unended.jsonl", `${line(1)}\n${line(2)}`), 3, (n) => heard.push(n))].map((r) => r.row)).toEqual([1, 2]);
    const ended = writeIn(dir, "ended.jsonl", `${line(1)}\n${line(2).slice(0, 30)}\n`);
    expect(() => [...readResultsFile(ended, 7, (n) => heard.push(n))]).toThrow(/ended\.jsonl:2: not valid JSON .*simeval run --out$/);
    expect(heard).toEqual([]);
    // Nothing but a line cut short: no rows.
    expect(() => [...readResultsFile(writeIn(dir, "only-cut.jsonl", line(1).slice(0, 9)), 4, () => {})]).toThrow(/only-cut\.jsonl: no result rows \(its one line that is not blank, line 1, is cut short: not valid JSON/);
  });

  it("refuses a result whose score is not a finite number or null, or whose type is no registered evaluator, naming file, line and evaluator", async () => {
    const ok = '{"row":1,"results":{"x":{"type":"levenshtein","score":0.5}}}\n';
    const bad = async (name: string, result: string) => failure(writeIn(dir, name, `${ok}{"row":2,"results":{"x":{"type":"levenshtein","score":1},"y":${result}}}\n`));
    for (const [result, received] of [
      ['{"type":"levenshtein","score":"high"}', 'string "high"'],
      ['{"type":"levenshtein"}', "nothing"],
      ['{"type":"levenshtein","score":1e999}', "number Infinity"],
      ['{"type":"levenshtein","score":[1]}', "array of 1"],
      ['{"type":"levenshtein_distance","score":1.7e308}', "number 1.7e+308"],
      ['{"type":"levenshtein_distance","score":-9007199254740994}', "number -9007199254740994"],
    ]) {
      const e = await bad("score.jsonl", result as string);
      expect(e).toMatchObject({ code: "USAGE" });
      expect(e.message).toContain(`score.jsonl:2: evaluator "y": "score" must be a finite number or null, from -2^53 to 2^53 (no evaluator scores beyond; larger ones overflow the comparison's sums), received ${received}`);
    }
    for (const score of [2 ** 53, 0]) {
      expect(all(writeIn(dir, "bound.jsonl", `{"row":1,"results":{"x":{"type":"levenshtein_distance","score":${score}}}}\n`))).toHaveLength(1);
    }
    // A score its type cannot give (a hand-edited or foreign file): compare would judge it as one.
    for (const [result, range, received] of [
      ['{"type":"levenshtein_distance","score":-1}', "a whole number from 0 up", "number -1"],
      ['{"type":"levenshtein_distance","score":2.5}', "a whole number from 0 up", "number 2.5"],
      ['{"type":"levenshtein","score":1.5}', "from 0 to 1", "number 1.5"],
      ['{"type":"exact_match","score":0.5}', "a whole number from 0 to 1", "number 0.5"],
      ['{"type":"semantic_similarity","score":-1.01}', "from -1 to 1", "number -1.01"],
    ] as const) {
      const e = await bad("range.jsonl", result);
      expect(e.message).toContain(`range.jsonl:2: evaluator "y": "score" must be one that type ${JSON.parse(result).type as string} can give, ${range}, received ${received}`);
    }
    for (const [type, score] of [["semantic_similarity", -0.4], ["levenshtein_distance", 12], ["exact_match", 0], ["jaccard_similarity", 1]] as const) {
      expect(all(writeIn(dir, "in-range.jsonl", `{"row":1,"results":{"x":{"type":"${type}","score":${score}}}}\n`))).toHaveLength(1);
    }
    const type = await bad("type.jsonl", '{"type":"nope","score":0.5}');
    expect(type).toMatchObject({ code: "USAGE" });
    expect(type.message).toContain('type.jsonl:2: evaluator "y": "type" must be one of the registered evaluator types (exact_match, levenshtein,');
    expect(type.message).toContain('received string "nope"');
    expect((await bad("untyped.jsonl", '{"score":0.5}')).message).toContain('"type" must be one of the registered evaluator types');
    expect((await bad("scalar.jsonl", "0.5")).message).toContain('scalar.jsonl:2: evaluator "y": expected a result object');
    expect((await bad("error.jsonl", '{"error":"oops"}')).message).toContain('error.jsonl:2: evaluator "y": "error" must be an object');
  });

  it("takes errors as simeval run --out writes them: an evaluator's error, a row that could not be read, with or without results", () => {
    const lines = [
      '{"row":1,"id":"a","results":{"x":{"error":{"code":"INPUT_INVALID","message":"JSONPath matched 2 values"}},"y":{"type":"levenshtein_distance","score":null,"skipped":true}}}',
      '{"row":2,"id":null,"line":2,"results":{},"error":{"code":"DATASET_ROW_INVALID","message":"line 2: not valid JSON"}}',
      '{"row":3,"id":null,"line":3,"error":{"code":"DATASET_ROW_INVALID","message":"line 3: not valid JSON"}}',
    ];
    const rows = all(writeIn(dir, "errors.jsonl", lines.join("\n")));
    expect(rows.map((r) => r.results)).toEqual([JSON.parse(lines[0] as string).results, {}, {}]);
  });
});
