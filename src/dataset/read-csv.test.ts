import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { CHUNK_BYTES } from "./read-bytes.js";
import { readCsv, readCsvBatches } from "./read-csv.js";
import { brief, collect, datasetFailure, tempFiles } from "./test-support.js";

const { file, dir } = tempFiles("simeval-csv-");

const failure = (path: string): Promise<EvalError> => datasetFailure(readCsv(path));

describe("readCsv", () => {
  it("the header names the keys; values are strings, an empty cell (quoted or not) null; header names are trimmed", async () => {
    const path = await file("a.csv", 'id, input ,expected\n1,What is 2+2?,4\n2,,  spaced  \n3,"",\n');
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 2, { id: "1", input: "What is 2+2?", expected: "4" }],
      [2, 3, { id: "2", input: null, expected: "  spaced  " }],
      [3, 4, { id: "3", input: null, expected: null }],
    ]);
  });

  it("a quoted value may hold commas, quotes and line breaks; the row's line is where it starts", async () => {
    const path = await file("quoted.csv", 'id,text\r\n1,"a, b"\r\n2,"say ""hi"""\r\n3,"one\r\ntwo\r\nthree"\r\n4,after\r\n');
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 2, { id: "1", text: "a, b" }],
      [2, 3, { id: "2", text: 'say "hi"' }],
      [3, 4, { id: "3", text: "one\r\ntwo\r\nthree" }],
      [4, 7, { id: "4", text: "after" }],
    ]);
  });

  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["CR-only (old Mac)", "\r"],
  ])("a line break inside a quoted value counts as a line for the rows after it, in a %s file", async (_, eol) => {
    const text = ["id,text", '1,"one', 'two"', "2,x,y", "", '3,"a""b', "c", 'd"', "4,x,y,z", ""].join(eol);
    expect(brief(await collect(readCsv(await file("eol.csv", text))))).toEqual([
      [1, 2, { id: "1", text: `one${eol}two` }],
      [2, 4, 'line 4: 3 fields, but the header has 2; expected 2 fields separated by "," (quote values that contain one)'],
      [3, 6, { id: "3", text: `a"b${eol}c${eol}d` }],
      [4, 9, 'line 9: 4 fields, but the header has 2; expected 2 fields separated by "," (quote values that contain one)'],
    ]);
  });

  it("skips a BOM, blank lines and space-only lines; reads a last line without a newline", async () => {
    const path = await file("bom.csv", "\uFEFFid,x\n\n1,a\n   \n\n2,b");
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 3, { id: "1", x: "a" }],
      [2, 6, { id: "2", x: "b" }],
    ]);
  });

  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
  ])("in a file of one column, a quoted empty or blank value is a row, as Python's csv module writes an empty value; blank lines are not (%s)", async (_, eol) => {
    // Dropped as blank lines, these rows moved every later row's number: row 4 became row 2.
    const path = await file("one-column.csv", ["output", "a", '""', "", '"  "', "   ", "b", ""].join(eol));
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 2, { output: "a" }],
      [2, 3, { output: null }],
      [3, 5, { output: "  " }],
      [4, 7, { output: "b" }],
    ]);
    // A TSV of one column, too.
    const tsv = await file("one-column.tsv", 'expected\n""\nx\n');
    expect(brief(await collect(readCsv(tsv, undefined, "\t")))).toEqual([
      [1, 2, { expected: null }],
      [2, 3, { expected: "x" }],
    ]);
  });

  it("a ragged row is a row error with both counts, and the rows after it still come", async () => {
    const path = await file("ragged.csv", "a,b,c,d\n1,2,3,4\n1,2,3\n1\n1,2,3,4,5\n5,6,7,8\n");
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 2, { a: "1", b: "2", c: "3", d: "4" }],
      [2, 3, 'line 3: 3 fields, but the header has 4; expected 4 fields separated by "," (quote values that contain one)'],
      [3, 4, 'line 4: 1 field, but the header has 4; expected 4 fields separated by "," (quote values that contain one)'],
      [4, 5, 'line 5: 5 fields, but the header has 4; expected 4 fields separated by "," (quote values that contain one)'],
      [5, 6, { a: "5", b: "6", c: "7", d: "8" }],
    ]);
  });

  it("a metadata column holding a JSON object becomes that object; other text stays text", async () => {
    const path = await file(
      "meta.csv",
      'id,metadata,notes\n1,"{""expectedOutput"": ""Paris""}","{""a"":1}"\n2,plain words,x\n3,[1],x\n4,"{oops",x\n5,,x\n',
    );
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 2, { id: "1", metadata: { expectedOutput: "Paris" }, notes: '{"a":1}' }],
      [2, 3, { id: "2", metadata: "plain words", notes: "x" }],
      [3, 4, { id: "3", metadata: "[1]", notes: "x" }],
      [4, 5, expect.stringMatching(/^line 5: column "metadata" starts with "\{" but is not valid JSON \(.+\); expected a JSON object or plain text$/)],
      [5, 6, { id: "5", metadata: null, notes: "x" }],
    ]);
  });

  it("invalid UTF-8 in a value is a row error naming the column", async () => {
    const bytes = Buffer.concat([Buffer.from("id,text\n1,ok\n2,ab"), Buffer.from([0xe2, 0x28, 0xa1]), Buffer.from("\n3,é\n")]);
    expect(brief(await collect(readCsv(await file("utf8.csv", bytes))))).toEqual([
      [1, 2, { id: "1", text: "ok" }],
      [2, 3, 'line 3: column "text" is not valid UTF-8 (at character 3 of the value); expected UTF-8 text'],
      [3, 4, { id: "3", text: "é" }],
    ]);
  });

  it("a real U+FFFD in the text is text, also in a file with invalid bytes elsewhere", async () => {
    const bytes = Buffer.concat([Buffer.from("id,text\n1,a\uFFFDb\n2,"), Buffer.from([0xff]), Buffer.from("\n3,c\uFFFD\n")]);
    expect(brief(await collect(readCsv(await file("fffd.csv", bytes))))).toEqual([
      [1, 2, { id: "1", text: "a\uFFFDb" }],
      [2, 3, 'line 3: column "text" is not valid UTF-8 (at character 1 of the value); expected UTF-8 text'],
      [3, 4, { id: "3", text: "c\uFFFD" }],
    ]);
  });

  it("a real U+FFFF in the text is text, also in a file with invalid bytes, beside them, and across a read", async () => {
    // Found by fuzzing: U+FFFF, which stood in for an invalid byte, made a valid row after one with invalid bytes an error.
    const bytes = Buffer.concat([Buffer.from("id,text\n1,caf"), Buffer.from([0xe9]), Buffer.from("\n2,\uFFFF\n3,\uFFFF"), Buffer.from([0xc0, 0x80]), Buffer.from("\uFFFF\n4,\uFFFF\uFFFE\n")]);
    expect(brief(await collect(readCsv(await file("ffff.csv", bytes))))).toEqual([
      [1, 2, 'line 2: column "text" is not valid UTF-8 (at character 4 of the value); expected UTF-8 text'],
      [2, 3, { id: "2", text: "\uFFFF" }],
      [3, 4, 'line 4: column "text" is not valid UTF-8 (at character 2 of the value); expected UTF-8 text'],
      [4, 5, { id: "4", text: "\uFFFF\uFFFE" }],
    ]);
    const head = "id,text\n1,";
    for (const cut of [1, 2]) {
      const padding = "a".repeat(CHUNK_BYTES - head.length - cut);
      const split = Buffer.concat([Buffer.from(`${head}${padding}\uFFFF\n2,`), Buffer.from([0xff]), Buffer.from("\n")]);
      expect(brief(await collect(readCsv(await file("ffff-split.csv", split))))[0]).toEqual([1, 2, { id: "1", text: `${padding}\uFFFF` }]);
    }
  });

  it("a U+FFFF in a file with no invalid bytes is one U+FFFF, not the two it is doubled to while parsing", async () => {
    const path = await file("ffff-only.csv", "id,text\n1,a\uFFFFb\n2,\uFFFF\uFFFF\n");
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 2, { id: "1", text: "a\uFFFFb" }],
      [2, 3, { id: "2", text: "\uFFFF\uFFFF" }],
    ]);
  });

  it("a line of only tabs and spaces is blank, not a row of one field", async () => {
    const path = await file("tab-line.csv", "id,x\n1,a\n\t\n \t \n2,b\n");
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 2, { id: "1", x: "a" }],
      [2, 5, { id: "2", x: "b" }],
    ]);
  });

  it("a metadata value with spaces before its \"{\" is parsed as the JSON object it holds", async () => {
    const path = await file("meta-space.csv", 'id,metadata\n1,"  {""a"": 1}"\n');
    expect(brief(await collect(readCsv(path)))).toEqual([[1, 2, { id: "1", metadata: { a: 1 } }]]);
  });

  it("a first line sep=| makes | the delimiter", async () => {
    const path = await file("sep-pipe.csv", "sep=|\nid|output\n1|a,b;c\n");
    expect(brief(await collect(readCsv(path)))).toEqual([[1, 3, { id: "1", output: "a,b;c" }]]);
  });

  it("invalid UTF-8 in the header → DATASET_INVALID, saying how to convert a file Excel saved in Windows-1252", async () => {
    const path = await file("badhead.csv", Buffer.concat([Buffer.from("id,te"), Buffer.from([0xc3]), Buffer.from("\n1,2\n")]));
    expect((await failure(path)).message).toBe(
      `${path}: the header's column 2 is not valid UTF-8; expected UTF-8 text. The file was probably saved in another encoding (Windows-1252 or Latin-1, as older Excel versions save CSV); convert it to UTF-8, e.g. iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8, or save it again from the spreadsheet as CSV UTF-8`,
    );
  });

  it("a quote that is never closed is a last row error at the line where its row starts, saying the rest is not read", async () => {
    const path = await file("open.csv", 'id,text\n1,fine\n\n2,"never closed\n3,swallowed\n');
    const items = await collect(readCsv(path));
    expect(brief(items)).toEqual([
      [1, 2, { id: "1", text: "fine" }],
      [2, 4, 'line 4: a quoted value opened in this row is never closed; expected a closing " (write "" for a quote inside a quoted value). Every later line was read into that value, so the rest of the file is not in the run'],
    ]);
    expect("error" in items[1]! && items[1].error.code).toBe("DATASET_READ_STOPPED");
  });

  it("a stray quote inside an unquoted value is text", async () => {
    const path = await file("stray.csv", 'id,text\n1,a 5" screen\n');
    expect(brief(await collect(readCsv(path)))).toEqual([[1, 2, { id: "1", text: 'a 5" screen' }]]);
  });

  it("a column named __proto__ is a plain key", async () => {
    const items = await collect(readCsv(await file("proto.csv", "__proto__,x\nevil,1\n")));
    const first = items[0]!;
    expect("record" in first && Object.getPrototypeOf(first.record)).toBe(Object.prototype);
    expect("record" in first && Object.keys(first.record)).toEqual(["__proto__", "x"]);
  });

  it("reads semicolon-separated CSV (as spreadsheets write it where the comma is the decimal mark)", async () => {
    const path = await file("semi.csv", '\uFEFF\nid;output;expected\n1;"a;b";3,5\n2;x\n');
    const rows = await collect(readCsv(path));
    expect(brief(rows.slice(0, 1))).toEqual([[1, 3, { id: "1", output: "a;b", expected: "3,5" }]]);
    expect(rows[1]).toMatchObject({ row: 2, error: { message: 'line 4: 2 fields, but the header has 3; expected 3 fields separated by ";" (quote values that contain one)' } });
    // A header with a comma is read with commas, whatever semicolons it holds.
    const comma = await file("comma.csv", "id,note;x\n1,a;b\n");
    expect(brief(await collect(readCsv(comma)))).toEqual([[1, 2, { id: "1", "note;x": "a;b" }]]);
  });

  it("reads with the separator the header holds most of outside quotes: a ';' header whose names have commas is read with ';'", async () => {
    // Excel's "CSV UTF-8" in a European locale: the names are not quoted for a comma, which is not the separator.
    const path = await file("semi-comma.csv", '\uFEFFid;output;Notes (internal, do not share)\r\n1;"a;b";3,5\r\n');
    expect(brief(await collect(readCsv(path)))).toEqual([[1, 2, { id: "1", output: "a;b", "Notes (internal, do not share)": "3,5" }]]);
    // A comma inside a quoted name is not counted.
    const quoted = await file("semi-quoted.csv", 'id;"a,b,c"\n1;x\n');
    expect(brief(await collect(readCsv(quoted)))).toEqual([[1, 2, { id: "1", "a,b,c": "x" }]]);
    // Tabs outnumbering commas, likewise.
    const tabs = await file("tab-comma.csv", "id\toutput\tnote, more\n1\tx\ty, z\n");
    expect(brief(await collect(readCsv(tabs)))).toEqual([[1, 2, { id: "1", output: "x", "note, more": "y, z" }]]);
    // A comma header whose names have more semicolons outside quotes would need a first line sep=, (the ties stay ",").
    const tie = await file("tie.csv", "id,a;b\n1,x;y\n");
    expect(brief(await collect(readCsv(tie)))).toEqual([[1, 2, { id: "1", "a;b": "x;y" }]]);
  });

  it("reads a tab-separated .csv with tabs (as spreadsheets save Text (Tab delimited)), tabs before semicolons", async () => {
    const path = await file("tabs.csv", '\uFEFFid\toutput\texpected\r\n1\t"a\tb"\t3,5; 4\r\n2\tx\r\n');
    const rows = await collect(readCsv(path));
    expect(brief(rows.slice(0, 1))).toEqual([[1, 2, { id: "1", output: "a\tb", expected: "3,5; 4" }]]);
    expect(rows[1]).toMatchObject({ row: 2, error: { message: 'line 3: 2 fields, but the header has 3; expected 3 fields separated by "\\t" (quote values that contain one)' } });
    const both = await file("both.csv", "id\tnote;x\n1\ta;b\n");
    expect(brief(await collect(readCsv(both)))).toEqual([[1, 2, { id: "1", "note;x": "a;b" }]]);
    // A header with a comma is read with commas, whatever tabs it holds.
    const comma = await file("comma-tab.csv", "id,note\tx\n1,a\tb\n");
    expect(brief(await collect(readCsv(comma)))).toEqual([[1, 2, { id: "1", "note\tx": "a\tb" }]]);
  });

  it("a first line sep=X (Excel's delimiter line) sets the delimiter and is not the header; line numbers count it", async () => {
    const path = await file("sep.csv", '\uFEFFsep=;\r\nid;output\r\n1;"a;b"\r\n2;x;y\r\n');
    const rows = await collect(readCsv(path));
    expect(brief(rows.slice(0, 1))).toEqual([[1, 3, { id: "1", output: "a;b" }]]);
    expect(rows[1]).toMatchObject({ row: 2, error: { message: 'line 4: 3 fields, but the header has 2; expected 2 fields separated by ";" (quote values that contain one)' } });
    const comma = await file("sep-comma.tsv", "sep=,\nid,output\n1,a\tb\n");
    expect(brief(await collect(readCsv(comma, undefined, "\t")))).toEqual([[1, 3, { id: "1", output: "a\tb" }]]);
    const tab = await file("sep-tab.csv", "sep=\t\nid\toutput\n1\ta,b\n");
    expect(brief(await collect(readCsv(tab)))).toEqual([[1, 3, { id: "1", output: "a,b" }]]);
    // Only a line of exactly sep= and one delimiter.
    const column = await file("sep-column.csv", "sep=x,output\n1,a\n");
    expect(brief(await collect(readCsv(column)))).toEqual([[1, 2, { "sep=x": "1", output: "a" }]]);
  });

  it("in a CR-only file (old Mac), the header is the first line to its \\r: the delimiter, a sep= line and JSON are found in it", async () => {
    const tabs = await file("tabs-cr.csv", "\uFEFFid\toutput\r1\ta,b\r2\tc;d\r");
    expect(brief(await collect(readCsv(tabs)))).toEqual([
      [1, 2, { id: "1", output: "a,b" }],
      [2, 3, { id: "2", output: "c;d" }],
    ]);
    const sep = await file("sep-cr.csv", "\rsep=;\rid;output\r1;a,b\r");
    expect(brief(await collect(readCsv(sep)))).toEqual([[1, 4, { id: "1", output: "a,b" }]]);
    const jsonl = await file("jsonl-cr.csv", '{"output":"a"}\r{"output":"b"}\r');
    expect((await failure(jsonl)).message).toMatch(/the header row is a JSON object, so the file looks like JSONL/);
  });

  it("nameless columns at the header's end (a spreadsheet's empty columns, exported as trailing commas) are left out; a value in one is a row error", async () => {
    const path = await file("trailing.csv", "id,output,expected,, \r\n1,a,a,,\r\n2,b,c\r\n3,x,y,note,\r\n4,p,q, ,\r\n5,only\r\n6,a,b,,,\r\n");
    expect(brief(await collect(readCsv(path)))).toEqual([
      [1, 2, { id: "1", output: "a", expected: "a" }],
      [2, 3, { id: "2", output: "b", expected: "c" }],
      [3, 4, "line 4: column 4 holds a value, but the header gives it no name; expected a name for it in the header, or an empty cell"],
      [4, 5, { id: "4", output: "p", expected: "q" }],
      [5, 6, 'line 6: 2 fields, but the header has 5; expected 3 to 5 (3 named, then 2 without a name) fields separated by "," (quote values that contain one)'],
      [6, 7, 'line 7: 6 fields, but the header has 5; expected 3 to 5 (3 named, then 2 without a name) fields separated by "," (quote values that contain one)'],
    ]);
  });

  it("reads TSV with a tab delimiter", async () => {
    const path = await file("a.tsv", 'id\ttext\n1\t"a\tb"\n2\tc, d\n');
    expect(brief(await collect(readCsv(path, undefined, "\t")))).toEqual([
      [1, 2, { id: "1", text: "a\tb" }],
      [2, 3, { id: "2", text: "c, d" }],
    ]);
  });

  it("reads a 50 MB value", async () => {
    const big = "y".repeat(50 * 1024 * 1024);
    const items = await collect(readCsv(await file("big.csv", `id,input\n1,a\n2,"${big}"\n3,c\n`)));
    expect(items.map((i) => [i.row, i.line, "record" in i && (i.record["input"] as string).length])).toEqual([
      [1, 2, 1],
      [2, 3, big.length],
      [3, 4, 1],
    ]);
  });

  it("gives every value as written however the file's reads cut it: each read is copied before the next one is read into the same buffer", async () => {
    // Quoted values of commas, quotes, line breaks, multi-byte characters and long runs, over several reads of the file:
    // a value cut by a read is kept by csv-parse as a view of that read, which the next read would write over.
    const piece = fc.oneof(fc.constantFrom(",", '"', "\n", "\r\n", "ü", "😀", " "), fc.string({ maxLength: 8 }), fc.nat({ max: 40_000 }).map((n) => "x".repeat(n)));
    const value = fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(""));
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 20, maxLength: 60 }), async (texts) => {
        const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
        const path = await file("reads.csv", `id,text\n${texts.map((t, i) => `${i},${quote(t)}`).join("\n")}\n`);
        const items = await collect(readCsv(path));
        expect(items.map((i) => ("record" in i ? i.record["text"] : i.error.message))).toEqual(texts.map((t) => (t === "" ? null : t)));
      }),
      { numRuns: 15 },
    );
  });

  it.each([
    ["escaped quote", 'a""b'],
    ["closing quote", "ab"],
    ["CRLF", "a\r\nb"],
  ])("gives a value whose %s straddles two reads as written, a full read after it", async (_name, inside) => {
    // csv-parse keeps the last bytes of a read it cannot decide on yet (a quote: escaped or closing?) as a view of that read.
    for (let cut = 1; cut <= inside.length + 2; cut++) {
      const head = "id,text\n1,";
      const pad = "p".repeat(CHUNK_BYTES - head.length - 1 - cut);
      const text = `"${pad}${inside}"`;
      const after = Array.from({ length: 3 }, (_, i) => `${i + 2},"${String(i).repeat(CHUNK_BYTES / 2)}"`).join("\n");
      const items = await collect(readCsv(await file("cut.csv", `${head}${text}\n${after}\n`)));
      expect(items.map((i) => ("record" in i ? (i.record["text"] as string).slice(-10) : i.error.message))).toEqual([`${pad}${inside.replaceAll('""', '"')}`.slice(-10), "0000000000", "1111111111", "2222222222"]);
    }
  });

  it("keeps line numbers right across reads, with multi-line values", async () => {
    const n = Math.ceil((2 * CHUNK_BYTES) / 40_000);
    const rows = Array.from({ length: n }, (_, i) => `${i},"${"ü".repeat(10_000)}\n${"z".repeat(10_000)}"`);
    const items = await collect(readCsv(await file("straddle.csv", `id,text\n${rows.join("\n")}\n`)));
    expect(items.map((i) => ("record" in i ? [i.row, i.line, i.record["id"]] : i.error.message))).toEqual(
      rows.map((_, i) => [i + 1, 2 + 2 * i, String(i)]),
    );
  });

  it.each([
    ["an empty file", "", "the file is empty; expected a header row naming the columns, then one row per line"],
    ["blank lines only", "\n\r\n\n", "no header row (only blank lines); expected a header row naming the columns, then one row per line"],
    ["a header only", "id,input\n", "has a header row but no data rows; expected a header row naming the columns, then one row per line"],
    ["an empty header name", "id,,expected\n1,2,3\n", "the header's column 2 has no name; expected a header row naming the columns, then one row per line"],
    ["a header of nameless columns", ",,\n1,2,3\n", "the header's column 1 has no name; expected a header row naming the columns, then one row per line"],
    ["a duplicate header name", "id,input, id\n1,2,3\n", 'the header names column "id" twice (columns 1 and 3); expected unique column names'],
  ])("%s → DATASET_INVALID", async (_name, text, message) => {
    const path = await file("whole.csv", text);
    expect((await failure(path)).message).toBe(`${path}: ${message}`);
  });

  const LOOKS_JSONL = "the header row is a JSON object, so the file looks like JSONL (one JSON object per line): name it .jsonl; expected a header row naming the columns, then one row per line";
  it.each([
    ["JSONL", '{"output":"a","expected":"a"}\n{"output":"b","expected":"c"}\n', LOOKS_JSONL],
    ["JSONL with a BOM, blank lines first and CRLF", '\uFEFF\r\n{ "output": "a, b", "id": 1 }\r\n{"output":"c"}\r\n', LOOKS_JSONL],
    ["JSONL whose first line is longer than the first read", `{"output":"${"x".repeat(70_000)}","expected":"a"}\n`, LOOKS_JSONL],
    ["a JSON array", '[{"output":"a","expected":"a"},\n{"output":"b","expected":"b"}]\n', "the header row is the start of a JSON array, so the file looks like a JSON array of row objects: name it .json; expected a header row naming the columns, then one row per line"],
  ])("a .csv holding %s → DATASET_INVALID naming the format, not rows of split JSON", async (_name, text, message) => {
    const path = await file("json.csv", text);
    expect((await failure(path)).message).toBe(`${path}: ${message}`);
  });

  it("a real header whose first name starts with { or [ is read as CSV", async () => {
    const path = await file("braces.csv", '{id},[tags],"{""a"":1}"\n{1},[x],{"b":2}\n');
    expect(brief(await collect(readCsv(path)))).toEqual([[1, 2, { "{id}": "{1}", "[tags]": "[x]", '{"a":1}': '{"b":2}' }]]);
    const one = await file("one.csv", '{"a":1\n2\n');
    expect(brief(await collect(readCsv(one)))).toEqual([[1, 2, { '{"a":1': "2" }]]);
  });

  it("a missing file → DATASET_INVALID", async () => {
    expect((await failure(join(dir(), "nope.csv"))).message).toBe(`${join(dir(), "nope.csv")}: no such file`);
  });

  it("stops with the signal's reason when aborted", async () => {
    const path = await file("many.csv", `id\n${Array.from({ length: 500 }, (_, i) => i).join("\n")}\n`);
    const controller = new AbortController();
    let seen = 0;
    const err = await (async () => {
      for await (const item of readCsv(path, controller.signal)) {
        seen = item.row;
        if (item.row === 4) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toBe(4);
    expect(err).toBe(controller.signal.reason);
  });
});

describe("readCsvBatches", () => {
  it.each([
    ["one read", 0],
    ["several reads", 3 * CHUNK_BYTES],
  ])("onBytes is told before every batch, the last one included, ending at the file's size (%s)", async (_, pad) => {
    const text = `id,text\n1,${"x".repeat(pad)}\n2,"a ""b"""\n3,c\n`;
    const path = await file("bytes.csv", text);
    const calls: number[] = [];
    const batches: number[] = [];
    let rows = 0;
    for await (const batch of readCsvBatches(path, undefined, ",", (bytes) => calls.push(bytes))) {
      batches.push(calls.length);
      rows += batch.length;
    }
    expect(rows).toBe(3);
    // Each batch came after one more call than the one before it.
    expect(batches).toEqual(batches.map((_, i) => i + 1));
    expect(calls.at(-1)).toBe(Buffer.byteLength(text));
  });
});
