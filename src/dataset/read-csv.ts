/**
 * CSV (or TSV) with a header row, streamed with `csv-parse`. The header names the keys; every value is a
 * string, except that an empty cell is null (no value: an empty `expected` cell makes the row skipped, as
 * pandas and spreadsheets read it; an empty `output` is scored as ""), and a `metadata` column holding a
 * JSON object (text starting with `{`) is parsed into that object, so traces flattened to CSV keep
 * `metadata.expectedOutput` reachable by JSONPath.
 * Quoted values may span lines; a row's line is the line where it starts.
 */
import type { FileHandle } from "node:fs/promises";
import { parse, type CsvError, type Parser } from "csv-parse";
import type { EvalError } from "../errors.js";
import { datasetInvalid, fileProblem } from "./errors.js";
import { openDatasetFile, readReusedChunks, SAVED_IN_LEGACY_ENCODING, Utf8Sanitizer } from "./read-bytes.js";
import { isRowObject, itemsOf, rowError, shortMessage, type DatasetItem } from "./rows.js";

/** The column whose JSON-object text becomes an object. */
const CSV_JSON_COLUMN = "metadata";

const EXPECTED = "a header row naming the columns, then one row per line";

/**
 * Marks what csv-parse must not decode as it is: U+FFFF, a noncharacter. (csv-parse would decode an invalid
 * byte to U+FFFD, which text may hold.) A U+FFFF of the file is doubled ({@link doubleMarks}), and an invalid
 * byte becomes {@link INVALID}, so that a value tells the two apart ({@link unmark}): a valid U+FFFF in one row
 * was read as an invalid byte once another row had one.
 */
const MARK = "\uFFFF";
const MARK_BYTES = Buffer.from(MARK);
/** Stands in for an invalid UTF-8 byte: {@link MARK}, then anything but a second one. */
const INVALID = "\uFFFF\uFFFE";

/** `bytes` with each U+FFFF doubled (see {@link MARK}). */
function doubleMarks(bytes: Buffer): Buffer {
  let i = bytes.indexOf(MARK_BYTES);
  if (i === -1) return bytes;
  const parts: Buffer[] = [];
  let from = 0;
  while (i !== -1) {
    parts.push(bytes.subarray(from, i + MARK_BYTES.length), MARK_BYTES);
    from = i + MARK_BYTES.length;
    i = bytes.indexOf(MARK_BYTES, from);
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/**
 * A field as the file holds it: `text` with each doubled {@link MARK} made one again, and `bad`, the index in
 * `text` of its first invalid byte, or -1 when it has none (`text` is then the value).
 */
function unmark(field: string): { text: string; bad: number } {
  let i = field.indexOf(MARK);
  if (i === -1) return { text: field, bad: -1 };
  let text = "";
  let from = 0;
  while (i !== -1) {
    if (field.charCodeAt(i + 1) !== 0xffff) return { text: text + field.slice(from), bad: text.length + i - from };
    text += field.slice(from, i + 1);
    from = i + 2;
    i = field.indexOf(MARK, from);
  }
  return { text: text + field.slice(from), bad: -1 };
}

/**
 * Line breaks in `field`: quoted values may hold them, which move the row's start line up. `lineBreak` is the
 * character that ends the file's lines: `\n` (LF and CRLF files), or `\r` in a file whose lines end in `\r`
 * alone (old Mac "CSV (Macintosh)"), see {@link lineBreakOf}.
 */
function countLineBreaks(field: string, lineBreak: "\n" | "\r"): number {
  let n = 0;
  let i = field.indexOf(lineBreak);
  while (i !== -1) {
    n++;
    i = field.indexOf(lineBreak, i + 1);
  }
  return n;
}

/**
 * The character {@link countLineBreaks} counts, from the line ending csv-parse found after the first line
 * (`\r\n`, `\n` or `\r`): `\r` where it is `\r` alone, else `\n`. Before it has found one, no record has
 * ended at a line break, so `\n` until then.
 */
function lineBreakOf(parser: Parser): "\n" | "\r" {
  const found = parser.options.record_delimiter[0];
  return found !== undefined && found.length === 1 && found[0] === 0x0d ? "\r" : "\n";
}

/** Only spaces, tabs and `\r` (a CRLF file read with `\n` as the record delimiter leaves the `\r`). */
function isBlank(field: string): boolean {
  return /^[ \t\r]*$/.test(field);
}

/** A header column named `ID` (or `Id`) and none `id`: rows take their ids from `id` alone, so these have none, unsaid. */
function idColumnWarning(line: number, name: string): string {
  return `line ${line}: the header has a column "${name}" and none named "id", from which alone rows take their ids, so these rows have none; rename the column "id" to give them theirs`;
}

/** What a header that is not UTF-8 nearly always is, and how to convert it, as `run` says of rows that are not. */
const LEGACY_ENCODING = `The file was probably ${SAVED_IN_LEGACY_ENCODING}`;

/**
 * Checks the header: every column needs a name, and names must differ. Names are trimmed. Columns with no
 * name after the last named one (a spreadsheet's empty columns, exported as trailing separators: `id,output,,`)
 * are kept as "" names: their cells must be empty (see {@link toItem}).
 */
function readHeader(path: string, fields: string[]): string[] | EvalError {
  const names: string[] = [];
  const seen = new Map<string, number>();
  let named = fields.length;
  while (named > 0 && fields[named - 1]!.trim() === "") named--;
  for (const [i, marked] of fields.entries()) {
    const { text: field, bad } = unmark(marked);
    if (bad !== -1) return datasetInvalid(path, `the header's column ${i + 1} is not valid UTF-8; expected UTF-8 text. ${LEGACY_ENCODING}`);
    const name = field.trim();
    if (name === "" && i >= named && named > 0) {
      names.push("");
      continue;
    }
    if (name === "") return datasetInvalid(path, `the header's column ${i + 1} has no name; expected ${EXPECTED}`);
    const before = seen.get(name);
    if (before !== undefined) {
      return datasetInvalid(path, `the header names column "${name}" twice (columns ${before} and ${i + 1}); expected unique column names`);
    }
    seen.set(name, i + 1);
    names.push(name);
  }
  return names;
}

/**
 * One data row to an item: field count, UTF-8, and the `metadata` column. `named`: the header's named columns
 * (the rest are nameless trailing columns, whose cells, if the row has them, must be empty). `marked`: whether
 * the file has held a {@link MARK} so far (an invalid byte or a U+FFFF), so that fields need {@link unmark}.
 */
function toItem(header: string[], named: number, fields: string[], row: number, line: number, sep: string, marked: boolean): DatasetItem {
  const at = `line ${line}: `;
  if (fields.length < named || fields.length > header.length) {
    const got = `${fields.length} field${fields.length === 1 ? "" : "s"}`;
    const expected = named === header.length ? `${header.length}` : `${named} to ${header.length} (${named} named, then ${header.length - named} without a name)`;
    return rowError(row, line, `${at}${got}, but the header has ${header.length}; expected ${expected} fields separated by "${sep === "\t" ? "\\t" : sep}" (quote values that contain one)`);
  }
  const record: Record<string, unknown> = {};
  for (let i = named; i < fields.length; i++) {
    if (!isBlank(fields[i]!)) return rowError(row, line, `${at}column ${i + 1} holds a value, but the header gives it no name; expected a name for it in the header, or an empty cell`);
  }
  for (let i = 0; i < named; i++) {
    const field = fields[i]!;
    const name = header[i]!;
    const { text, bad } = marked ? unmark(field) : { text: field, bad: -1 };
    if (bad !== -1) {
      return rowError(row, line, `${at}column "${name}" is not valid UTF-8 (at character ${bad + 1} of the value); expected UTF-8 text`);
    }
    let value: unknown = text === "" ? null : text;
    if (name === CSV_JSON_COLUMN && text.trimStart().startsWith("{")) {
      try {
        value = JSON.parse(text);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        return rowError(row, line, `${at}column "${name}" starts with "{" but is not valid JSON (${shortMessage(why)}); expected a JSON object or plain text`);
      }
      if (!isRowObject(value)) value = text;
    }
    // A column named "__proto__" must be a plain key, not the prototype setter.
    if (name === "__proto__") Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
    else record[name] = value;
  }
  return { row, line, record };
}

/** csv-parse's message without its own (CRLF-miscounted) `at line N`. */
function describeCsvError(err: CsvError): string {
  if (err.code === "CSV_QUOTE_NOT_CLOSED") return `a quoted value opened in this row is never closed; expected a closing " (write "" for a quote inside a quoted value)`;
  return shortMessage(err.message.replace(/,? at line \d+.*$/s, "").replace(/^[\w ]+: /, ""));
}

/**
 * Reads a CSV file row by row (`delimiter` "\t" for TSV; with ",", a header with more tabs or semicolons
 * than commas makes it "\t" or ";", see {@link sniffDelimiter}; a first line `sep=;` makes it ";" whatever was given,
 * see {@link SEP_LINE}). Whole-file problems (missing, empty, no header,
 * a header with an empty name before its last named column, or a repeated name, a header that is JSON (see {@link headerAsJson}), no data rows)
 * throw DATASET_INVALID. A row with the wrong number
 * of fields, invalid UTF-8 or a broken quote is a row error, and reading goes on. Blank lines are skipped (in a file of one column, a quoted blank value such as `""` is a row, not a blank line);
 * a BOM is skipped. With `signal`, an abort rejects the pending `next()` with `signal.reason`.
 */
export function readCsv(path: string, signal?: AbortSignal, delimiter = ","): AsyncIterableIterator<DatasetItem> {
  return itemsOf(readCsvBatches(path, signal, delimiter), signal);
}

/**
 * The file's chunks with a leading BOM cut off, each U+FFFF doubled and each invalid UTF-8 byte marked (see
 * {@link MARK}); `seen.marks` counts both. U+FFFF is doubled before the bytes are checked, so that the marks of
 * invalid bytes are not: its bytes (EF BF BF) are that character wherever they are, as EF is never a
 * continuation byte; a read that ends in its first one or two bytes holds them for the next.
 */
async function* prepare(chunks: AsyncIterable<Buffer>, seen: { marks: number }): AsyncGenerator<Buffer> {
  const utf8 = new Utf8Sanitizer(Buffer.from(INVALID));
  let held: Buffer | undefined;
  const check = ({ bytes, bad }: { bytes: Buffer; bad: number[] }): Buffer => {
    seen.marks += bad.length;
    return bytes;
  };
  for await (const chunk of chunks) {
    const data = held === undefined ? chunk : Buffer.concat([held, chunk]);
    const n = data.length;
    const keep = n >= 2 && data[n - 2] === 0xef && data[n - 1] === 0xbf ? 2 : data[n - 1] === 0xef ? 1 : 0;
    held = keep === 0 ? undefined : Buffer.from(data.subarray(n - keep));
    const doubled = doubleMarks(data.subarray(0, n - keep));
    seen.marks += (doubled.length - (n - keep)) / MARK_BYTES.length;
    const bytes = check(utf8.push(doubled));
    if (bytes.length > 0) yield bytes;
  }
  const rest = held === undefined ? [] : [check(utf8.push(held))];
  const bytes = Buffer.concat([...rest, check(utf8.end())]);
  if (bytes.length > 0) yield bytes;
}

/** How many leading bytes {@link firstLine} reads. */
const FIRST_LINE_BYTES = 1 << 16;

/**
 * The header row's text as found in the file's first 64 KiB (the first line that is not blank, without its
 * `\r`), and whether it goes on past them. Lines end as the first one does, as csv-parse finds them: at `\r`
 * if that is `\r` alone (old Mac "CSV (Macintosh)"), else at `\n`. Reads at position 0, which leaves the
 * handle's own position alone.
 */
async function firstLine(handle: FileHandle): Promise<{ text: string; cut: boolean }> {
  const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(FIRST_LINE_BYTES), position: 0 });
  const text = buffer.subarray(0, bytesRead).toString("utf8").replace(/^\uFEFF/, "");
  const lines = text.split(/^[^\r\n]*\r(?!\n)/.test(text) ? "\r" : "\n");
  const at = lines.findIndex((l) => !isBlank(l));
  if (at === -1) return { text: "", cut: false };
  return { text: lines[at]!.replace(/\r$/, ""), cut: at === lines.length - 1 && bytesRead === FIRST_LINE_BYTES };
}

/**
 * The separator the header row holds most of outside quotes: "," (ties go to it), else "\t" (a tab-separated
 * file named .csv, as spreadsheets save "Text (Tab delimited)" and many tools export), else ";", as
 * spreadsheets write CSV in locales where the comma is the decimal mark. Counted, not merely looked for: a
 * semicolon-separated header whose last name has a comma (`id;output;Notes (internal, do not share)`) is
 * read with ";", where reading it with "," made every row ragged.
 */
function sniffDelimiter(header: string): "," | ";" | "\t" {
  let commas = 0;
  let tabs = 0;
  let semicolons = 0;
  let quoted = false;
  for (const c of header) {
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === ",") commas++;
    else if (c === "\t") tabs++;
    else if (c === ";") semicolons++;
  }
  if (commas >= tabs && commas >= semicolons) return ",";
  return tabs >= semicolons ? "\t" : ";";
}

/**
 * A first line `sep=;` (or `,`, tab, `|`), which Excel reads, and some tools write, to name the delimiter of
 * the lines after it: the header is the next line.
 */
const SEP_LINE = /^sep=([,;\t|])$/;

/** A JSON object's opening up to its first key's colon: `{"output":`. */
const JSON_OBJECT_START = /^\{\s*"(?:[^"\\]|\\.)*"\s*:/;

/**
 * What the header row is instead of column names when it is JSON: "jsonl" for a JSON object (the whole
 * line parses as one, or, when it goes on past the first 64 KiB, it opens as one: `{"key":`), "json" for
 * a line opening a JSON array of objects (`[{"key":`). Undefined for anything else, also a real header whose
 * first name starts with `{` (`{id},text` is not JSON).
 */
function headerAsJson(header: { text: string; cut: boolean }): "jsonl" | "json" | undefined {
  const text = header.text.trim();
  if (text.startsWith("[")) return JSON_OBJECT_START.test(text.slice(1).trimStart()) ? "json" : undefined;
  if (!text.startsWith("{")) return undefined;
  if (header.cut) return JSON_OBJECT_START.test(text) ? "jsonl" : undefined;
  try {
    return isRowObject(JSON.parse(text)) ? "jsonl" : undefined;
  } catch {
    return undefined;
  }
}

/** {@link readCsv}'s rows, one array per read of the file; `onBytes` is told, before each, the bytes its rows and those before took. */
export async function* readCsvBatches(
  path: string,
  signal?: AbortSignal,
  given = ",",
  onBytes?: (bytes: number) => void,
  onWarning?: (message: string) => void,
): AsyncGenerator<DatasetItem[]> {
  const handle = await openDatasetFile(path, EXPECTED);
  let header1: { text: string; cut: boolean };
  try {
    header1 = await firstLine(handle);
  } catch (err) {
    await handle.close();
    throw fileProblem(path, err);
  }
  // Read as CSV, a JSON line splits at its commas into nonsense columns and rows: say what the file is instead.
  const json = headerAsJson(header1);
  if (json !== undefined) {
    await handle.close();
    const what = json === "jsonl" ? "a JSON object, so the file looks like JSONL (one JSON object per line): name it .jsonl" : "the start of a JSON array, so the file looks like a JSON array of row objects: name it .json";
    throw datasetInvalid(path, `the header row is ${what}; expected ${EXPECTED}`);
  }
  // Excel's `sep=;` line names the delimiter, and is not the header.
  const sepLine = SEP_LINE.exec(header1.text)?.[1];
  const delimiter = sepLine ?? (given === "," ? sniffDelimiter(header1.text) : given);
  let skipSepLine = sepLine !== undefined;
  // A file of one column writes an empty value as `""` alone on its line (Python's csv module and pandas do), which
  // csv-parse gives as one empty field, as it gives a blank line: only the raw text, with its quotes, tells the row
  // from the blank line. It costs, so it is asked for only then (a `sep=` line hides the header: not then).
  const oneColumn = sepLine === undefined && !header1.text.includes(delimiter);
  /** Broken records, with how many records csv-parse had emitted before each (to put it in its place). */
  const skips: { before: number; err: CsvError }[] = [];
  const parser = parse({
    delimiter,
    encoding: "utf8", // invalid bytes were replaced by INVALID first (see `prepare`)
    relax_column_count: true, // a ragged row is a row error, reported by us with both counts
    relax_quotes: true, // `5" screen` in an unquoted value is text, not an error
    // Empty lines come through as one empty field, so that we can count lines ourselves: csv-parse's own
    // count (and the `info` object behind it, a fifth of the parse time) miscounts CRLF inside quotes.
    skip_empty_lines: false,
    skip_records_with_error: true,
    raw: oneColumn,
    on_skip: (err: CsvError | undefined): undefined => {
      if (err !== undefined) skips.push({ before: typeof err["records"] === "number" ? err["records"] : Number.MAX_SAFE_INTEGER, err });
    },
  });
  const seen = { marks: 0 };
  // Errors are taken from write() and `errored` below; without a listener, the stream's own "error" event would crash the process.
  parser.on("error", () => undefined);

  let header: string[] | undefined;
  /** The header's named columns: those before its trailing nameless ones. */
  let named = 0;
  let out: DatasetItem[] = [];
  let row = 0;
  /** The line the next record starts on, and how many records csv-parse has given us. */
  let line = 1;
  let records = 0;
  const takeSkips = (upTo: number): void => {
    while (skips.length > 0 && skips[0]!.before <= upTo) {
      const { err } = skips.shift()!;
      if (header === undefined) throw datasetInvalid(path, `the header row (line ${line}) cannot be read: ${describeCsvError(err)}`);
      row++;
      // csv-parse reports an unclosed quote at the end of the file: every line after it went into the value.
      if (err.code === "CSV_QUOTE_NOT_CLOSED") out.push(rowError(row, line, `line ${line}: ${describeCsvError(err)}. Every later line was read into that value, so the rest of the file is not in the run`, "DATASET_READ_STOPPED"));
      else out.push(rowError(row, line, `line ${line}: ${describeCsvError(err)}`));
    }
  };

  /** A record's fields, with its raw text when asked for (`raw`). */
  type Parsed = string[] | { record: string[]; raw: string };
  const take = (value: Parsed): void => {
    const record = Array.isArray(value) ? value : value.record;
    const quoted = !Array.isArray(value) && value.raw.includes('"');
    takeSkips(records);
    records++;
    const start = line;
    line++;
    const lineBreak = lineBreakOf(parser);
    for (const field of record) line += countLineBreaks(field, lineBreak);
    // An empty line, or one of spaces, is one blank field: not a row (nor a ragged one). In a file of one column, a
    // quoted one (`""`, `"  "`) is a row.
    if (record.length === 1 && isBlank(record[0]!) && !quoted) return;
    if (header === undefined) {
      if (skipSepLine) {
        skipSepLine = false;
        return;
      }
      const result = readHeader(path, record);
      if (!Array.isArray(result)) throw result;
      header = result;
      named = result.indexOf("") === -1 ? result.length : result.indexOf("");
      const idLike = result.includes("id") ? undefined : result.find((name) => name.toLowerCase() === "id");
      if (idLike !== undefined) onWarning?.(idColumnWarning(start, idLike));
      return;
    }
    row++;
    out.push(toItem(header, named, record, row, start, delimiter, seen.marks > 0));
  };
  /** A value longer than a string can be (~512 MiB): csv-parse cannot go past it. The rows before it stand; the read stops there, as at a quote that is never closed. */
  const tooLong = (): DatasetItem[] => {
    takeSkips(records);
    if (header === undefined) throw datasetInvalid(path, `the header row (line ${line}) is longer than the longest text Node.js can hold (about 512 MiB); expected ${EXPECTED}`);
    row++;
    out.push(rowError(row, line, `line ${line}: a value is longer than the longest text Node.js can hold (about 512 MiB), so the file cannot be read past it: the rest of the file is not in the run`, "DATASET_READ_STOPPED"));
    return out;
  };
  const tooLongOrThrow = (error: unknown): void => {
    if ((error as { code?: unknown } | null)?.code !== "ERR_STRING_TOO_LONG") throw error;
  };

  /**
   * The rows taken so far as a batch, `onBytes` told first where csv-parse is: the end of the last record it gave (in
   * the bytes it was given, which are the file's but for a U+FFFF doubled or a BOM cut).
   */
  const batch = (): DatasetItem[] => {
    if (signal?.aborted === true) throw signal.reason;
    onBytes?.(parser.info.bytes);
    const rows = out;
    out = [];
    return rows;
  };

  // csv-parse parses what it is written at once (a Transform stream's write runs its transform), and its records are
  // taken with read() until none is left: no promise a record, as its async iterator made. Each read of the file is
  // copied, as csv-parse keeps the last bytes it cannot decide on yet as a view of it, which the next read would write over.
  for await (const chunk of prepare(readReusedChunks(path, handle, signal), seen)) {
    try {
      parser.write(Buffer.from(chunk));
      if (parser.errored) throw parser.errored;
    } catch (error) {
      tooLongOrThrow(error);
      yield tooLong();
      return;
    }
    for (let value = parser.read() as Parsed | null; value !== null; value = parser.read() as Parsed | null) take(value);
    if (out.length > 0) yield batch();
  }
  // The records the end of the file completes, and the error of a quote never closed.
  parser.end();
  try {
    for await (const value of parser as AsyncIterable<Parsed>) take(value);
  } catch (error) {
    tooLongOrThrow(error);
    yield tooLong();
    return;
  }
  takeSkips(Number.MAX_SAFE_INTEGER);
  // The last batch (the records the end of the file completed) is told too, as every batch before it.
  if (out.length > 0) yield batch();
  if (header === undefined) throw datasetInvalid(path, `no header row (only blank lines); expected ${EXPECTED}`);
  if (row === 0) throw datasetInvalid(path, `has a header row but no data rows; expected ${EXPECTED}`);
}
