import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHUNK_BYTES } from "./read-bytes.js";
import { JsonlLines, parseJsonlRow, readJsonl, readJsonlBatches } from "./read-jsonl.js";
import type { DatasetItem, UnparsedRow } from "./rows.js";
import { brief, collect, datasetFailure, tempFiles } from "./test-support.js";

const { file, dir } = tempFiles("simeval-jsonl-");

const failure = datasetFailure;

/** `[row, line, record or error message]` per item: compact to compare. */
describe("readJsonl", () => {
  it("yields one record per line with 1-based row and line numbers; blank lines are not rows", async () => {
    const path = await file("a.jsonl", '{"id":1}\n\n{"id":2,"x":[1]}\n   \n{"id":3}\n');
    expect(brief(await collect(readJsonl(path)))).toEqual([
      [1, 1, { id: 1 }],
      [2, 3, { id: 2, x: [1] }],
      [3, 5, { id: 3 }],
    ]);
  });

  it("handles CRLF, a BOM at the start and a last line without a newline", async () => {
    const path = await file("crlf.jsonl", '\uFEFF{"a":"x"}\r\n\r\n{"a":"y"}\r\n{"a":"z"}');
    expect(brief(await collect(readJsonl(path)))).toEqual([
      [1, 1, { a: "x" }],
      [2, 3, { a: "y" }],
      [3, 4, { a: "z" }],
    ]);
  });

  it("skips a BOM at the start of a later line, where two files were joined (cat a.jsonl b.jsonl)", async () => {
    const path = await file("joined.jsonl", '\uFEFF{"a":"x"}\n\uFEFF{"a":"y"}\n\uFEFF\n');
    expect(brief(await collect(readJsonl(path)))).toEqual([
      [1, 1, { a: "x" }],
      [2, 2, { a: "y" }],
    ]);
  });

  it("a JSON array or JSON objects written over several lines → DATASET_INVALID saying what the file is, not an error per line", async () => {
    const pretty = JSON.stringify([{ output: "a", expected: "a" }], null, 2);
    const array = await file("pretty-array.jsonl", `\uFEFF\r\n${pretty}\n`);
    expect((await failure(readJsonl(array))).message).toBe(
      `${array}: line 2 opens a JSON array that goes on over the next lines, so the file looks like a JSON array of row objects: name it .json; expected one JSON object per line (JSONL)`,
    );
    const perLine = await file("array-per-line.jsonl", '[{"output":"a"},\n{"output":"b"}]\n');
    expect((await failure(readJsonl(perLine))).message).toMatch(/^.*: line 1 opens a JSON array that goes on/);
    const objects = await file("pretty-objects.jsonl", `${JSON.stringify({ output: "a" }, null, 2)}\n${JSON.stringify({ output: "b" }, null, 2)}`);
    expect((await failure(readJsonl(objects))).message).toBe(
      `${objects}: line 1 is only "{", so the file looks like JSON objects written over several lines; expected one JSON object per line (JSONL): write each object on one line, e.g. jq -c . FILE`,
    );
  });

  it("a first line that is a whole array, or a broken object, is that row's error, and later rows still come", async () => {
    for (const first of ['[{"output":"a"}]', "[1, 2", '{"output": "a",']) {
      const path = await file("first-bad.jsonl", `${first}\n{"output":"b"}\n`);
      const items = await collect(readJsonl(path));
      expect(items.map((i) => [i.row, "record" in i])).toEqual([
        [1, false],
        [2, true],
      ]);
    }
  });

  it("a bad line is a row error naming its line, and later rows still come", async () => {
    const path = await file("bad.jsonl", ['{"id":1}', '{"id":2,}', "[1,2]", '"text"', "null", "42", '{"id":7}'].join("\n"));
    const items = await collect(readJsonl(path));
    expect(items.map((i) => [i.row, i.line, "record" in i])).toEqual([
      [1, 1, true],
      [2, 2, false],
      [3, 3, false],
      [4, 4, false],
      [5, 5, false],
      [6, 6, false],
      [7, 7, true],
    ]);
    const messages = items.flatMap((i) => ("error" in i ? [i.error.message] : []));
    expect(messages[0]).toMatch(/^line 2: not valid JSON \(.+ at column 8 of the line \(a trailing comma: JSON allows none before \] or \}\)\); expected one JSON object per line \(JSONL\)$/);
    expect(messages.slice(1)).toEqual([
      "line 3: expected a JSON object per line, found an array",
      "line 4: expected a JSON object per line, found a string",
      "line 5: expected a JSON object per line, found null",
      "line 6: expected a JSON object per line, found a number",
    ]);
    expect(items.every((i) => !("error" in i) || i.error.code === "DATASET_ROW_INVALID")).toBe(true);
  });

  it("a line that is an array of row objects (JSON.stringify(rows) in a .jsonl file) says to name the file .json", async () => {
    const path = await file("one-line-array.jsonl", '[{"output":"a","expected":"a"},{"output":"b","expected":"b"}]\n[1,2]\n[]\n[{"a":1},2]\n');
    const messages = (await collect(readJsonl(path))).map((i) => ("error" in i ? i.error.message : ""));
    expect(messages).toEqual([
      "line 1: expected a JSON object per line, found an array of 2 row objects: a JSON array of rows is read from a .json file, so name the file .json (or write one object per line)",
      "line 2: expected a JSON object per line, found an array",
      "line 3: expected a JSON object per line, found an array",
      "line 4: expected a JSON object per line, found an array",
    ]);
    // A count of 1,000 or more is grouped by thousands; one row object is "1 row object".
    const many = await file("many.jsonl", `${JSON.stringify(Array.from({ length: 1200 }, () => ({ output: "a" })))}\n[{"output":"a"}]\n`);
    expect((await collect(readJsonl(many))).map((i) => ("error" in i ? i.error.message : ""))).toEqual([
      expect.stringContaining("found an array of 1,200 row objects: "),
      expect.stringContaining("found an array of 1 row object: "),
    ]);
  });

  it("a line that is not valid JSON names the column, counted from 1, where JSON.parse stopped", async () => {
    const lines = ['{"a": "éé" x}', "[1,2", '{"a":1} 2', '{"a":"open', '{"a":1 // note', "{'a':1}"];
    const items = await collect(readJsonl(await file("columns.jsonl", lines.join("\n"))));
    const messages = items.map((i) => ("error" in i ? i.error.message : ""));
    expect(messages).toEqual([
      "line 1: not valid JSON (Expected ',' or '}' after property value at column 12 of the line); expected one JSON object per line (JSONL)",
      "line 2: not valid JSON (Expected ',' or ']' after array element at column 5 of the line); expected one JSON object per line (JSONL)",
      "line 3: not valid JSON (Unexpected non-whitespace character after JSON at column 9 of the line); expected one JSON object per line (JSONL)",
      "line 4: not valid JSON (Unterminated string at column 11 of the line); expected one JSON object per line (JSONL)",
      expect.stringMatching(/^line 5: not valid JSON \(.* at column 8 of the line \(a comment: JSON allows none\)\); /),
      expect.stringMatching(/^line 6: not valid JSON \(.* at column 2 of the line\); /),
    ]);
    // No 0-based position is left in a message.
    expect(messages.join("\n")).not.toMatch(/at position/);
    // A comma or a second object after a line's object is named: JSON.parse says only "non-whitespace character".
    const after = await collect(readJsonl(await file("after.jsonl", '{"a":1},\n{"a":1} {"b":2}\n{"a":1}\n')));
    expect(after.map((i) => ("error" in i ? i.error.message : ""))).toEqual([
      "line 1: not valid JSON (Unexpected non-whitespace character after JSON at column 8 of the line (a comma after the value: a JSONL line holds one object, with nothing after it)); expected one JSON object per line (JSONL)",
      "line 2: not valid JSON (Unexpected non-whitespace character after JSON at column 9 of the line (a second object on the line: write one object per line)); expected one JSON object per line (JSONL)",
      "",
    ]);
    // Lines that end in a CR alone (classic Mac OS) are one line, whose second object follows a CR: said so.
    const cr = await collect(readJsonl(await file("cr.jsonl", '{"a":1}\r{"a":2}\r{"a":3}\r')));
    expect(cr.map((i) => ("error" in i ? i.error.message : ""))).toEqual([
      "line 1: not valid JSON (Unexpected non-whitespace character after JSON at column 9 of the line (a second object after a carriage return: the file's lines seem to end in a CR alone, as classic Mac OS wrote them, where JSONL lines end in LF or CRLF; convert them, e.g. tr '\\r' '\\n' < FILE > FILE-lf)); expected one JSON object per line (JSONL)",
    ]);
    // Its lines indented (an editor's pretty print), the CR is still before the second object: said so too.
    const indented = await collect(readJsonl(await file("cr-indented.jsonl", '{"a":1}\r \t{"a":2}\r')));
    expect(indented.map((i) => ("error" in i ? i.error.message : ""))).toEqual([expect.stringContaining("at column 11 of the line (a second object after a carriage return: ")]);
  });

  it("leaves a CRLF line's \\r out of a message, as if the line ended before it", async () => {
    const items = await collect(readJsonl(await file("crlf.jsonl", '{"a":1}\r\n{"output":"open\r\n{"a":1,\r\n{"a":1}\r\n')));
    expect(items.map((i) => ("error" in i ? i.error.message : "record"))).toEqual([
      "record",
      "line 2: not valid JSON (Unterminated string at column 16 of the line); expected one JSON object per line (JSONL)",
      expect.stringMatching(/^line 3: not valid JSON \(.* at column 8 of the line\); /),
      "record",
    ]);
  });

  it("counts a BOM starting a later line (files joined) in the column, read on this thread or handed out unparsed", async () => {
    const path = await file("joined-bad.jsonl", '{"a":1}\n\uFEFF{"a": }\n\uFEFF{"a":"open\r\n');
    const expected = [
      "record",
      expect.stringMatching(/^line 2: not valid JSON \(.* at column 8 of the line\); /),
      "line 3: not valid JSON (Unterminated string at column 12 of the line); expected one JSON object per line (JSONL)",
    ];
    expect((await collect(readJsonl(path))).map((i) => ("error" in i ? i.error.message : "record"))).toEqual(expected);
    const unparsed: (DatasetItem | UnparsedRow)[] = [];
    for await (const batch of readJsonlBatches(path, undefined, true)) unparsed.push(...batch);
    expect(unparsed.map((u) => parseJsonlRow(u as UnparsedRow)).map((i) => ("error" in i ? i.error.message : "record"))).toEqual(expected);
  });

  it("refuses a row whose id JSON.parse reads as Infinity (1e400), which the results would record as null, read here or handed out unparsed", async () => {
    const path = await file("infinite-id.jsonl", ['{"id": 1e400, "output": "a"}', '{"id": [1, {"k": -1e400}]}', '{"id": 12345678901234567890}', '{"id": "1e400", "n": 1e400}'].join("\n"));
    const expected = [
      'line 1: id is the number Infinity, which JSON writes as null (a number beyond ±1.8e308, such as 1e400, reads as Infinity), so the row would be recorded without its id; expected the id as a string ("1e400") or a finite number',
      expect.stringMatching(/^line 2: id\[1\]\.k is the number -Infinity, which JSON writes as null /),
      "record",
      "record",
    ];
    expect((await collect(readJsonl(path))).map((i) => ("error" in i ? i.error.message : "record"))).toEqual(expected);
    const unparsed: (DatasetItem | UnparsedRow)[] = [];
    for await (const batch of readJsonlBatches(path, undefined, true)) unparsed.push(...batch);
    expect(unparsed.map((u) => parseJsonlRow(u as UnparsedRow)).map((i) => ("error" in i ? i.error.message : "record"))).toEqual(expected);
  });

  it("takes no position from the line's own words that V8 quotes, nor cuts them out of the quote", async () => {
    const items = await collect(readJsonl(await file("words.jsonl", ['x at position 1', '[,"at position 9"]'].join("\n"))));
    expect(items.map((i) => ("error" in i ? i.error.message : ""))).toEqual([
      `line 1: not valid JSON (Unexpected token 'x', "x at position 1" is not valid JSON at column 1 of the line); expected one JSON object per line (JSONL)`,
      `line 2: not valid JSON (Unexpected token ',', "[,"at position 9"]" is not valid JSON at column 2 of the line); expected one JSON object per line (JSONL)`,
    ]);
  });

  it("names the column of a token out of place, for which V8 says \"Unexpected token\" and gives no position", async () => {
    const lines = ['{"é": , "b": 1}', '{"😀":}', "[1, , 2]", '{"a": ]'];
    const items = await collect(readJsonl(await file("syntax.jsonl", lines.join("\n"))));
    expect(items.map((i) => ("error" in i ? /at column \d+/.exec(i.error.message)?.[0] : ""))).toEqual(["at column 7", "at column 7", "at column 5", "at column 7"]);
  });

  it("invalid UTF-8 is a row error giving the byte in the line; valid neighbours are unaffected", async () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"é"}\n{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n{"a":"ü"}\n')]);
    const items = await collect(readJsonl(await file("utf8.jsonl", bytes)));
    expect(brief(items)).toEqual([
      [1, 1, { a: "é" }],
      [2, 2, "line 2: not valid UTF-8 at byte 7 of the line; expected UTF-8 text"],
      [3, 3, { a: "ü" }],
    ]);
  });

  it("reads lines longer than a read, and a 50 MB value", async () => {
    const big = "x".repeat(50 * 1024 * 1024);
    const path = await file("big.jsonl", `{"id":1}\n{"id":2,"input":"${big}"}\n{"id":3}\n`);
    const items = await collect(readJsonl(path));
    expect(items.map((i) => [i.row, i.line])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    const second = items[1]!;
    expect("record" in second && (second.record["input"] as string).length).toBe(big.length);
  });

  it("a line longer than a string can be is a row error, and the lines around it are read (limit lowered to 12 bytes here; about 512 MiB for real)", () => {
    for (const middle of ['{"a":"0123456789"}', '{"a":"é0123456789"}', '{"a":"\xff0123456789"}']) {
      const lines = new JsonlLines(false, 12);
      const out: Parameters<JsonlLines["push"]>[1] = [];
      lines.push(Buffer.concat([Buffer.from('{"a":1}\n'), Buffer.from(middle, "latin1"), Buffer.from('\n{"b":2}\n')]), out);
      expect(out.map((i) => ("record" in i ? i.record : "error" in i ? i.error.message : i))).toEqual([
        { a: 1 },
        `line 2: ${Buffer.byteLength(middle, "latin1")} bytes, longer than the longest text Node.js can hold (12 characters); expected one JSON object per line (JSONL)`,
        { b: 2 },
      ]);
    }
  });

  it("a line of exactly the longest text Node.js can hold is read (limit lowered to 12 bytes here)", () => {
    const lines = new JsonlLines(false, 12);
    const out: Parameters<JsonlLines["push"]>[1] = [];
    lines.push(Buffer.from('{"a":"1234"}\n{"b":"12345"}\n'), out);
    expect(out.map((i) => ("record" in i ? i.record : "error" in i ? i.error.message : i))).toEqual([
      { a: "1234" },
      "line 2: 13 bytes, longer than the longest text Node.js can hold (12 characters); expected one JSON object per line (JSONL)",
    ]);
  });

  it("a line of only tabs and spaces is blank, not a row", async () => {
    const path = await file("tabs.jsonl", '{"id":1}\n\t\n \t\r\n{"id":2}\n');
    expect(brief(await collect(readJsonl(path)))).toEqual([
      [1, 1, { id: 1 }],
      [2, 4, { id: 2 }],
    ]);
  });

  it("a file that is only an opening \"{\" or \"[\" line, without a newline, → DATASET_INVALID saying what it looks like", async () => {
    const object = await file("only-brace.jsonl", "{");
    expect((await failure(readJsonl(object))).message).toMatch(/: line 1 is only "\{", so the file looks like JSON objects written over several lines/);
    const array = await file("only-bracket.jsonl", '[{"output":"a"},');
    expect((await failure(readJsonl(array))).message).toMatch(/: line 1 opens a JSON array that goes on over the next lines/);
  });

  it("an abort while a read is pending rejects it with the signal's reason, not a file error", async () => {
    const path = await file("pending.jsonl", '{"a":1}\n');
    const controller = new AbortController();
    const batches = readJsonlBatches(path, controller.signal);
    const pending = batches.next();
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it("keeps line numbers right when lines straddle reads", async () => {
    // Lines of ~100 KB, so that several cross the CHUNK_BYTES boundaries.
    const n = Math.ceil((3 * CHUNK_BYTES) / 100_000);
    const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ id: i, pad: "p".repeat(100_000) }));
    const items = await collect(readJsonl(await file("straddle.jsonl", lines.join("\r\n"))));
    expect(items.map((i) => ("record" in i ? [i.row, i.line, i.record["id"]] : i.error.message))).toEqual(
      lines.map((_, i) => [i + 1, i + 1, i]),
    );
  });

  it.each([
    ["missing", "missing.jsonl", null, "missing.jsonl: no such file"],
    ["empty", "empty.jsonl", "", "empty.jsonl: the file is empty; expected one JSON object per line (JSONL)"],
    ["blank lines only", "blank.jsonl", "\n  \r\n\n", "blank.jsonl: no rows (only blank lines); expected one JSON object per line (JSONL)"],
  ])("%s file → DATASET_INVALID", async (_name, name, content, message) => {
    const path = content === null ? join(dir(), name) : await file(name, content);
    const err = await failure(readJsonl(path));
    expect(err.code).toBe("DATASET_INVALID");
    expect(err.message).toBe(join(dir(), message));
  });

  it("a directory → DATASET_INVALID", async () => {
    await mkdir(join(dir(), "folder.jsonl"));
    const err = await failure(readJsonl(join(dir(), "folder.jsonl")));
    expect(err.message).toBe(`${join(dir(), "folder.jsonl")}: is a directory; expected a dataset file (.jsonl, .json or .csv)`);
  });

  it.skipIf(process.getuid?.() === 0)("an unreadable file → DATASET_INVALID (skipped as root, who can read anything)", async () => {
    const path = await file("locked.jsonl", '{"a":1}\n');
    const { chmod } = await import("node:fs/promises");
    await chmod(path, 0o000);
    const err = await failure(readJsonl(path));
    expect(err.message).toBe(`${path}: cannot be read (permission denied)`);
  });

  it("stops with the signal's reason when aborted mid-stream", async () => {
    const path = await file("many.jsonl", Array.from({ length: 1000 }, (_, i) => `{"id":${i}}`).join("\n"));
    const controller = new AbortController();
    const seen: number[] = [];
    const err = await (async () => {
      for await (const item of readJsonl(path, controller.signal)) {
        seen.push(item.row);
        if (item.row === 10) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(err).toBe(controller.signal.reason);
    expect((err as Error).name).toBe("AbortError");
  });

  it.skipIf(!existsSync("/proc/self/fd"))("closes the file as the abort comes, though the rows' iterator, which throws the abort's reason, leaves the reader where it was", async () => {
    const path = await file("abandoned.jsonl", Array.from({ length: 1000 }, (_, i) => `{"id":${i}}`).join("\n"));
    const opensOfIt = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false;
        }
      }).length;
    const controller = new AbortController();
    const err = await (async () => {
      for await (const item of readJsonl(path, controller.signal)) if (item.row === 10) controller.abort();
    })().catch((e: unknown) => e);
    expect(err).toBe(controller.signal.reason);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Closed by the abort, not left open until garbage collection closes it (which Node.js warns of: DEP0137).
    expect(opensOfIt()).toBe(0);
  });

  it("an already-aborted signal yields nothing", async () => {
    const path = await file("one.jsonl", '{"a":1}\n');
    const err = await collect(readJsonl(path, AbortSignal.abort())).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
  });
});

describe("JsonlLines: a read decoded in pieces", () => {
  /** The plain reference: the whole region decoded at once and split at each `\n`, each line's JSON as it is. */
  const reference = (region: Buffer) => {
    const lines = region.toString("utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines.map((json, i) => ({ line: i + 1, json })).filter(({ json }) => json.charCodeAt(0) === 123);
  };
  // Lines of 0 to 70,000 bytes (pieces are 32 KiB) in ASCII, Latin-1 and other scripts, astral ones too.
  const line = fc.oneof(
    fc.string({ unit: fc.constantFrom("a", " ", "é", "€", "𝄞", '"'), maxLength: 40 }).map((s) => JSON.stringify({ s })),
    fc.record({ n: fc.integer({ min: 0, max: 70_000 }), c: fc.constantFrom("a", "é", "€", "𝄞") }).map(({ n, c }) => JSON.stringify({ s: c.repeat(n) })),
    fc.constant(""),
  );

  it("gives every line, each whole, with its line number, as decoding the whole read does (fast-check)", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.boolean(), (lines, lastNewline) => {
        const region = Buffer.from(lines.join("\n") + (lastNewline && lines.length ? "\n" : ""));
        const out: (DatasetItem | UnparsedRow)[] = [];
        new JsonlLines(true).push(region, out);
        expect(out.map((i) => ("json" in i ? { line: i.line, json: i.json } : i))).toEqual(reference(region));
      }),
      { numRuns: 60 },
    );
  });
});
