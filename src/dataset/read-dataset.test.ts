import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { detectFormat, readDataset } from "./read-dataset.js";
import { collect, makeFifo, PIPE_REFUSED, tempFiles } from "./test-support.js";
import { thrownEvalError } from "../test-support.js";

const { file, dir } = tempFiles("simeval-dataset-");

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("arguments of the wrong kind", () => {

  it("a path that is not a non-empty string is INPUT_INVALID naming the function, not a TypeError from node:fs", () => {
    for (const [path, received] of [[undefined, "nothing"], [null, "null"], [5, "number 5"], ["", 'string ""']] as const) {
      for (const [fn, call] of [["readDataset", () => readDataset(path as never)], ["detectFormat", () => detectFormat(path as never)]] as const) {
        expect(thrownEvalError(call)).toMatchObject({ code: "INPUT_INVALID", message: `${fn}: path must be the path of a dataset file (a non-empty string), received ${received}` });
      }
    }
    expect(thrownEvalError(() => detectFormat("data.txt", "[" as never))).toMatchObject({ code: "INPUT_INVALID", message: 'detectFormat: firstBytes must be a Uint8Array or nothing, received string "["' });
  });

  it("options of the wrong kind are CONFIG_INVALID naming the option; 5 was read as none, an unknown format threw a TypeError", () => {
    const cases: [unknown, string][] = [
      [5, "opts must be an object ({ format?, signal?, onWarning? }) or nothing, received number 5"],
      [null, "opts must be an object ({ format?, signal?, onWarning? }) or nothing, received null"],
      [{ format: "xml" }, 'opts.format must be "jsonl", "json", "csv" or nothing, received string "xml"'],
      [{ signal: {} }, "opts.signal must be an AbortSignal or nothing, received object"],
      [{ onWarning: true }, "opts.onWarning must be a function or nothing, received boolean true"],
    ];
    for (const [opts, message] of cases) {
      expect(thrownEvalError(() => readDataset("qa.jsonl", opts as never))).toMatchObject({ code: "CONFIG_INVALID", message: `readDataset: ${message}` });
    }
  });
});

describe("detectFormat", () => {
  it.each([
    ["qa.jsonl", "jsonl"],
    ["qa.NDJSON", "jsonl"],
    ["qa.json", "json"],
    ["qa.csv", "csv"],
    ["qa.tsv", "csv"],
    ["dir.v2/qa.Json", "json"],
  ])("%s → %s by extension, whatever the bytes", (path, format) => {
    expect(detectFormat(path, bytes("garbage"))).toBe(format);
  });

  it.each([
    ['[{"a":1}]', "json"],
    ['\uFEFF\r\n  [\n{"a":1}]', "json"],
    ['{"a":1}\n{"a":2}\n', "jsonl"],
    ['\n\n {"a":1}', "jsonl"],
    ["id,input\n1,2\n", "csv"],
    ["", "csv"],
  ])("sniffs %j → %s for other extensions", (text, format) => {
    expect(detectFormat("data.txt", bytes(text))).toBe(format);
  });

  it("reads the first bytes itself when not given them", async () => {
    expect(detectFormat(await file("rows.txt", '{"a":1}\n'))).toBe("jsonl");
  });

  const fifo = makeFifo(dir(), "sniff.dat");
  it.skipIf(fifo === undefined)("a FIFO to sniff → DATASET_INVALID saying it is a pipe, without opening it", () => {
    expect(() => detectFormat(fifo!)).toThrow(new EvalError("DATASET_INVALID", `${fifo}: ${PIPE_REFUSED}`));
  });

  it("a missing file to sniff → DATASET_INVALID", () => {
    const path = join(dir(), "absent.dat");
    expect(() => detectFormat(path)).toThrow(new EvalError("DATASET_INVALID", `${path}: no such file`));
  });
});

describe("readDataset", () => {
  it("reads each format through the same items", async () => {
    const expected = [
      { row: 1, line: 2, record: { id: "1", q: "a" } },
      { row: 2, line: 3, record: { id: "2", q: "b" } },
    ];
    const jsonl = await file("d.jsonl", '\n{"id":"1","q":"a"}\n{"id":"2","q":"b"}\n');
    const json = await file("d.json", '[\n{"id":"1","q":"a"},\n{"id":"2","q":"b"}\n]');
    const csv = await file("d.csv", "id,q\n1,a\n2,b\n");
    const tsv = await file("d.tsv", "id\tq\n1\ta\n2\tb\n");
    for (const path of [jsonl, json, csv, tsv]) expect(await collect(readDataset(path))).toEqual(expected);
  });

  it("reads a .tsv by tabs also when a header name holds a comma (which would make a .csv comma-separated)", async () => {
    const tsv = await file("commas.tsv", "id\tlabel, short\n1\tx, y\n");
    expect(await collect(readDataset(tsv))).toEqual([{ row: 1, line: 2, record: { id: "1", "label, short": "x, y" } }]);
  });

  it("warns of a CSV column ID with none named id, whose rows have no ids, on the header's line; not of id, nor of ID beside id", async () => {
    const warned = async (name: string, text: string) => {
      const warnings: string[] = [];
      const items = await collect(readDataset(await file(name, text), { onWarning: (w) => warnings.push(w) }));
      return { warnings, ids: items.map((i) => ("record" in i ? i.record["id"] : "error")) };
    };
    expect(await warned("upper.csv", "sep=;\nID;output\n007;a\n")).toEqual({
      warnings: ['line 2: the header has a column "ID" and none named "id", from which alone rows take their ids, so these rows have none; rename the column "id" to give them theirs'],
      ids: [undefined],
    });
    expect((await warned("title.csv", " Id ,output\n1,a\n")).warnings).toEqual([expect.stringContaining('a column "Id" and none named "id"')]);
    expect(await warned("lower.csv", "id,output\n007,a\n")).toEqual({ warnings: [], ids: ["007"] });
    expect(await warned("both.csv", "id,ID,output\n1,2,a\n")).toEqual({ warnings: [], ids: ["1"] });
    expect((await warned("none.csv", "identifier,output\n1,a\n")).warnings).toEqual([]);
  });

  it("sniffs a file whose extension says nothing", async () => {
    const items = await collect(readDataset(await file("rows.dat", '[{"a":1},\n{"a":2}]')));
    expect(items).toEqual([
      { row: 1, line: 1, record: { a: 1 } },
      { row: 2, line: 2, record: { a: 2 } },
    ]);
  });

  it("opts.format overrides the extension", async () => {
    const path = await file("actually-jsonl.json", '{"a":1}\n{"a":2}\n');
    await expect(collect(readDataset(path))).rejects.toThrow(/expected a JSON array of row objects at the top level, found an object/);
    expect(await collect(readDataset(path, { format: "jsonl" }))).toHaveLength(2);
  });

  it.each([
    ["missing.jsonl", "no such file"],
    ["missing.weird", "no such file"],
  ])("%s → DATASET_INVALID from the first next()", async (name, problem) => {
    const path = join(dir(), name);
    const iterable = readDataset(path); // no throw yet: the file is opened on iteration
    await expect(collect(iterable)).rejects.toMatchObject({ code: "DATASET_INVALID", message: `${path}: ${problem}` });
  });

  const fifos = ["pipe.jsonl", "pipe.json", "pipe.csv", "pipe.dat"].map((name) => [name, makeFifo(dir(), name)] as const);
  it.skipIf(fifos[0]![1] === undefined).each(fifos)("a FIFO %s → DATASET_INVALID from the first next(), saying it is a pipe", async (_name, path) => {
    await expect(collect(readDataset(path!))).rejects.toMatchObject({ code: "DATASET_INVALID", message: `${path}: ${PIPE_REFUSED}` });
  });

  it("an empty file of unknown type → DATASET_INVALID", async () => {
    const path = await file("empty.dat", "");
    await expect(collect(readDataset(path))).rejects.toMatchObject({
      code: "DATASET_INVALID",
      message: `${path}: the file is empty; expected a JSONL, JSON or CSV dataset`,
    });
  });

  it.each(["jsonl", "json", "csv", "txt"])("a .%s file holding only a UTF-8 byte order mark → DATASET_INVALID, read as the empty file it is", async (ext) => {
    const expected = { jsonl: "one JSON object per line (JSONL)", json: "a JSON array of row objects", csv: "a header row naming the columns, then one row per line", txt: "a JSONL, JSON or CSV dataset" }[ext];
    const path = await file(`bom-only.${ext}`, Buffer.from([0xef, 0xbb, 0xbf]));
    await expect(collect(readDataset(path))).rejects.toMatchObject({ code: "DATASET_INVALID", message: `${path}: the file is empty (but for a UTF-8 byte order mark); expected ${expected}` });
    // A byte order mark then a line break is a file of blank lines, said as such.
    const blank = await file(`bom-blank.${ext}`, Buffer.from([0xef, 0xbb, 0xbf, 0x0a]));
    await expect(collect(readDataset(blank))).rejects.toMatchObject({ code: "DATASET_INVALID", message: expect.not.stringContaining("the file is empty") });
  });

  it.each(["jsonl", "json", "csv", "dat"])("a UTF-16 .%s file (either byte order) → DATASET_INVALID saying so, not an error per row", async (ext) => {
    const text = ext === "csv" ? "output,expected\na,a\n" : ext === "json" ? '[{"output":"a"}]' : '{"output":"a"}\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const be = Buffer.from(le.map((_, i) => le[i ^ 1]!)); // the same text, byte pairs swapped: FE FF …
    for (const [order, bytes] of [["le", le], ["be", be]] as const) {
      const path = await file(`utf16-${order}.${ext}`, bytes);
      await expect(collect(readDataset(path))).rejects.toMatchObject({
        code: "DATASET_INVALID",
        message: `${path}: is UTF-16 text (it starts with a UTF-16 byte order mark); expected UTF-8: convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8`,
      });
    }
  });

  it.each(["jsonl", "csv", "dat"])("a UTF-16 .%s file without a byte order mark → DATASET_INVALID naming its byte order", async (ext) => {
    const text = ext === "csv" ? "output,expected\na,a\n" : '{"output":"a"}\n';
    const le = Buffer.from(text, "utf16le");
    const be = Buffer.from(le.map((_, i) => le[i ^ 1]!));
    for (const [order, bytes, nul] of [["LE", le, "second"], ["BE", be, "first"]] as const) {
      const path = await file(`utf16-nobom-${order}.${ext}`, bytes);
      await expect(collect(readDataset(path))).rejects.toMatchObject({
        code: "DATASET_INVALID",
        message: `${path}: looks like UTF-16${order} text without a byte order mark (its ${nul} byte is NUL); expected UTF-8: convert it first, e.g. iconv -f UTF-16${order} -t UTF-8 FILE > FILE-utf8`,
      });
    }
  });

  it.each([
    ["rows.jsonl.gz", gzipSync('{"output":"a"}\n'), "is gzip-compressed; expected a UTF-8 text file (JSONL, JSON or CSV): decompress it first, e.g. gunzip -k FILE"],
    ["rows.csv.gz", gzipSync("output,expected\na,a\n"), "is gzip-compressed; expected a UTF-8 text file (JSONL, JSON or CSV): decompress it first, e.g. gunzip -k FILE"],
    ["rows.gz", gzipSync('[{"output":"a"}]'), "is gzip-compressed; expected a UTF-8 text file (JSONL, JSON or CSV): decompress it first, e.g. gunzip -k FILE"],
    ["book.xlsx", Buffer.from("PK\x03\x04\x14\x00rest", "latin1"), "is a ZIP archive (an Excel .xlsx, LibreOffice .ods or Numbers file is one); expected a UTF-8 text file (JSONL, JSON or CSV): extract it, or save the sheet as CSV UTF-8"],
    ["book.csv", Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), "is an Excel .xls (or other Office) file; expected a UTF-8 text file (JSONL, JSON or CSV): save the sheet as CSV UTF-8"],
    ["rows.jsonl.xz", Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00]), "is xz-compressed; expected a UTF-8 text file (JSONL, JSON or CSV): decompress it first, e.g. xz -dk FILE"],
    ["rows.json.zst", Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00]), "is zstd-compressed; expected a UTF-8 text file (JSONL, JSON or CSV): decompress it first, e.g. zstd -d FILE"],
  ])("a compressed or binary file (%s) → DATASET_INVALID saying what it is, not garbage rows", async (name, content, problem) => {
    const path = await file(name, content);
    await expect(collect(readDataset(path))).rejects.toMatchObject({ code: "DATASET_INVALID", message: `${path}: ${problem}` });
  });

  it("passes the signal to the reader, also after sniffing", async () => {
    const path = await file("many.dat", Array.from({ length: 100 }, (_, i) => `{"id":${i}}`).join("\n"));
    const controller = new AbortController();
    const rows: number[] = [];
    await expect(
      (async () => {
        for await (const item of readDataset(path, { signal: controller.signal })) {
          rows.push(item.row);
          if (item.row === 2) controller.abort(new Error("stop here"));
        }
      })(),
    ).rejects.toThrow("stop here");
    expect(rows).toEqual([1, 2]);
  });

  it("breaking out of the loop early is fine and reading again starts over", async () => {
    const path = await file("again.jsonl", '{"a":1}\n{"a":2}\n{"a":3}\n');
    for await (const item of readDataset(path)) {
      expect(item.row).toBe(1);
      break;
    }
    expect(await collect(readDataset(path))).toHaveLength(3);
  });
});
