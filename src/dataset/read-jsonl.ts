/**
 * JSONL (one JSON object per line) read as a stream of lines over bytes: `\n` or `\r\n`, a last line without
 * a newline, lines of any length (a line longer than a read is carried across reads). Blank lines are not rows.
 */
import { constants, isAscii, isUtf8 } from "node:buffer";
import { jsonFault, jsonParseMessage } from "../json-error-place.js";
import { datasetInvalid } from "./errors.js";
import { firstInvalidUtf8, openDatasetFile, readReusedChunks } from "./read-bytes.js";
import { describeJsonKind, isRowObject, itemsOf, recordItem, rowError, shortMessage, type DatasetItem, type UnparsedRow } from "./rows.js";

const EXPECTED = "one JSON object per line (JSONL)";
/** JSON's whitespace; a line holding only these is blank, not a row. */
const BLANK = /^[ \t\r]*$/;

/**
 * The most bytes decoded into one string: 32 KiB. V8 puts a string of more than 128 KiB (a UTF-16 one of more
 * than 64K characters) in its large-object space, pages of its own mapped for it and unmapped when it dies:
 * decoding each 256 KiB read whole, 1M short rows took twice the time and four times the page faults.
 */
const DECODE_BYTES = 32 * 1024;

/**
 * Where the piece of `region` to decode from `from` ends: just past the last `\n` within DECODE_BYTES, or
 * past the line that goes on beyond them; the region's end at the latest.
 */
function pieceEnd(region: Buffer, from: number): number {
  if (region.length - from <= DECODE_BYTES) return region.length;
  const cut = region.lastIndexOf(10, from + DECODE_BYTES - 1);
  if (cut >= from) return cut + 1;
  const nl = region.indexOf(10, from + DECODE_BYTES);
  return nl === -1 ? region.length : nl + 1;
}

/**
 * Turns complete lines into items. Kept apart from the file reading so that the hot loop is plain synchronous
 * code: one native ASCII/UTF-8 check per read and one decode per piece of it (see {@link DECODE_BYTES}), then
 * `indexOf("\n")` + `JSON.parse` per line.
 */
export class JsonlLines {
  /** Rows seen (blank lines are not rows). */
  row = 0;
  /** Lines seen. */
  line = 0;
  /** Set when the first row opens a JSON value that goes on over the next lines (see {@link opensMultilineJson}). */
  multiline: { line: number; kind: "array" | "object" } | undefined;

  /**
   * With `unparsed`, rows are handed out as {@link UnparsedRow}s, to be parsed later by {@link parseJsonlRow}.
   * `maxLineBytes`: a longer line is a row error, not a string: Node.js cannot hold a string of more than
   * `constants.MAX_STRING_LENGTH` characters (about 512 MiB), and decoding one throws.
   */
  constructor(
    private readonly unparsed = false,
    private readonly maxLineBytes: number = constants.MAX_STRING_LENGTH,
  ) {}

  /** Parses `region`: whole lines, each ending in `\n` except perhaps the file's last. */
  push(region: Buffer, out: (DatasetItem | UnparsedRow)[]): void {
    // ASCII (most datasets) decodes as latin1 at about 4x the speed of the UTF-8 decoder, to the same string.
    const ascii = region.length <= this.maxLineBytes && isAscii(region);
    if (ascii || (region.length <= this.maxLineBytes && isUtf8(region))) {
      for (let from = 0; from < region.length; ) {
        const end = pieceEnd(region, from);
        const text = region.toString(ascii ? "latin1" : "utf8", from, end);
        let pos = 0;
        while (pos < text.length) {
          const nl = text.indexOf("\n", pos);
          const stop = nl === -1 ? text.length : nl;
          this.line++;
          this.parseLine(text.slice(pos, stop), out);
          pos = stop + 1;
        }
        from = end;
      }
      return;
    }
    // Rare path: some line here has invalid UTF-8, or is too long to decode. Check line by line so the good lines still count.
    let pos = 0;
    while (pos < region.length) {
      const nl = region.indexOf(10, pos);
      const stop = nl === -1 ? region.length : nl;
      this.line++;
      if (stop - pos > this.maxLineBytes) {
        this.row++;
        out.push(rowError(this.row, this.line, `line ${this.line}: ${stop - pos} bytes, longer than the longest text Node.js can hold (${this.maxLineBytes} characters); expected ${EXPECTED}`));
        pos = stop + 1;
        continue;
      }
      const bad = firstInvalidUtf8(region, pos, stop);
      if (bad === -1) this.parseLine(region.toString("utf8", pos, stop), out);
      else {
        this.row++;
        out.push(rowError(this.row, this.line, `line ${this.line}: not valid UTF-8 at byte ${bad - pos + 1} of the line; expected UTF-8 text`));
      }
      pos = stop + 1;
    }
  }

  private parseLine(line: string, out: (DatasetItem | UnparsedRow)[]): void {
    let text = line;
    // A `{` first is nearly every line; only other lines pay for the BOM and blank tests. A BOM starting a
    // line other than the first is where files were joined (`cat a.jsonl b.jsonl`): skipped as the first is.
    if (text.charCodeAt(0) !== 123) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (BLANK.test(text)) return;
    }
    if (this.row === 0) {
      const kind = opensMultilineJson(text);
      if (kind !== undefined) this.multiline = { line: this.line, kind };
    }
    this.row++;
    // The line as it is, a BOM kept: parseJsonlRow skips it, and counts it in the column it names.
    out.push(this.unparsed ? { row: this.row, line: this.line, json: line } : parseJsonlRow({ row: this.row, line: this.line, json: line }));
  }
}

/**
 * "array" for a line that opens a JSON array and does not close it (`[`, or `[{"id": 1},` of a JSON array
 * written one element per line), "object" for a line that is only `{` (objects written over several lines,
 * as `jq .` or an indenting JSON writer prints them), else undefined. As a file's first row, either means that
 * the file is not JSONL: every one of its lines would be a row error of its own.
 */
function opensMultilineJson(line: string): "array" | "object" | undefined {
  const text = line.trim();
  if (text === "{") return "object";
  if (!text.startsWith("[")) return undefined;
  const rest = text.slice(1).trimStart();
  if (rest !== "" && !rest.startsWith("{")) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    return "array";
  }
}

/**
 * A JSONL line as a row: its record, or why it is not one. A BOM starting the line (where files were
 * joined) is skipped, and still counted in a column: it is the line's first character in an editor.
 */
export function parseJsonlRow({ row, line, json }: UnparsedRow): DatasetItem {
  const bom = json.charCodeAt(0) === 0xfeff ? 1 : 0;
  const text = bom ? json.slice(1) : json;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return rowError(row, line, `line ${line}: not valid JSON (${whyNotJson(text, err, bom)}); expected ${EXPECTED}`);
  }
  if (isRowObject(value)) return recordItem(row, line, value);
  return rowError(row, line, `line ${line}: expected a JSON object per line, found ${describeJsonKind(value)}${arrayOfRowsHint(value)}`);
}

/**
 * For a JSONL line that is an array of row objects (`JSON.stringify(rows)` written to a .jsonl file, the whole
 * dataset on one line): what the file looks like and how it is read, since the bare "found an array" left the
 * fix to guess. Empty otherwise.
 */
function arrayOfRowsHint(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isRowObject)) return "";
  const rows = value.length === 1 ? "1 row object" : `${value.length.toLocaleString("en-US")} row objects`;
  return ` of ${rows}: a JSON array of rows is read from a .json file, so name the file .json (or write one object per line)`;
}

/**
 * JSON.parse's complaint about a line ({@link jsonParseMessage}) and the column where it stopped, counted
 * from 1 as editors do. A CRLF file's lines keep their "\r", which JSON reads as
 * white space; in a line that is not JSON, it is left out, so that an unclosed string is not "a bad
 * control character" one column past the line's end. `before`: the units of the line before `json` (a BOM
 * skipped), counted in the column.
 */
function whyNotJson(json: string, error: unknown, before: number): string {
  let text = json;
  let err = error;
  if (json.endsWith("\r")) {
    text = json.slice(0, -1);
    try {
      JSON.parse(text);
    } catch (e) {
      err = e;
    }
  }
  const why = jsonParseMessage(err);
  const fault = jsonFault(text, err);
  const note = fault && (fault.note || afterObjectNote(why, text, fault.offset));
  return `${shortMessage(why)}${fault ? ` at column ${before + fault.offset + 1} of the line${note}` : ""}`;
}

/**
 * What is after a line's whole JSON value (at `offset` of `text`), where JSON.parse says only "Unexpected non-whitespace
 * character after JSON": a comma (objects separated as in an array) or a second object, which a JSONL line cannot hold;
 * one after a carriage return is the next line of a file whose lines end in a CR alone (classic Mac OS), which is one
 * line here.
 */
function afterObjectNote(why: string, text: string, offset: number): string {
  if (!why.includes("after JSON")) return "";
  const found = text[offset];
  if (found === ",") return " (a comma after the value: a JSONL line holds one object, with nothing after it)";
  if (found === "{" && /\r[ \t]*$/.test(text.slice(0, offset))) {
    return " (a second object after a carriage return: the file's lines seem to end in a CR alone, as classic Mac OS wrote them, where JSONL lines end in LF or CRLF; convert them, e.g. tr '\\r' '\\n' < FILE > FILE-lf)";
  }
  if (found === "{") return " (a second object on the line: write one object per line)";
  return "";
}

/** Throws DATASET_INVALID when the first row opens a JSON value that goes on over the next lines. */
function notMultiline(path: string, lines: JsonlLines): void {
  const found = lines.multiline;
  if (found === undefined) return;
  const at = `line ${found.line}`;
  throw datasetInvalid(
    path,
    found.kind === "array"
      ? `${at} opens a JSON array that goes on over the next lines, so the file looks like a JSON array of row objects: name it .json; expected ${EXPECTED}`
      : `${at} is only "{", so the file looks like JSON objects written over several lines; expected ${EXPECTED}: write each object on one line, e.g. jq -c . FILE`,
  );
}

/**
 * Reads a JSONL file row by row. Whole-file problems (missing, a directory, empty, no rows, a first row that
 * opens a JSON array or object going on over the next lines: {@link opensMultilineJson}) throw DATASET_INVALID; a bad line is yielded as a row error and reading goes on. A BOM at the start is skipped.
 * With `signal`, an abort rejects the pending `next()` with `signal.reason`.
 */
export function readJsonl(path: string, signal?: AbortSignal): AsyncIterableIterator<DatasetItem> {
  return itemsOf(readJsonlBatches(path, signal), signal);
}

/**
 * {@link readJsonl}'s rows, one array per read of the file (`CHUNK_BYTES` of lines); with `unparsed`, as
 * {@link UnparsedRow}s (lines that are not valid UTF-8 are row errors all the same).
 */
export function readJsonlBatches(path: string, signal?: AbortSignal): AsyncGenerator<DatasetItem[]>;
export function readJsonlBatches(path: string, signal: AbortSignal | undefined, unparsed: boolean): AsyncGenerator<(DatasetItem | UnparsedRow)[]>;
export async function* readJsonlBatches(path: string, signal?: AbortSignal, unparsed = false): AsyncGenerator<(DatasetItem | UnparsedRow)[]> {
  const handle = await openDatasetFile(path, EXPECTED);
  const lines = new JsonlLines(unparsed);
  // Pieces of a line that has not ended yet; usually empty or one chunk tail.
  let carry: Buffer[] = [];
  // Each chunk is written over by the next read: what is carried over is copied.
  for await (const chunk of readReusedChunks(path, handle, signal)) {
    const last = chunk.lastIndexOf(10);
    if (last === -1) {
      carry.push(Buffer.from(chunk));
      continue;
    }
    let region = chunk.subarray(0, last + 1);
    if (carry.length > 0) {
      carry.push(region);
      region = Buffer.concat(carry);
      carry = [];
    }
    if (last + 1 < chunk.length) carry.push(Buffer.from(chunk.subarray(last + 1)));
    const items: (DatasetItem | UnparsedRow)[] = [];
    lines.push(region, items);
    notMultiline(path, lines);
    if (signal?.aborted === true) throw signal.reason;
    if (items.length > 0) yield items;
  }
  if (carry.length > 0) {
    const items: (DatasetItem | UnparsedRow)[] = [];
    lines.push(Buffer.concat(carry), items);
    notMultiline(path, lines);
    if (items.length > 0) yield items;
  }
  if (lines.row === 0) throw datasetInvalid(path, `no rows (only blank lines); expected ${EXPECTED}`);
}
