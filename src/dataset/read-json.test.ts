import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { LINE_BREAK } from "../json-error-place.js";
import { CHUNK_BYTES } from "./read-bytes.js";
import { parseArrayElement, readJsonArray, readJsonArrayBatches } from "./read-json.js";
import type { DatasetItem, UnparsedRow } from "./rows.js";
import { brief, collect, datasetFailure, tempFiles } from "./test-support.js";

const { file, dir } = tempFiles("simeval-json-");

const failure = (path: string): Promise<EvalError> => datasetFailure(readJsonArray(path));

describe("readJsonArray", () => {
  it("yields each element with the line its first token is on", async () => {
    const text = '[\n  {"id": 1, "tags": ["a", "b"]},\n  {\n    "id": 2,\n    "nested": {"k": [1, {"z": null}]}\n  },\n\n  {"id": 3}]\n';
    expect(brief(await collect(readJsonArray(await file("a.json", text))))).toEqual([
      [1, 2, { id: 1, tags: ["a", "b"] }],
      [2, 3, { id: 2, nested: { k: [1, { z: null }] } }],
      [3, 8, { id: 3 }],
    ]);
  });

  it("an element whose id is read as Infinity (1e400), which JSON would record as null, is a row error naming its line", async () => {
    const items = await collect(readJsonArray(await file("infinite-id.json", '[{"id": "a"},\n {"id": -1e400},\n {"id": 3}]')));
    expect(items.map((i) => ("error" in i ? i.error.message : i.record["id"]))).toEqual([
      "a",
      'line 2: id is the number -Infinity, which JSON writes as null (a number beyond ±1.8e308, such as 1e400, reads as Infinity), so the row would be recorded without its id; expected the id as a string ("1e400") or a finite number',
      3,
    ]);
  });

  it("handles a BOM, CRLF, a one-line array and values with escaped newlines", async () => {
    const text = '\uFEFF[{"a":"x\\ny"},\r\n{"a":"é"}, {"a":3}]';
    expect(brief(await collect(readJsonArray(await file("crlf.json", text))))).toEqual([
      [1, 1, { a: "x\ny" }],
      [2, 2, { a: "é" }],
      [3, 2, { a: 3 }],
    ]);
  });

  it("an element that is not an object is a row error; the rows after it still come", async () => {
    const text = '[\n{"id":1},\n[1,2],\n"s",\n7,\nnull,\n{"id":6}\n]';
    expect(brief(await collect(readJsonArray(await file("kinds.json", text))))).toEqual([
      [1, 2, { id: 1 }],
      [2, 3, "line 3: expected a row object in the array, found an array"],
      [3, 4, "line 4: expected a row object in the array, found a string"],
      [4, 5, "line 5: expected a row object in the array, found a number"],
      [5, 6, "line 6: expected a row object in the array, found null"],
      [6, 7, { id: 6 }],
    ]);
  });

  it("an element JSON.parse refuses is a row error naming the line and byte of the fault; the rows after it still come", async () => {
    const text = '[\n{"id":1},\n{"id": 3,, "x": 1},\n{"id":3,\n  "a": 1,\n}, {"é": 1, "b" 2},\n{"id":5}\n]';
    const items = await collect(readJsonArray(await file("syntax.json", text)));
    expect(brief(items)).toEqual([
      [1, 2, { id: 1 }],
      [2, 3, "line 3: not valid JSON (Expected double-quoted property name at byte 10 of the line); expected a JSON array of row objects"],
      // A fault on a later line of the element is placed on its own line, the trailing comma named.
      [3, 4, "line 5: not valid JSON (Expected double-quoted property name at byte 9 of the line (a trailing comma: JSON allows none before ] or })); expected a JSON array of row objects"],
      // The element starts at byte 4 of its line; é takes two bytes.
      [4, 6, "line 6: not valid JSON (Unexpected number at byte 18 of the line); expected a JSON array of row objects"],
      [5, 7, { id: 5 }],
    ]);
    expect(items.filter((i) => "error" in i).map((i) => "error" in i && i.error.code)).toEqual(["DATASET_ROW_INVALID", "DATASET_ROW_INVALID", "DATASET_ROW_INVALID"]);
  });

  const STOPPED = ". Reading stopped here: the rest of the file is not in the run";
  it.each([
    ["a bad character", '[{"a":1},\n {"a":2} x', 2, `line 2: not valid JSON (unexpected "x" at byte 10 of the line); expected a JSON array of row objects${STOPPED}`, "DATASET_READ_STOPPED"],
    // Whatever follows the closing ] may be rows (a second array) that the run would silently leave out.
    ["data after the closing ]", '[{"a":1},\n{"a":2}]\n[', 2, `line 3: not valid JSON (unexpected "[" after the array's closing ] at byte 1 of the line); expected a JSON array of row objects${STOPPED}`, "DATASET_READ_STOPPED"],
    ["a bad character after the closing ]", '[{"a":1},\n{"a":2}] x', 2, `line 2: not valid JSON (unexpected "x" after the array's closing ] at byte 10 of the line); expected a JSON array of row objects${STOPPED}`, "DATASET_READ_STOPPED"],
    ["a string after the closing ]", '[{"a":1},\n{"a":2}]\n"s"', 2, `line 3: not valid JSON (unexpected string "s" after the array's closing ] at byte 1 of the line); expected a JSON array of row objects${STOPPED}`, "DATASET_READ_STOPPED"],
    // Brackets that do not pair up leave the next element's start unknown.
    ["a bracket closed by the other kind", '[{"a":1},\n{"a":2},\n{"a":[3}}, {"a":4}]', 2, `line 3: not valid JSON (unexpected "}" at byte 8 of the line; a ] is missing before it); expected a JSON array of row objects${STOPPED}`, "DATASET_READ_STOPPED"],
    ["a ] closing the array inside a row", '[{"a":1},\n{"a":2},\n{"a":3]', 2, `line 3: not valid JSON (unexpected "]" at byte 7 of the line; a } is missing before it); expected a JSON array of row objects${STOPPED}`, "DATASET_READ_STOPPED"],
    // A } left out far above: the element's first line is where to look.
    ["a } left out", '[{"a":1},\n{"a":2},\n{"a":3,\n{"b":4}\n]', 2, `line 5: not valid JSON (unexpected "]" at byte 1 of the line; a } is missing before it, to close the element that starts on line 3); expected a JSON array of row objects${STOPPED}`, "DATASET_READ_STOPPED"],
    ["an element cut short over lines", '[{"a":1},\n{"a":2},\n{"a":\n[3,\n', 2, "line 4: the file ends before the array's closing ], and the element that starts on line 3 is not closed (was it cut short?); expected a JSON array of row objects", "DATASET_READ_STOPPED"],
    ["no closing ]", '[{"a":1},\n{"a":2}\n', 2, "line 2: the file ends before the array's closing ] (was it cut short?); expected a JSON array of row objects", "DATASET_READ_STOPPED"],
    // Ended between elements, lines below the last: no element is left open, whatever line the last began on.
    ["no closing ] after a comma and blank lines", '[{"a":1},\n{"a":2},\n\n\n', 2, "line 4: the file ends before the array's closing ] (was it cut short?); expected a JSON array of row objects", "DATASET_READ_STOPPED"],
    ["a cut-off string", '[{"a":1},\n{"a":"unterminated', 1, "line 2: the file ends before the array's closing ] (was it cut short?); expected a JSON array of row objects", "DATASET_READ_STOPPED"],
    // Most often a string left unclosed: the quotes after it would pair up wrongly.
    ["a raw line break in a string", '[{"a":1},\n{"a":"one\ntwo"}]', 1, `line 2: not valid JSON (unexpected "\\n" at byte 10 of the line${LINE_BREAK}); expected a JSON array of row objects${STOPPED}`, "DATASET_READ_STOPPED"],
  ])("%s → a last row error after the rows before it", async (_name, text, kept, message, code) => {
    const items = await collect(readJsonArray(await file("tail.json", text)));
    expect(brief(items.slice(0, -1))).toEqual([
      [1, 1, { a: 1 }],
      [2, 2, { a: 2 }],
    ].slice(0, kept));
    const last = items.at(-1)!;
    expect("error" in last && last.error).toEqual({ code, message });
    expect(last.row).toBe(kept + 1);
  });

  it.each([
    ["a first row cut short", '[\n{"a":1', "line 2: the file ends before the array's closing ] (was it cut short?); expected a JSON array of row objects"],
    ["a bad character before the first row", '[\n x {"a":1}]', `line 2: not valid JSON (unexpected "x" at byte 2 of the line); expected a JSON array of row objects${STOPPED}`],
  ])("%s: the stop is the one item, not also an empty array", async (_name, text, message) => {
    // Reading stopped before any row: the file is not empty, only unreadable from row 1 on.
    const items = await collect(readJsonArray(await file("stopped-first.json", text)));
    expect(items.map((i) => [i.row, "error" in i ? i.error : i.record])).toEqual([[1, { code: "DATASET_READ_STOPPED", message }]]);
  });

  it.each([
    ['[1"a"]', 'unexpected string "a" at byte 3'],
    ["[1[2]]", 'unexpected "[" at byte 3'],
    ['[true{"a":1}]', 'unexpected "{" at byte 6'],
  ])("%s: a quote or an opening bracket ends a bare value (a number, true…), and cannot follow it", async (text, fault) => {
    const items = await collect(readJsonArray(await file("bare.json", text)));
    expect(items.map((i) => ("error" in i ? [i.row, i.error.code, i.error.message] : i))).toEqual([
      [1, "DATASET_ROW_INVALID", `line 1: expected a row object in the array, found ${text.startsWith("[t") ? "a boolean" : "a number"}`],
      [2, "DATASET_READ_STOPPED", `line 1: not valid JSON (${fault} of the line); expected a JSON array of row objects${STOPPED}`],
    ]);
  });

  it("a second array after the first: its rows are not read, and reading stops at its [ (line 2) after row 1", async () => {
    const text = '[{"output":"a","expected":"a"}]\n[{"output":"b","expected":"b"}]\n';
    const items = await collect(readJsonArray(await file("two-arrays.json", text)));
    expect(items.map((i) => [i.row, i.line, "record" in i ? i.record : i.error.code])).toEqual([
      [1, 1, { output: "a", expected: "a" }],
      [2, 2, "DATASET_READ_STOPPED"],
    ]);
  });

  it("a trailing comma after the last element is not a row: every row is read, and it is reported once with its line and byte", async () => {
    const warnings: string[] = [];
    const text = '[{"output":"a","expected":"a"},{"output":"b","expected":"b"},]';
    const items = await collect(readJsonArray(await file("trailing.json", text), undefined, (w) => warnings.push(w)));
    expect(brief(items)).toEqual([
      [1, 1, { output: "a", expected: "a" }],
      [2, 1, { output: "b", expected: "b" }],
    ]);
    expect(warnings).toEqual([
      "line 1: not valid JSON (a trailing comma after the last element, at byte 61 of the line; JSON allows no comma before ]): every row was read, and the comma is ignored",
    ]);
    // The comma's line, the one to fix, not the ]'s; and the ] still closes the array: what follows it is checked.
    const later: string[] = [];
    const after = await collect(readJsonArray(await file("trailing2.json", '[{"a":1},\n{"a":2},\n] x'), undefined, (w) => later.push(w)));
    expect(later).toEqual([expect.stringMatching(/^line 2: not valid JSON \(a trailing comma after the last element, at byte 8 of the line/)]);
    expect(brief(after)).toEqual([
      [1, 1, { a: 1 }],
      [2, 2, { a: 2 }],
      [3, 3, `line 3: not valid JSON (unexpected "x" after the array's closing ] at byte 3 of the line); expected a JSON array of row objects${STOPPED}`],
    ]);
  });

  it.each([
    ["two commas", '[{"a":1},,{"a":2}]', 'line 1: not valid JSON (unexpected "," at byte 10 of the line); expected a JSON array of row objects'],
    ["two commas before the ]", '[{"a":1},,]', 'line 1: not valid JSON (unexpected "," at byte 10 of the line); expected a JSON array of row objects'],
    ["a comma before the first element", '[,{"a":1}]', 'line 1: not valid JSON (unexpected "," at byte 2 of the line); expected a JSON array of row objects'],
  ])("%s is still a syntax error that stops the read", async (_name, text, message) => {
    const warnings: string[] = [];
    const items = await collect(readJsonArray(await file("commas.json", text), undefined, (w) => warnings.push(w)));
    expect(warnings).toEqual([]);
    const last = items.at(-1)!;
    expect("error" in last && last.error).toEqual({ code: "DATASET_READ_STOPPED", message: `${message}${STOPPED}` });
  });

  it("keeps a U+FEFF starting a string or a key, as JSON.parse (and so JSONL) does: the parser's decoder dropped it", async () => {
    const long = "x".repeat(64 * 1024); // the parser decodes a long string 64 KiB at a time
    const rows = [{ output: "\uFEFFa", "\uFEFFexpected": "\uFEFF" }, { output: "\n\uFEFFafter an escape", expected: `${long}\uFEFF${long}` }];
    const items = await collect(readJsonArray(await file("bom-values.json", JSON.stringify(rows))));
    expect(items.map((i) => ("record" in i ? i.record : i.error.message))).toEqual(rows);
    // Escaped, too.
    const escaped = await collect(readJsonArray(await file("bom-escaped.json", '[{"output":"\\ufeffa"}]')));
    expect(escaped.map((i) => ("record" in i ? i.record : i.error.message))).toEqual([{ output: "\uFEFFa" }]);
  });

  it("reads every row as JSON.parse reads it, however it is written", async () => {
    const text = fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("\uFEFF", "\uFEFFa", "e\u0301", "👨‍👩‍👧‍👦", "\u2028", "\ud800", "\u0000"));
    const value = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }));
    const row = fc.dictionary(text, value, { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), fc.boolean(), async (rows, pretty) => {
        const json = JSON.stringify(rows, null, pretty ? 2 : undefined);
        const items = await collect(readJsonArray(await file("property.json", json)));
        expect(items.map((i) => ("record" in i ? i.record : i.error.message))).toEqual(JSON.parse(json));
      }),
      { numRuns: 200 },
    );
  });

  it("whitespace after the closing ] is fine", async () => {
    expect(brief(await collect(readJsonArray(await file("ws.json", '[{"a":1}]\n\r\n \t\n'))))).toEqual([[1, 1, { a: 1 }]]);
  });

  it("invalid UTF-8 inside an element makes that row an error; the parse goes on", async () => {
    const bytes = Buffer.concat([Buffer.from('[{"a":"ok"},\n{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"},\n{"a":"ü"}]')]);
    expect(brief(await collect(readJsonArray(await file("utf8.json", bytes))))).toEqual([
      [1, 1, { a: "ok" }],
      [2, 2, "line 2: not valid UTF-8 at byte 7 of the line; expected UTF-8 text"],
      [3, 3, { a: "ü" }],
    ]);
  });

  it("reads a 50 MB value", async () => {
    const big = "x".repeat(50 * 1024 * 1024);
    const items = await collect(readJsonArray(await file("big.json", `[{"id":1},\n{"id":2,"input":"${big}"},\n{"id":3}]`)));
    expect(items.map((i) => [i.row, i.line, "record" in i && String(i.record["input"] ?? "").length])).toEqual([
      [1, 1, 0],
      [2, 2, big.length],
      [3, 3, 0],
    ]);
  });

  it("keeps line numbers right across reads", async () => {
    const n = Math.ceil((2 * CHUNK_BYTES) / 50_000);
    const rows = Array.from({ length: n }, (_, i) => `  ${JSON.stringify({ id: i, pad: "é".repeat(25_000) })}`);
    const items = await collect(readJsonArray(await file("straddle.json", `[\n${rows.join(",\n")}\n]`)));
    expect(items.map((i) => ("record" in i ? [i.row, i.line, i.record["id"]] : i.error.message))).toEqual(rows.map((_, i) => [i + 1, i + 2, i]));
  });

  it("places a syntax error on a later line of an element from that line's start (the last line break before it)", () => {
    expect(parseArrayElement({ row: 4, line: 7, json: '{"a":1,\n "b":2,\n  "c" 3}', byte: 5 })).toEqual({
      row: 4,
      line: 7,
      error: { code: "DATASET_ROW_INVALID", message: "line 9: not valid JSON (Unexpected number at byte 7 of the line); expected a JSON array of row objects" },
    });
  });

  it("hands out unparsed elements with the bytes before each on its line, for the scoring threads to parse", async () => {
    const path = await file("unparsed.json", '[{"a":1}, {"é":2},\n  {"b" 3}]');
    const batches: (DatasetItem | UnparsedRow)[] = [];
    for await (const batch of readJsonArrayBatches(path, undefined, undefined, true)) batches.push(...batch);
    expect(batches).toEqual([
      { row: 1, line: 1, json: '{"a":1}', byte: 1 },
      { row: 2, line: 1, json: '{"é":2}', byte: 10 },
      { row: 3, line: 2, json: '{"b" 3}', byte: 2 },
    ]);
    expect(batches.map((i) => ("json" in i ? parseArrayElement(i) : i))).toEqual(await collect(readJsonArray(path)));
  });

  it.each([
    ["an object", '{"rows": []}', "expected a JSON array of row objects at the top level, found an object (if the file holds one JSON object per line, name it .jsonl; if the rows are an array under a key, take it out: jq '.KEY' FILE > rows.json)"],
    ["a string", '"hello"', "expected a JSON array of row objects at the top level, found a string"],
    ["a number", "12", "expected a JSON array of row objects at the top level, found a number"],
    ["not JSON", "id,input\n1,2\n", 'not valid JSON at line 1 (unexpected "i"); expected a JSON array of row objects'],
    ["an empty array", "[ ]", "the array is empty; expected at least one row object"],
    ["whitespace", " \n \n", "holds only whitespace; expected a JSON array of row objects"],
    ["an empty file", "", "the file is empty; expected a JSON array of row objects"],
  ])("top level %s → DATASET_INVALID", async (_name, text, message) => {
    const path = await file("top.json", text);
    expect((await failure(path)).message).toBe(`${path}: ${message}`);
  });

  it("a missing file → DATASET_INVALID", async () => {
    expect((await failure(join(dir(), "nope.json"))).message).toBe(`${join(dir(), "nope.json")}: no such file`);
  });

  it("stops with the signal's reason when aborted", async () => {
    const path = await file("many.json", `[${Array.from({ length: 500 }, (_, i) => `{"id":${i}}`).join(",\n")}]`);
    const controller = new AbortController();
    let seen = 0;
    const err = await (async () => {
      for await (const item of readJsonArray(path, controller.signal)) {
        seen = item.row;
        if (item.row === 3) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toBe(3);
    expect(err).toBe(controller.signal.reason);
  });
});
