/**
 * A JSON array of row objects, streamed with `@streamparser/json` so that memory holds one row at a time.
 * Each top-level element is a row; its line is where its first token starts. The parser reports byte
 * offsets, and {@link LineIndex} turns them into lines.
 */
import { Tokenizer, TokenParser, TokenType, type ParsedTokenInfo } from "@streamparser/json";
import type { EvalError } from "../errors.js";
import { datasetInvalid } from "./errors.js";
import { LineIndex, openDatasetFile, readChunks, Utf8Sanitizer } from "./read-bytes.js";
import { describeJsonKind, isRowObject, itemsOf, recordItem, rowError, shortMessage, type DatasetItem } from "./rows.js";

const EXPECTED = "a JSON array of row objects";

/** What a first token says the top-level value is, for "found an object" messages. */
function describeToken(token: TokenType): string {
  switch (token) {
    case TokenType.LEFT_BRACE:
      return "an object (if the file holds one JSON object per line, name it .jsonl; if the rows are an array under a key, take it out: jq '.KEY' FILE > rows.json)";
    case TokenType.STRING:
      return "a string";
    case TokenType.NUMBER:
      return "a number";
    case TokenType.TRUE:
    case TokenType.FALSE:
      return "a boolean";
    case TokenType.NULL:
      return "null";
    default:
      return `"${TokenType[token] ?? token}"`;
  }
}

/**
 * Makes the tokenizer keep a U+FEFF that starts a string or a key. @streamparser/json decodes a string's bytes
 * with `new TextDecoder("utf-8", { fatal: true })`, whose every `decode()` call drops a leading byte order mark:
 * `"\uFEFFa"` was read as `"a"` (also after an escape, or at each 64 KiB of a long string), where JSON.parse, and
 * so the same row in JSONL, keeps it. Its string builder is not public: throws when it is not found, so that an
 * upgrade that changes it is noticed (by every test that reads a JSON array) rather than dropping the mark again.
 */
export function keepByteOrderMarks(tokenizer: Tokenizer): void {
  const builder = (tokenizer as unknown as { bufferedString?: { decoder?: unknown } }).bufferedString;
  if (!(builder?.decoder instanceof TextDecoder)) throw new Error("@streamparser/json: the tokenizer's string decoder was not found (keepByteOrderMarks)");
  builder.decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
}

/** The tokenizer's `Unexpected "x" at chunk position "3" (absolute position "56") in state …`, taken apart. */
const TOKENIZER_UNEXPECTED = /^Unexpected "([\s\S]*)" at chunk position "\d+" \(absolute position "(\d+)"\)/;

/** The token parser's `Unexpected RIGHT_BRACKET ("]") in state VALUE`: the quoted token is what matters. */
const PARSER_UNEXPECTED = /^Unexpected \w+ \(([\s\S]*)\) in state \w+$/;

/**
 * True for the error V8 throws when a string would outgrow `constants.MAX_STRING_LENGTH` (the tokenizer builds a
 * value by appending to a string: "Invalid string length"), or Node.js's own when it decodes one that long.
 */
function isTooLong(err: Error): boolean {
  return (err instanceof RangeError && err.message === "Invalid string length") || (err as { code?: unknown }).code === "ERR_STRING_TOO_LONG";
}

/**
 * Reads a JSON array file row by row. Whole-file problems (missing, empty, a top level that is not an array,
 * an empty array) throw DATASET_INVALID. An element that is not an object, or holds invalid UTF-8, is a row
 * error. A syntax error ends the stream with a DATASET_READ_STOPPED row error naming its line (the rows before
 * it are kept; it takes the next row number): also a trailing comma inside an element, and anything but
 * whitespace after the array's closing ], which may hold rows that are then not in the run (a second array, say).
 * So does a value longer than a string can be (about 512 MiB): it is the row holding it that is the last item.
 * A trailing comma after the last element (`[{…},{…},]`) is invalid JSON too, but hides no row: it is not a
 * row, the read goes on, and it is reported once through `onWarning` (its line and byte), if given.
 * With `signal`, an abort rejects the pending `next()` with `signal.reason`.
 */
export function readJsonArray(path: string, signal?: AbortSignal, onWarning?: (message: string) => void): AsyncIterableIterator<DatasetItem> {
  return itemsOf(readJsonArrayBatches(path, signal, onWarning), signal);
}

/** {@link readJsonArray}'s rows, one array per read of the file. */
export async function* readJsonArrayBatches(path: string, signal?: AbortSignal, onWarning?: (message: string) => void): AsyncGenerator<DatasetItem[]> {
  const handle = await openDatasetFile(path, EXPECTED);
  // Buffering string bytes (instead of growing JS strings) read 1M short rows ~10% faster.
  const tokenizer = new Tokenizer({ stringBufferSize: 64 * 1024 });
  keepByteOrderMarks(tokenizer);
  const parser = new TokenParser({ paths: ["$.*"], keepStack: false });
  const lines = new LineIndex();
  const utf8 = new Utf8Sanitizer();
  /** Offsets of invalid UTF-8 bytes not yet matched to a row. */
  const bad: number[] = [];
  let out: DatasetItem[] = [];
  let row = 0;
  let depth = 0;
  let started = false;
  let closed = false;
  /** Offset of the first token of the element being read, or -1 between elements. */
  let rowStart = -1;
  /** Offset of the token being handled, for errors that carry no position. */
  let at = 0;
  /** Offset of the last token if it was a comma, else -1: a `]` or `}` right after it is a trailing comma. */
  let comma = -1;
  /**
   * A comma between elements, held back from the parser until the next token shows whether it is a trailing
   * comma (then dropped, so that the `]` closes the array) or one before the next element.
   */
  let heldComma: ParsedTokenInfo | undefined;
  /** Set when the stream must end: a syntax error (a last row error) or a whole-file error. */
  let stopped = false;
  let fatal: EvalError | undefined;
  /** Bytes fed so far (after the BOM). */
  let size = 0;

  /**
   * Ends the stream at a syntax error: the tokenizer cannot find the next row after one, and past the closing ]
   * there may be rows (a second array) that would be silently left out. `note` follows the position.
   */
  const fail = (offset: number, what: string, note = ""): void => {
    if (stopped) return;
    stopped = true;
    const { line, byte } = lines.locate(offset);
    if (!started) {
      fatal = datasetInvalid(path, `not valid JSON at line ${line} (${what}); expected ${EXPECTED}`);
      return;
    }
    const utf8Bad = bad.includes(offset);
    const message = utf8Bad
      ? `line ${line}: not valid UTF-8 at byte ${byte} of the line; expected UTF-8 text`
      : `line ${line}: not valid JSON (${what}${closed ? " after the array's closing ]" : ""} at byte ${byte} of the line${note}); expected ${EXPECTED}`;
    out.push(rowError(row + 1, line, `${message}. Reading stopped here: the rest of the file is not in the run`, "DATASET_READ_STOPPED"));
  };

  /**
   * Ends the stream at a string or number longer than a JS string can be (~512 MiB): the tokenizer cannot go
   * on after it, so, as at a CSV value that long, the rows before stand and the row holding it is the last item.
   */
  const tooLong = (): void => {
    if (stopped) return;
    stopped = true;
    const { line } = lines.locate(rowStart === -1 ? at : rowStart);
    out.push(rowError(row + 1, line, `line ${line}: a value is longer than the longest text Node.js can hold (about 512 MiB), so the file cannot be read past it: the rest of the file is not in the run`, "DATASET_READ_STOPPED"));
  };

  tokenizer.onToken = (token: ParsedTokenInfo): void => {
    if (stopped) return;
    at = token.offset;
    const afterComma = comma;
    comma = token.token === TokenType.COMMA ? at : -1;
    const held = heldComma;
    heldComma = undefined;
    if (held !== undefined && depth === 1 && token.token === TokenType.RIGHT_BRACKET) {
      // `[{…},]`: every row is read, and the comma stands for none. Said once; the ] then closes the array.
      const { line, byte } = lines.locate(held.offset);
      onWarning?.(`line ${line}: not valid JSON (a trailing comma after the last element, at byte ${byte} of the line; JSON allows no comma before ]): every row was read, and the comma is ignored`);
    } else if (afterComma !== -1 && (token.token === TokenType.RIGHT_BRACKET || token.token === TokenType.RIGHT_BRACE)) {
      // Caught before the ] counts as closing the array; the comma is what to delete.
      return fail(afterComma, "a trailing comma", `; JSON allows no comma before ${String(token.value)}`);
    } else if (held !== undefined) parser.write(held);
    if (depth === 0) {
      if (closed) return fail(at, token.token === TokenType.STRING ? `unexpected string ${shortMessage(JSON.stringify(token.value), 60)}` : `unexpected ${JSON.stringify(String(token.value))}`);
      if (!started) {
        started = true;
        if (token.token !== TokenType.LEFT_BRACKET) {
          stopped = true;
          fatal = datasetInvalid(path, `expected ${EXPECTED} at the top level, found ${describeToken(token.token)}`);
          return;
        }
      }
    } else if (depth === 1 && rowStart === -1 && token.token !== TokenType.COMMA && token.token !== TokenType.RIGHT_BRACKET) {
      rowStart = at;
    }
    if (token.token === TokenType.LEFT_BRACE || token.token === TokenType.LEFT_BRACKET) depth++;
    else if (token.token === TokenType.RIGHT_BRACE || token.token === TokenType.RIGHT_BRACKET) {
      depth--;
      if (depth === 0) closed = true;
    }
    // Only a comma right after an element may be a trailing one; another (`[,` or `,,`) is the parser's error.
    if (token.token === TokenType.COMMA && depth === 1 && rowStart === -1 && afterComma === -1 && row > 0) heldComma = token;
    else parser.write(token);
  };

  parser.onValue = ({ value }): void => {
    row++;
    const start = rowStart === -1 ? at : rowStart;
    rowStart = -1;
    const { line } = lines.locate(start);
    while (bad.length > 0 && bad[0]! < start) bad.shift();
    if (bad.length > 0 && bad[0]! <= at) {
      const where = lines.locate(bad[0]!);
      while (bad.length > 0 && bad[0]! <= at) bad.shift();
      out.push(rowError(row, line, `line ${where.line}: not valid UTF-8 at byte ${where.byte} of the line; expected UTF-8 text`));
    } else if (isRowObject(value)) out.push(recordItem(row, line, value));
    else out.push(rowError(row, line, `line ${line}: expected a row object in the array, found ${describeJsonKind(value)}`));
  };

  parser.onError = (err: Error): void => {
    const m = PARSER_UNEXPECTED.exec(err.message);
    fail(at, m === null ? shortMessage(err.message) : `unexpected ${m[1]}`);
  };
  tokenizer.onError = (err: Error): void => {
    if (isTooLong(err)) return tooLong();
    const m = TOKENIZER_UNEXPECTED.exec(err.message);
    if (m !== null) fail(Number(m[2]), `unexpected ${JSON.stringify(m[1])}`);
    else fail(at, shortMessage(err.message));
  };

  const feed = (chunk: { bytes: Buffer; bad: number[] }): void => {
    for (const offset of chunk.bad) bad.push(offset);
    lines.push(chunk.bytes);
    size += chunk.bytes.length;
    if (chunk.bytes.length > 0) tokenizer.write(chunk.bytes);
  };

  for await (const chunk of readChunks(path, handle, signal)) {
    feed(utf8.push(chunk));
    if (fatal !== undefined) throw fatal;
    if (signal?.aborted === true) throw signal.reason;
    if (out.length > 0) {
      const items = out;
      out = [];
      yield items;
    }
    if (stopped) return;
  }

  feed(utf8.end());
  if (!stopped) {
    // Ending flushes a number still being read (a top level of `12`); a cut-off token is reported below.
    tokenizer.onError = (): void => undefined;
    tokenizer.end();
  }
  if (fatal !== undefined) throw fatal;
  if (!stopped) {
    if (!started) throw datasetInvalid(path, `holds only whitespace; expected ${EXPECTED}`);
    if (!closed) {
      stopped = true;
      const { line } = lines.locate(Math.max(0, size - 1));
      out.push(rowError(row + 1, line, `line ${line}: the file ends before the array's closing ] (was it cut short?); expected ${EXPECTED}`, "DATASET_READ_STOPPED"));
    }
  }
  if (out.length > 0) yield out;
  if (row === 0 && !stopped) throw datasetInvalid(path, `the array is empty; expected at least one row object`);
}
