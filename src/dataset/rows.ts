/**
 * What the dataset readers yield: one {@link DatasetItem} per row, either the row's record or why it could
 * not be read. Row problems are data, so a run over a million rows never stops on one bad line.
 */
import { formatPath, isPlainObject } from "../errors.js";
import { cutText } from "../cut-text.js";
import { nonFiniteIn } from "../non-finite.js";

/** One dataset row, or the reason it could not be read. `row` is 1-based; `line` is where it starts in the file. */
export type DatasetItem =
  | { row: number; line: number; record: Record<string, unknown> }
  | { row: number; line: number; error: { code: RowErrorCode; message: string } };

/**
 * `DATASET_ROW_INVALID`: this row could not be read; reading goes on. `DATASET_READ_STOPPED`: the last
 * item of a file that could not be read past this point (brackets that do not pair up in a JSON array,
 * a CSV quote never closed, an array cut short), so rows after it, if any, are not in the run.
 */
export type RowErrorCode = "DATASET_ROW_INVALID" | "DATASET_READ_STOPPED";

/**
 * A JSONL line or a JSON array's element read but not parsed yet. Asked for (`unparsed`), the readers hand these
 * out so that a run parses them on the scoring threads: `parseJsonlRow` turns a line into a DatasetItem,
 * `parseArrayElement` an element (which has `byte`).
 */
export interface UnparsedRow {
  row: number;
  line: number;
  /** The line as read, without its "\n": a BOM starting it (files joined) is still there. Or the element's text. */
  json: string;
  /** Set for an element of a JSON array: the bytes before it on its line, to place a syntax error in it. */
  byte?: number;
}

/** The dataset formats simeval reads. `csv` also covers `.tsv` (tab-separated). */
export type DatasetFormat = "jsonl" | "json" | "csv";

/** A row error; `message` should start with `line N: ` and say what was wrong and what was expected. */
export function rowError(row: number, line: number, message: string, code: RowErrorCode = "DATASET_ROW_INVALID"): DatasetItem {
  return { row, line, error: { code, message } };
}

/** True for a plain JSON object (not null, not an array): the only shape a row may have. */
export function isRowObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value);
}

/**
 * The item for a row object a JSON reader parsed: its record, or a row error when its `id` holds a number
 * JSON.parse read as ±Infinity (`1e400`, anywhere in an id that is an array or object). Results.jsonl and the
 * run store keep ids as JSON, which writes Infinity as null: the row was recorded with no id (or `[1,null]`),
 * so it could not be found by the id its file gives it. Its text cannot be recovered from the parsed value,
 * so the row is refused, as a text holding such a number is, with the advice that keeps every id: a string.
 */
export function recordItem(row: number, line: number, record: Record<string, unknown>): DatasetItem {
  const found = nonFiniteIn(record["id"]);
  if (found === undefined) return { row, line, record };
  return rowError(
    row,
    line,
    `line ${line}: ${formatPath(["id", ...found.path])} is the number ${found.value}, which JSON writes as null (a number beyond ±1.8e308, such as 1e400, reads as Infinity), so the row would be recorded without its id; expected the id as a string ("1e400") or a finite number`,
  );
}

/** `an array`, `a string`, `null`...: how a JSON value that is not a row object is named in messages. */
export function describeJsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return typeof value === "number" ? "a number" : typeof value === "string" ? "a string" : `a ${typeof value}`;
}

/** Cuts a parser's message to `max` characters: JSON.parse quotes the offending text, which may be 50 MB long. */
export function shortMessage(message: string, max = 200): string {
  return cutText(message, max);
}

/**
 * One item at a time out of the readers' batches (one batch per read of the file). A hand-written iterator,
 * because an async generator that yields each row costs about 0.3 µs per row, a third of a `JSON.parse`;
 * here a row already read costs one resolved promise. Safe for several consumers calling `next()` at once.
 * An abort of `signal` rejects `next()` with `signal.reason`.
 */
export function itemsOf(batches: AsyncIterable<DatasetItem[]>, signal?: AbortSignal): AsyncIterableIterator<DatasetItem> {
  return new Items(batches[Symbol.asyncIterator](), signal);
}

class Items implements AsyncIterableIterator<DatasetItem> {
  private items: DatasetItem[] = [];
  private next_ = 0;
  private done = false;
  /** The read of the next batch, shared by every `next()` that arrives while it runs. */
  private filling: Promise<void> | undefined;

  constructor(
    private readonly source: AsyncIterator<DatasetItem[]>,
    private readonly signal: AbortSignal | undefined,
  ) {}

  next(): Promise<IteratorResult<DatasetItem>> {
    if (this.filling === undefined && this.next_ < this.items.length && this.signal?.aborted !== true) {
      return Promise.resolve({ done: false, value: this.items[this.next_++]! });
    }
    return this.slowNext();
  }

  private async slowNext(): Promise<IteratorResult<DatasetItem>> {
    for (;;) {
      if (this.filling !== undefined) {
        await this.filling;
        continue;
      }
      if (this.signal?.aborted === true) throw this.signal.reason;
      if (this.next_ < this.items.length) return { done: false, value: this.items[this.next_++]! };
      if (this.done) return { done: true, value: undefined };
      this.filling = this.source.next().then(
        (r) => {
          this.filling = undefined;
          if (r.done === true) this.done = true;
          else {
            this.items = r.value;
            this.next_ = 0;
          }
        },
        (err: unknown) => {
          this.filling = undefined;
          this.done = true;
          this.items = [];
          throw err;
        },
      );
    }
  }

  async return(): Promise<IteratorResult<DatasetItem>> {
    this.done = true;
    this.items = [];
    await this.source.return?.(undefined);
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<DatasetItem> {
    return this;
  }
}
