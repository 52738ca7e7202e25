/** Helpers shared by the dataset readers' tests (not shipped: excluded from the build). */
import { execFileSync, spawn } from "node:child_process";
import fc from "fast-check";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { collect, evalErrorOf, tempDir, writeIn } from "../test-support.js";
import type { EvalError } from "../errors.js";
import { readDataset } from "./read-dataset.js";
import type { DatasetItem } from "./rows.js";

/** A temp folder for the calling test file (removed after its tests), with a file writer. */
export function tempFiles(prefix: string): { file(name: string, content: string | Uint8Array): Promise<string>; dir(): string } {
  const dir = tempDir(prefix);
  return { dir: () => dir, file: async (name, content) => writeIn(dir, name, content) };
}

export { collect };

/** `[row, line, record or error message]` per item: compact to compare. */
export const brief = (items: DatasetItem[]): [number, number, unknown][] => items.map((i) => [i.row, i.line, "record" in i ? i.record : i.error.message]);

/** Every item readDataset gives for `path`, and what it threw (after those items), if anything. */
export async function readAll(path: string, onWarning?: (message: string) => void): Promise<{ items: DatasetItem[]; thrown?: unknown }> {
  const items: DatasetItem[] = [];
  try {
    for await (const item of readDataset(path, onWarning ? { onWarning } : {})) items.push(item);
  } catch (thrown) {
    return { items, thrown };
  }
  return { items };
}

/** Reads `items` to the end and returns the DATASET_INVALID error it must fail with. */
export async function datasetFailure(items: AsyncIterable<DatasetItem>): Promise<EvalError> {
  const err = await evalErrorOf(collect(items));
  expect(err.code).toBe("DATASET_INVALID");
  return err;
}

/** The message a dataset path that is a pipe is refused with (see `notRegularFile`). */
export const PIPE_REFUSED = "is a pipe, not a regular file; a dataset is read more than once, so save it to a file first and give its path";

/**
 * Makes a FIFO `dir/name` with mkfifo and returns its path, or undefined where mkfifo is not available (the
 * caller skips). Code that wrongly opens it for reading would block for good (a synchronous open even blocks
 * the test thread, beyond any timeout), so a helper process opens it for writing after a second and closes
 * it at once: such code reads an empty stream and the test fails instead of hanging. The helper is killed
 * after the tests.
 */
export function makeFifo(dir: string, name: string): string | undefined {
  const path = join(dir, name);
  try {
    execFileSync("mkfifo", [path], { stdio: "ignore" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const release = "setTimeout(() => { const fs = require('node:fs'); fs.closeSync(fs.openSync(process.argv[1], 'w')); }, 1000)";
  const helper = spawn(process.execPath, ["-e", release, path], { stdio: "ignore" });
  afterAll(() => {
    helper.kill();
  });
  return path;
}

// ---------------------------------------------------------------------------------------------------------
// Fuzzing: random datasets in each format, with the items a reader must give for them (see *.fuzz.test.ts).

/** What a reader must give for one generated row: its record, a row error, or either (`any`: lenient readers may take it as text). */
type Planned = { line: number; record: Record<string, unknown> } | { line: number; error: true } | { line: number; any: true };

/** A generated dataset file: its bytes, and what reading it must give. */
export interface FuzzedFile {
  format: "jsonl" | "json" | "csv";
  name: string;
  bytes: Buffer;
  /** The rows up to the first fault that cannot be read past (all of them when there is none). */
  planned: Planned[];
  /** Whether the file has a fault that cannot be read past (the items after `planned` are then not predicted). */
  desync: boolean;
  /** Whether the file as a whole must be refused (DATASET_INVALID before the first row). */
  refused: boolean;
}

/** Bytes that are never valid UTF-8 wherever they are put: 0xFF, a lone surrogate (ED A0 80), an overlong NUL, a cut sequence. */
const BAD_BYTES: readonly number[][] = [[0xff], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xc3], [0xf0, 0x9f, 0x98]];

/** `text` with each lone surrogate replaced by U+FFFD (as writing it as UTF-8 would): CSV cannot carry one. */
const wellFormed = (text: string): string => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\uFFFD");

/** Text with what breaks readers: quotes, separators, line breaks, CR, BOM, NUL, U+FFFF/U+FFFD, astral characters. */
const fuzzText: fc.Arbitrary<string> = fc.oneof(
  { weight: 20, arbitrary: fc.array(fc.oneof(fc.string({ unit: "binary", maxLength: 6 }), fc.constantFrom('"', "'", ",", ";", "\t", "\n", "\r", "\r\n", "\uFEFF", "\0", "{", "[", "}", " ", "é", "😀", "\u2028", "\uFFFF", "\uFFFD", "\\", '""', "sep=;")), { maxLength: 6 }).map((a) => wellFormed(a.join(""))) },
  // Longer than a read of the file (CHUNK_BYTES), so that rows and values cross reads.
  { weight: 1, arbitrary: fc.tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 3 }), fc.integer({ min: 1000, max: 300_000 })).map(([s, n]) => wellFormed(s.repeat(Math.ceil(n / s.length)))) },
);

const fuzzKey = fc.oneof(fc.constantFrom("id", "input", "output", "expected", "metadata"), fc.string({ maxLength: 5 }).filter((k) => k !== "__proto__"));
// Lone surrogates, which JSON writes as escapes.
const fuzzScalar = fc.oneof(fuzzText, fc.constantFrom("\ud800", "a\udc00b", "\udbff\ud800"), fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)));
const fuzzNested = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, fuzzScalar, fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(fuzzKey, tie("value"), { maxKeys: 3 })),
})).value;

/** A row object: the usual fields, each maybe missing, sometimes nested or not text. */
const fuzzRow: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record({ id: fc.oneof(fuzzText, fc.integer()), output: fc.oneof({ weight: 5, arbitrary: fuzzText }, fuzzScalar), expected: fc.oneof({ weight: 5, arbitrary: fuzzText }, fuzzScalar), metadata: fuzzNested }, { requiredKeys: [] }),
    fc.dictionary(fuzzKey, fuzzNested, { maxKeys: 2 }),
  )
  .map(([known, extra]) => ({ ...extra, ...known }));

/** `bytes` with `bad` inserted at `at` (a fraction of its length). */
function insertBytes(bytes: Buffer, at: number, bad: number[]): Buffer {
  const i = Math.floor(at * (bytes.length + 1)) % (bytes.length + 1);
  return Buffer.concat([bytes.subarray(0, i), Buffer.from(bad), bytes.subarray(i)]);
}

/** `text` with `bad` bytes put between two of its characters, each part written by `write`. */
function textWithBadBytes(text: string, at: number, bad: number[], write: (part: string) => string = (part) => part): Buffer {
  const chars = Array.from(text);
  const i = Math.floor(at * (chars.length + 1)) % (chars.length + 1);
  return Buffer.concat([Buffer.from(write(chars.slice(0, i).join(""))), Buffer.from(bad), Buffer.from(write(chars.slice(i).join("")))]);
}

const newlinesIn = (bytes: Uint8Array): number => {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) n++;
  return n;
};

/** Cuts `bytes` at `cut` (a fraction of the length, or none). */
const cutAt = (bytes: Buffer, cut: number | null): { bytes: Buffer; at: number } => {
  const at = cut === null ? bytes.length : Math.floor(cut * bytes.length);
  return { bytes: bytes.subarray(0, at), at };
};

/** A number in [0, 1), evenly spread (fast-check's bias towards small values would cut most files at their first bytes). */
const fraction = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);
/** Where to cut the file short (a fraction of its length), in one file of three. */
const fuzzCut = fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fraction });
const fuzzEol = fc.constantFrom("\n", "\r\n");
const fuzzBad = fc.constantFrom(...BAD_BYTES);

// --- JSONL: every line is predicted from the file's bytes (an oracle independent of how the file is read).

type JsonlLine =
  | { kind: "row"; row: Record<string, unknown> }
  | { kind: "blank"; text: string }
  | { kind: "bad"; text: string }
  | { kind: "badBytes"; row: Record<string, unknown>; at: number; bad: number[] };

const jsonlLine: fc.Arbitrary<JsonlLine> = fc.oneof(
  { weight: 12, arbitrary: fuzzRow.map((row) => ({ kind: "row" as const, row })) },
  { weight: 2, arbitrary: fc.constantFrom("", "  ", "\t", "\r", "\uFEFF").map((text) => ({ kind: "blank" as const, text })) },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.constantFrom("{not json", "[1,2]", "5", "null", '"text"', '{"a":1,}', '{"a":1}}', "{", '[{"a":1},', "[", "\uFEFF\uFEFF{}", "\0{}"), fuzzText.filter((t) => !t.includes("\n"))).map((text) => ({ kind: "bad" as const, text })),
  },
  { weight: 1, arbitrary: fc.record({ row: fuzzRow, at: fraction, bad: fuzzBad }).map((r) => ({ kind: "badBytes" as const, ...r })) },
);

/** A JSONL file; its items are predicted by {@link jsonlOracle} from the bytes. */
export const fuzzJsonl: fc.Arbitrary<{ bytes: Buffer; lines: JsonlLine[]; eols: string[]; cutAt: number }> = fc
  .record({ bom: fc.boolean(), lines: fc.array(fc.tuple(jsonlLine, fuzzEol), { minLength: 1, maxLength: 12 }), lastEol: fc.boolean(), cut: fuzzCut })
  .map(({ bom, lines, lastEol, cut }) => {
    const parts: Buffer[] = bom ? [Buffer.from("\uFEFF")] : [];
    lines.forEach(([line, eol], i) => {
      if (line.kind === "row") parts.push(Buffer.from(JSON.stringify(line.row)));
      else if (line.kind === "badBytes") parts.push(insertBytes(Buffer.from(JSON.stringify(line.row)), line.at, line.bad));
      else parts.push(Buffer.from(line.text));
      if (i < lines.length - 1 || lastEol) parts.push(Buffer.from(eol));
    });
    const { bytes, at } = cutAt(Buffer.concat(parts), cut);
    return { bytes, lines: lines.map(([l]) => l), eols: lines.map(([, e]) => e), cutAt: at };
  });

/** What README promises for a JSONL file, line by line: a blank line is no row, a line is a row's record or its error. */
export function jsonlOracle(bytes: Buffer, notText: (head: Uint8Array) => string | undefined): { refused: true } | { refused: false; items: [number, number, unknown][] } {
  if (bytes.length === 0 || notText(bytes.subarray(0, 6)) !== undefined) return { refused: true };
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const segments: Buffer[] = [];
  for (let pos = 0; pos < body.length; ) {
    const nl = body.indexOf(10, pos);
    const stop = nl === -1 ? body.length : nl;
    segments.push(body.subarray(pos, stop));
    pos = stop + 1;
  }
  const items: [number, number, unknown][] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  for (const [i, segment] of segments.entries()) {
    let text: string;
    try {
      text = decoder.decode(segment);
    } catch {
      items.push([items.length + 1, i + 1, "DATASET_ROW_INVALID"]);
      continue;
    }
    if (!text.startsWith("{") && text.startsWith("\uFEFF")) text = text.slice(1);
    if (!text.startsWith("{") && /^[ \t\r]*$/.test(text)) continue;
    if (items.length === 0) {
      const t = text.trim();
      if (t === "{") return { refused: true };
      const rest = t.slice(1).trimStart();
      if (t.startsWith("[") && (rest === "" || rest.startsWith("{"))) {
        let parses = true;
        try {
          JSON.parse(t);
        } catch {
          parses = false;
        }
        if (!parses) return { refused: true };
      }
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      items.push([items.length + 1, i + 1, "DATASET_ROW_INVALID"]);
      continue;
    }
    items.push([items.length + 1, i + 1, typeof value === "object" && value !== null && !Array.isArray(value) ? value : "DATASET_ROW_INVALID"]);
  }
  return items.length === 0 ? { refused: true } : { refused: false, items };
}

// --- CSV: a header, then rows; faults on rows are local (ragged, bad bytes, a broken closing quote) or not (a cut, a quote never closed).

const CSV_COLUMNS = ["id", "input", "output", "expected", "notes", "x y", "é"];

/** A cell: quoted when it must be (or when `quote`), `"` doubled inside quotes. */
function csvCell(value: string, quote: boolean, delimiter: string): string {
  const must = value.includes(delimiter) || value.includes('"') || value.includes("\n") || value.includes("\r") || (value !== "" && value.trim() === "");
  return quote || must ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A CSV file and the rows it must give up to its first fault that cannot be read past. */
export const fuzzCsv: fc.Arbitrary<FuzzedFile> = fc
  .record({
    columns: fc.integer({ min: 2, max: 4 }).chain((n) => fc.shuffledSubarray(CSV_COLUMNS, { minLength: n, maxLength: n })),
    delimiter: fc.constantFrom(",", ",", ";", "\t"),
    bom: fc.boolean(),
    eol: fuzzEol,
    lastEol: fc.boolean(),
    cut: fuzzCut,
    rows: fc.array(
      fc.record({
        values: fc.array(fuzzText, { minLength: 4, maxLength: 4 }),
        quote: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fault: fc.oneof(
          { weight: 14, arbitrary: fc.constant("row" as const) },
          { weight: 2, arbitrary: fc.constantFrom("blank", "ragged", "badBytes") },
          { weight: 1, arbitrary: fc.constantFrom("badQuote", "unclosed") },
        ),
        column: fc.nat(3),
        at: fraction,
        bad: fuzzBad,
        extra: fc.boolean(),
      }),
      { minLength: 1, maxLength: 10 },
    ),
  })
  .map(({ columns, delimiter, bom, eol, lastEol, cut, rows }) => {
    const n = columns.length;
    const parts: Buffer[] = [Buffer.from((bom ? "\uFEFF" : "") + columns.join(delimiter) + eol)];
    const units: { start: number; end: number; planned: Planned | "desync" }[] = [];
    let size = parts[0]!.length;
    const headerEnd = size;
    let lines = 1;
    rows.forEach((r, i) => {
      const values = r.values.slice(0, n);
      const quote = r.quote.slice(0, n);
      const column = r.column % n;
      let bytes: Buffer;
      let planned: Planned | "desync" | undefined = { line: lines + 1, record: Object.fromEntries(columns.map((c, k) => [c, values[k] === "" ? null : values[k]])) };
      const cells = values.map((v, k) => csvCell(v, quote[k]!, delimiter));
      switch (r.fault) {
        case "row":
          bytes = Buffer.from(cells.join(delimiter));
          break;
        case "blank":
          bytes = Buffer.from(r.extra ? "  " : "");
          planned = undefined;
          break;
        case "ragged":
          // One field more, or one fewer (of three or more: a lone blank field would be a blank line).
          bytes = Buffer.from((r.extra || n < 3 ? [...cells, "x"] : cells.slice(0, -1)).join(delimiter));
          planned = { line: lines + 1, error: true };
          break;
        case "badBytes": {
          const cell = textWithBadBytes(values[column]!, r.at, r.bad);
          const quoted = quote[column] || csvCell(values[column]!, false, delimiter) !== values[column];
          const wrapped = quoted ? Buffer.concat([Buffer.from('"'), Buffer.from(cell.toString("latin1").replaceAll('"', '""'), "latin1"), Buffer.from('"')]) : cell;
          bytes = Buffer.concat(cells.flatMap((c, k) => [...(k > 0 ? [Buffer.from(delimiter)] : []), k === column ? wrapped : Buffer.from(c)]));
          planned = { line: lines + 1, error: true };
          break;
        }
        case "badQuote":
          // Text after a closing quote: `"qabc"x`, which csv-parse (relax_quotes) takes as text, quotes and all.
          bytes = Buffer.from(cells.map((c, k) => (k === column ? `"q${values[k]!.replaceAll('"', '""')}"x` : c)).join(delimiter));
          planned = { line: lines + 1, any: true };
          break;
        case "unclosed":
          bytes = Buffer.from(cells.map((c, k) => (k === column ? `"${values[k]!.replaceAll('"', '""')}` : c)).join(delimiter));
          planned = "desync";
          break;
      }
      if (i < rows.length - 1 || lastEol) bytes = Buffer.concat([bytes, Buffer.from(eol)]);
      if (planned !== undefined) units.push({ start: size, end: size + bytes.length, planned });
      parts.push(bytes);
      size += bytes.length;
      lines += newlinesIn(bytes);
    });
    const whole = Buffer.concat(parts);
    const { bytes, at } = cutAt(whole, cut);
    const planned: Planned[] = [];
    let desync = false;
    for (const unit of units) {
      if (unit.planned === "desync" || unit.end > at) {
        desync = unit.start < at || unit.planned === "desync";
        break;
      }
      planned.push(unit.planned);
    }
    // The header cut, or nothing after it but blank lines: no data rows. (A last line cut to `""` is one blank
    // field, which the reader takes for a blank line when the file has more than one column.)
    const afterHeader = at <= headerEnd ? "" : bytes.subarray(headerEnd).toString("latin1").replace(/" *"$/, "");
    const refused = at < headerEnd - eol.length + 1 || /^[ \r\n]*$/.test(afterHeader);
    return { format: "csv" as const, name: "fuzz.csv", bytes, planned, desync, refused };
  });

// --- JSON arrays: elements in whitespace; faults are local (not an object, not JSON, bad bytes in a string) or not (unpaired brackets, a cut, text after the `]`).

type JsonElement =
  | { kind: "row"; row: Record<string, unknown> }
  | { kind: "notRow"; text: string }
  | { kind: "badBytes"; row: Record<string, unknown>; at: number; bad: number[]; text: string }
  | { kind: "syntax"; text: string };

const jsonElement: fc.Arbitrary<JsonElement> = fc.oneof(
  { weight: 14, arbitrary: fuzzRow.map((row) => ({ kind: "row" as const, row })) },
  // Elements that are no row object, or that JSON.parse refuses but whose brackets and quotes pair up: row errors, and reading goes on.
  { weight: 1, arbitrary: fc.constantFrom("5", '"text"', "[1]", "null", "[]", "true").map((text) => ({ kind: "notRow" as const, text })) },
  { weight: 1, arbitrary: fc.constantFrom('{"a":}', '{"a" 1}', '{"a":1,}', "{'a':1}", '{"a":tru}', "tru", "-").map((text) => ({ kind: "notRow" as const, text })) },
  { weight: 1, arbitrary: fc.record({ row: fuzzRow, at: fraction, bad: fuzzBad, text: fuzzText }).map((r) => ({ kind: "badBytes" as const, ...r })) },
  // Faults that leave the next element's start unknown: reading stops.
  { weight: 1, arbitrary: fc.constantFrom("}", ",", '{"a":[1}', '{"a":"x\ny"}', "x").map((text) => ({ kind: "syntax" as const, text })) },
);

const fuzzSpace = fc.array(fc.constantFrom(" ", "\t", "\n", "\r\n"), { maxLength: 3 }).map((a) => a.join(""));

/** A JSON-array file and the rows it must give up to its first fault that cannot be read past. */
export const fuzzJsonArray: fc.Arbitrary<FuzzedFile & { trailingComma: boolean }> = fc
  .record({
    bom: fc.boolean(),
    elements: fc.array(fc.tuple(jsonElement, fuzzSpace, fuzzSpace), { minLength: 1, maxLength: 10 }),
    lead: fuzzSpace,
    trail: fuzzSpace,
    trailingComma: fc.boolean(),
    after: fc.constantFrom("", "", "", '[{"a":1}]', "x"),
    cut: fuzzCut,
  })
  .map(({ bom, elements, lead, trail, trailingComma, after, cut }) => {
    const parts: Buffer[] = [Buffer.from(`${bom ? "\uFEFF" : ""}${lead}[`)];
    const open = parts[0]!.length - 1;
    let size = parts[0]!.length;
    const units: { start: number; end: number; planned: Planned | "desync" }[] = [];
    elements.forEach(([element, before, afterIt], i) => {
      if (i > 0) parts.push(Buffer.from(","));
      size += i > 0 ? 1 : 0;
      parts.push(Buffer.from(before));
      size += Buffer.byteLength(before);
      const line = newlinesIn(Buffer.concat(parts)) + 1;
      let bytes: Buffer;
      let planned: Planned | "desync";
      switch (element.kind) {
        case "row":
          bytes = Buffer.from(JSON.stringify(element.row));
          planned = { line, record: element.row };
          break;
        case "notRow":
          bytes = Buffer.from(element.text);
          planned = { line, error: true };
          break;
        case "badBytes": {
          const json = JSON.stringify(element.row);
          const bad = textWithBadBytes(element.text, element.at, element.bad, (part) => JSON.stringify(part).slice(1, -1));
          bytes = Buffer.concat([Buffer.from(`${json.slice(0, -1)}${json === "{}" ? "" : ","}"zz":"`), bad, Buffer.from('"}')]);
          planned = { line, error: true };
          break;
        }
        case "syntax":
          bytes = Buffer.from(element.text);
          planned = "desync";
          break;
      }
      units.push({ start: size, end: size + bytes.length, planned });
      parts.push(bytes, Buffer.from(afterIt));
      size += bytes.length + Buffer.byteLength(afterIt);
    });
    parts.push(Buffer.from(`${trailingComma ? "," : ""}${trail}]${after}`));
    const whole = Buffer.concat(parts);
    const { bytes, at } = cutAt(whole, cut);
    const planned: Planned[] = [];
    // Cut before the closing ] ends, or after it with some of the text that follows.
    let desync = at !== whole.length - after.length;
    for (const unit of units) {
      if (unit.planned === "desync" || unit.end > at) {
        desync = true;
        break;
      }
      planned.push(unit.planned);
    }
    return { format: "json" as const, name: "fuzz.json", bytes, planned, desync, refused: at <= open, trailingComma: trailingComma && !desync };
  });
