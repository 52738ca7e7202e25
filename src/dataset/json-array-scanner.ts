/**
 * The top-level elements of a JSON array found in its bytes, read chunk by chunk: {@link JsonArrayScanner}.
 * It reads what delimits an element (brackets, strings and their escapes, commas), not what it holds, so that it
 * reads a file at about seven times the speed of a JSON tokenizer written in JavaScript; JSON.parse then reads
 * each element (`parseArrayElement`, on a scoring thread in a run).
 */
import { constants, isAscii, isUtf8 } from "node:buffer";
import { LINE_BREAK } from "../json-error-place.js";
import { datasetInvalid } from "./errors.js";
import { firstInvalidUtf8, utf8SequenceLength } from "./read-bytes.js";
import { rowError, shortMessage, type DatasetItem, type UnparsedRow } from "./rows.js";

/** What a JSON array dataset should be, for messages. */
export const EXPECTED = "a JSON array of row objects";
const STOPPED_NOTE = ". Reading stopped here: the rest of the file is not in the run";

/** Where the scanner is: before the `[`, after it, inside an element, after one, after a comma, after the `]`, or stopped at a fault. */
type State = "before" | "first" | "element" | "after" | "comma" | "closed" | "stopped";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** JSON's white space: space, tab, CR, LF. */
function isSpace(b: number): boolean {
  return b === 0x20 || b === NEWLINE || b === 0x0d || b === 0x09;
}

/** Bytes that end a bare element (a number, `true`, …): white space and JSON's punctuation but `:`. */
function endsBare(b: number): boolean {
  return isSpace(b) || b === COMMA || b === CLOSE_BRACKET || b === CLOSE_BRACE || b === OPEN_BRACKET || b === OPEN_BRACE || b === QUOTE;
}

/** Bytes a JSON value may start with: `{ [ "`, `-`, a digit, and `t f n` (true, false, null). */
function startsValue(b: number): boolean {
  return b === OPEN_BRACE || b === OPEN_BRACKET || b === QUOTE || b === 0x2d || (b >= 0x30 && b <= 0x39) || b === 0x74 || b === 0x66 || b === 0x6e;
}

/**
 * Finds the elements of a JSON array in its bytes, given chunk by chunk, and turns each into an item: an
 * {@link UnparsedRow} (with `byte`, for `parseArrayElement`), or the row error of an element that cannot be one.
 *
 * It reads what delimits an element (brackets, strings and their escapes, commas), not what it holds: an element
 * whose brackets and quotes pair up is one row, whatever JSON.parse then makes of it (a row error if it refuses
 * it), and reading goes on. What leaves the next element's start unknown stops the read with a last
 * DATASET_READ_STOPPED item: a bracket closed by the other kind, a line break inside a string (most often a string
 * left unclosed), anything but a comma or `]` after an element, two commas, anything but white space after the
 * closing `]` (a second array's rows would be left out silently), and the end of the file before the `]`.
 * An element of more than `maxElementBytes` (what a string can hold) is a row error, and reading goes on.
 * A trailing comma after the last element hides no row: it goes to `onWarning`, once.
 */
export class JsonArrayScanner {
  /** Rows found so far. */
  private row = 0;
  private state: State = "before";
  private line = 1;
  /** The offset of the current line's first byte. */
  private lineStart = 0;
  /** Bytes pushed before the current chunk. */
  private base = 0;
  /** Inside the element: the brackets open, innermost last; in a string; right after a backslash in one; in a bare value. */
  private readonly open: number[] = [];
  private inString = false;
  private escaped = false;
  private bare = false;
  /** The element's first byte (offset), line and the bytes before it on that line. */
  private start = 0;
  private startLine = 0;
  private startByte = 0;
  /** Copies of the element's bytes in earlier chunks; dropped (and `oversize` set) past `maxElementBytes`. */
  private pieces: Buffer[] = [];
  private oversize = false;
  /** The last comma between elements: its line and 1-based byte in it, for the trailing-comma warning. */
  private comma = { line: 0, byte: 0 };
  /** Whether the chunk being scanned is all ASCII (most datasets): its elements need no UTF-8 check, and decode as latin1, about 4x faster. */
  private ascii = false;
  /**
   * A fault found where its description needs bytes past the chunk's end (a character, a literal or a string
   * cut by the read): its bytes so far, and what reports it once the next chunk (or the file's end) completes them.
   */
  private deferred: { bytes: Buffer; report: (bytes: Buffer, out: (DatasetItem | UnparsedRow)[]) => void } | undefined;

  constructor(
    private readonly path: string,
    private readonly onWarning?: (message: string) => void,
    private readonly maxElementBytes: number = constants.MAX_STRING_LENGTH,
  ) {}

  /** Whether the scanner stopped at a fault (its last item given), so that nothing more need be read. */
  get stopped(): boolean {
    return this.state === "stopped" && this.deferred === undefined;
  }

  /** Scans the next chunk (kept only until this returns), adding the items it completes to `out`. */
  push(chunk: Buffer, out: (DatasetItem | UnparsedRow)[]): void {
    if (this.deferred !== undefined) {
      const bytes = Buffer.concat([this.deferred.bytes, chunk.subarray(0, DESCRIBE_BYTES)]);
      if (needsMore(bytes)) this.deferred.bytes = bytes;
      else this.report(bytes, out);
      return;
    }
    this.ascii = isAscii(chunk);
    const n = chunk.length;
    let i = 0;
    while (i < n && this.state !== "stopped") {
      if (this.state === "element") {
        i = this.scanElement(chunk, i, out);
        continue;
      }
      this.between(chunk, i, out);
      i++;
    }
    if (this.state === "element") {
      const from = Math.max(0, this.start - this.base);
      if (!this.oversize && this.base + n - this.start > this.maxElementBytes) {
        this.oversize = true;
        this.pieces = [];
      }
      if (!this.oversize) this.pieces.push(Buffer.from(chunk.subarray(from)));
    }
    this.base += n;
  }

  /** Ends the file: adds the last item (the end before the `]`) to `out`, or throws what makes the file no dataset at all. */
  end(out: (DatasetItem | UnparsedRow)[]): void {
    if (this.deferred !== undefined) return this.report(this.deferred.bytes, out);
    switch (this.state) {
      case "stopped":
        return;
      case "before":
        throw datasetInvalid(this.path, `holds only whitespace; expected ${EXPECTED}`);
      case "closed":
        if (this.row === 0) throw datasetInvalid(this.path, `the array is empty; expected at least one row object`);
        return;
      default: {
        // The line of the last byte: a final "\n" ends the line before it.
        const line = this.base > 0 && this.lineStart === this.base ? this.line - 1 : this.line;
        const element = this.state === "element" && this.startLine !== line ? `, and the element that starts on line ${this.startLine} is not closed` : "";
        this.state = "stopped";
        out.push(rowError(this.row + 1, line, `line ${line}: the file ends before the array's closing ]${element} (was it cut short?); expected ${EXPECTED}`, "DATASET_READ_STOPPED"));
      }
    }
  }

  /** One byte outside any element. */
  private between(chunk: Buffer, i: number, out: (DatasetItem | UnparsedRow)[]): void {
    const b = chunk[i]!;
    if (b === NEWLINE) {
      this.line++;
      this.lineStart = this.base + i + 1;
      return;
    }
    if (isSpace(b)) return;
    switch (this.state) {
      case "before":
        if (b === OPEN_BRACKET) this.state = "first";
        else {
          const line = this.line;
          this.state = "stopped";
          this.describeThen(chunk, i, (bytes) => {
            throw datasetInvalid(this.path, topLevel(bytes, line));
          });
        }
        return;
      case "first":
        if (b === CLOSE_BRACKET) this.state = "closed";
        else if (startsValue(b)) this.startElement(b, i);
        else this.stop(chunk, i, out);
        return;
      case "after":
        if (b === COMMA) {
          this.state = "comma";
          this.comma = { line: this.line, byte: this.base + i - this.lineStart + 1 };
        } else if (b === CLOSE_BRACKET) this.state = "closed";
        else this.stop(chunk, i, out);
        return;
      case "comma":
        if (b === CLOSE_BRACKET) {
          // `[{…},]`: every row is read, and the comma stands for none. Said once; the ] then closes the array.
          const { line, byte } = this.comma;
          this.onWarning?.(`line ${line}: not valid JSON (a trailing comma after the last element, at byte ${byte} of the line; JSON allows no comma before ]): every row was read, and the comma is ignored`);
          this.state = "closed";
        } else if (startsValue(b)) this.startElement(b, i);
        else this.stop(chunk, i, out);
        return;
      default:
        this.stop(chunk, i, out);
    }
  }

  private startElement(b: number, i: number): void {
    this.state = "element";
    this.start = this.base + i;
    this.startLine = this.line;
    this.startByte = this.start - this.lineStart;
    this.inString = b === QUOTE;
    this.bare = !this.inString && b !== OPEN_BRACE && b !== OPEN_BRACKET;
    if (b === OPEN_BRACE || b === OPEN_BRACKET) this.open.push(b);
  }

  /**
   * Scans the element from `i` (its first byte, or the chunk's start): the hot loop. Returns where scanning goes
   * on: past the element's end, or the chunk's end.
   */
  private scanElement(chunk: Buffer, from: number, out: (DatasetItem | UnparsedRow)[]): number {
    const open = this.open;
    const n = chunk.length;
    let inString = this.inString;
    let escaped = this.escaped;
    let i = from;
    for (; i < n; i++) {
      const b = chunk[i]!;
      if (inString) {
        if (b === NEWLINE) {
          this.stop(chunk, i, out, LINE_BREAK);
          return n;
        }
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (open.length === 0) return this.endElement(chunk, i + 1, out);
        }
        continue;
      }
      if (this.bare) {
        if (endsBare(b)) return this.endElement(chunk, i, out);
        continue;
      }
      if (b === QUOTE) inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) open.push(b);
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        const opened = open.pop();
        if (opened !== (b === CLOSE_BRACE ? OPEN_BRACE : OPEN_BRACKET)) {
          // What was left open, and where the element began when that is another line (the fault may be far above).
          const element = this.line === this.startLine ? "" : `, to close the element that starts on line ${this.startLine}`;
          this.stop(chunk, i, out, `; a ${opened === OPEN_BRACE ? "}" : "]"} is missing before it${element}`);
          return n;
        }
        if (open.length === 0) return this.endElement(chunk, i + 1, out);
      } else if (b === NEWLINE) {
        this.line++;
        this.lineStart = this.base + i + 1;
      }
    }
    this.inString = inString;
    this.escaped = escaped;
    return n;
  }

  /** The element ends just before `end` (in `chunk`): its item, then on to what follows it. */
  private endElement(chunk: Buffer, end: number, out: (DatasetItem | UnparsedRow)[]): number {
    this.state = "after";
    this.inString = false;
    this.escaped = false;
    this.bare = false;
    const row = ++this.row;
    const line = this.startLine;
    const length = this.base + end - this.start;
    let item: DatasetItem | UnparsedRow;
    if (this.oversize || length > this.maxElementBytes) {
      item = rowError(row, line, `line ${line}: an element of ${length} bytes, longer than the longest text Node.js can hold (${this.maxElementBytes} characters); expected ${EXPECTED}`);
    } else {
      const whole = this.pieces.length === 0;
      const bytes = whole ? chunk : Buffer.concat([...this.pieces, chunk.subarray(0, end)]);
      const from = whole ? this.start - this.base : 0;
      const to = whole ? end : bytes.length;
      const bad = (whole && this.ascii) || isUtf8(bytes.subarray(from, to)) ? -1 : firstInvalidUtf8(bytes, from, to);
      if (bad !== -1) item = this.notUtf8(row, bytes, from, bad);
      else item = { row, line, json: bytes.toString(whole && this.ascii ? "latin1" : "utf8", from, to), byte: this.startByte };
    }
    this.pieces = [];
    this.oversize = false;
    out.push(item);
    return end;
  }

  /** The row error for an element whose bytes from `from` are not valid UTF-8 at `bad`: the bad byte's line and place in it. */
  private notUtf8(row: number, bytes: Buffer, from: number, bad: number): DatasetItem {
    let line = this.startLine;
    let lineStart = from - this.startByte;
    for (let nl = bytes.indexOf(NEWLINE, from); nl !== -1 && nl < bad; nl = bytes.indexOf(NEWLINE, nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    return rowError(row, this.startLine, `line ${line}: not valid UTF-8 at byte ${bad - lineStart + 1} of the line; expected UTF-8 text`);
  }

  /** Stops the read at the byte `i` of `chunk`, which cannot stand there: a last row error naming it. */
  private stop(chunk: Buffer, i: number, out: (DatasetItem | UnparsedRow)[], note = ""): void {
    const closed = this.state === "closed";
    this.state = "stopped";
    const { line } = this;
    const byte = this.base + i - this.lineStart + 1;
    const row = this.row + 1;
    const report = (bytes: Buffer, to: (DatasetItem | UnparsedRow)[]): void => {
      const found = describeByte(bytes, 0);
      const message =
        found === undefined
          ? `line ${line}: not valid UTF-8 at byte ${byte} of the line; expected UTF-8 text`
          : `line ${line}: not valid JSON (unexpected ${found}${closed ? " after the array's closing ]" : ""} at byte ${byte} of the line${note}); expected ${EXPECTED}`;
      to.push(rowError(row, line, `${message}${STOPPED_NOTE}`, "DATASET_READ_STOPPED"));
    };
    this.describeThen(chunk, i, report, out);
  }

  /**
   * Reports the fault at byte `i` of `chunk` with the bytes from it: now, or, when a character, literal or string
   * there goes on past the chunk's end, once the next chunk (or the file's end) is pushed.
   */
  private describeThen(chunk: Buffer, i: number, report: (bytes: Buffer, out: (DatasetItem | UnparsedRow)[]) => void, out?: (DatasetItem | UnparsedRow)[]): void {
    const bytes = chunk.subarray(i, i + DESCRIBE_BYTES);
    if (needsMore(bytes)) this.deferred = { bytes: Buffer.from(bytes), report };
    else report(bytes, out ?? []);
  }

  /** Reports the deferred fault with `bytes`. */
  private report(bytes: Buffer, out: (DatasetItem | UnparsedRow)[]): void {
    const { report } = this.deferred!;
    this.deferred = undefined;
    report(bytes, out);
  }
}

/** The most bytes of a fault kept to describe it (a string quoted is cut to 60 characters anyway). */
const DESCRIBE_BYTES = 4096;

/**
 * Whether describing the fault that `bytes` start with needs bytes past their end: fewer than {@link DESCRIBE_BYTES}
 * of them, and a character cut there, a literal (`true`, `false`, `null`) that may be, or a string neither closed
 * nor ended by a line break in them.
 */
function needsMore(bytes: Buffer): boolean {
  if (bytes.length >= DESCRIBE_BYTES) return false;
  const b = bytes[0]!;
  if (b === QUOTE) return stringEnd(bytes, 0) === undefined;
  if (b === 0x74 || b === 0x66 || b === 0x6e) return bytes.length < 5;
  if (b < 0xc0) return false;
  return utf8SequenceLength(b) > bytes.length;
}

/**
 * The string starting with the quote at `i`: the offset of its closing quote, -1 when a line break comes first,
 * undefined when `bytes` end before either.
 */
function stringEnd(bytes: Buffer, i: number): number | undefined {
  for (let j = i + 1; j < bytes.length; j++) {
    const b = bytes[j]!;
    if (b === BACKSLASH) j++;
    else if (b === QUOTE) return j;
    else if (b === NEWLINE) return -1;
  }
  return undefined;
}

/** Why a file whose first value starts with `bytes` is not an array: the kind of value it holds, or the byte that starts none. */
function topLevel(bytes: Buffer, line: number): string {
  const b = bytes[0]!;
  const literal = (word: string): boolean => bytes.toString("latin1", 0, word.length) === word;
  const kind =
    b === OPEN_BRACE
      ? "an object (if the file holds one JSON object per line, name it .jsonl; if the rows are an array under a key, take it out: jq '.KEY' FILE > rows.json)"
      : b === QUOTE
        ? "a string"
        : b === 0x2d || (b >= 0x30 && b <= 0x39)
          ? "a number"
          : literal("true") || literal("false")
            ? "a boolean"
            : literal("null")
              ? "null"
              : undefined;
  if (kind !== undefined) return `expected ${EXPECTED} at the top level, found ${kind}`;
  return `not valid JSON at line ${line} (unexpected ${describeByte(bytes, 0) ?? "bytes that are not UTF-8"}); expected ${EXPECTED}`;
}

/**
 * The character at byte `i` as a message quotes it (`"x"`; a string that closes on its line, whole:
 * `string "s"`), or undefined when the bytes there are not valid UTF-8.
 */
function describeByte(chunk: Buffer, i: number): string | undefined {
  const b = chunk[i]!;
  if (b === QUOTE) {
    const close = stringEnd(chunk, i);
    if (close !== undefined && close !== -1 && firstInvalidUtf8(chunk, i, close + 1) === -1) {
      const text = chunk.toString("utf8", i, close + 1);
      let quoted = text;
      try {
        // As the string's value, escapes read: `"\u0041"` is "A".
        quoted = JSON.stringify(JSON.parse(text));
      } catch {
        // An escape JSON does not have: quoted as written.
      }
      return `string ${shortMessage(quoted, 60)}`;
    }
  }
  if (b < 0x80) return JSON.stringify(String.fromCharCode(b));
  const length = utf8SequenceLength(b);
  if (i + length > chunk.length || firstInvalidUtf8(chunk, i, i + length) !== -1) return undefined;
  return JSON.stringify(chunk.toString("utf8", i, i + length));
}
