import type { SerializedRow } from "./types.js";

/** Numbers per row in {@link SerializedBatch.index}. */
const STRIDE = 8;

/**
 * A batch of serialised rows as results.jsonl bytes (UTF-8), which is what crosses back from a scoring
 * thread: moved, not copied, and written to the file as they are. A megabyte string per batch instead
 * kept the main thread's heap 35 MB larger (measured on 1M rows). Per row, `index` tells where its
 * parts lie, so that the store takes them without parsing.
 *
 * A line is `{"row":N,"id":…,"results":{…}}`, or `{"row":N,"id":…,"line":L,"results":{},"error":{…}}`
 * for a row that could not be read.
 */
export interface SerializedBatch {
  /** The batch's results.jsonl lines, each ending in "\n"; the only view of its ArrayBuffer (which may be longer). */
  bytes: Uint8Array;
  /**
   * Per row, {@link STRIDE} numbers: the row number, its line (0 when unknown), then the byte offsets
   * of the start and end of its id, results and error JSON (the error's are equal when it has none).
   */
  index: Uint32Array;
}

/**
 * Lays rows out as results.jsonl lines, in row order, straight into bytes: each row's strings can die
 * as soon as it is added. (Kept until the batch was done, they outlived young-generation collections,
 * and a scoring thread's old generation, where they then went, is collected only every half-minute
 * or so.)
 */
export class BatchWriter {
  private bytes: Buffer;
  private at = 0;
  private rows = 0;
  private readonly index: Uint32Array;

  /**
   * Room for `rows` rows; the bytes grow as needed from a guess of `bytesPerRow` (default 2 KB). They are
   * written into `spare` (an earlier batch's bytes, handed back) when it holds that guess.
   */
  constructor(rows: number, bytesPerRow = 2048, spare?: ArrayBuffer) {
    this.index = new Uint32Array(rows * STRIDE);
    const size = Math.max(1024, rows * bytesPerRow);
    // A buffer of its own (never a slice of Node's shared pool), so that it can be transferred.
    this.bytes = spare !== undefined && spare.byteLength >= size ? Buffer.from(spare) : Buffer.allocUnsafeSlow(size);
  }

  add(r: SerializedRow): void {
    const at = this.rows++ * STRIDE;
    const index = this.index;
    index[at] = r.row;
    index[at + 1] = r.line ?? 0;
    const head = `{"row":${r.row},"id":`;
    const middle = r.error === null ? `,"results":` : `,"line":${r.line},"results":`;
    // UTF-8 takes at most 3 bytes per UTF-16 unit; 12 for `,"error":` and `}\n`.
    const most = 3 * (head.length + r.id.length + middle.length + r.results.length + (r.error?.length ?? 0) + 12);
    if (this.at + most > this.bytes.length) this.grow(this.at + most);
    // Piece by piece: cheaper than writing one concatenated line (no flattening), and each piece's
    // byte length comes with it.
    this.put(head);
    index[at + 2] = this.at;
    this.put(r.id);
    index[at + 3] = this.at;
    this.put(middle);
    index[at + 4] = this.at;
    this.put(r.results);
    index[at + 5] = this.at;
    if (r.error !== null) {
      this.put(`,"error":`);
      index[at + 6] = this.at;
      this.put(r.error);
    } else index[at + 6] = this.at;
    index[at + 7] = this.at;
    this.put("}\n");
  }

  /**
   * Counts a row without writing it: every range of its id, results and error is empty. For rows that
   * nothing reads back (a summary-only run's rows without errors).
   */
  skip(row: number, line: number | null): void {
    const at = this.rows++ * STRIDE;
    this.index[at] = row;
    this.index[at + 1] = line ?? 0;
    this.index.fill(this.at, at + 2, at + STRIDE);
  }

  /** The rows added so far; the writer must not be used afterwards. */
  finish(): SerializedBatch {
    return { bytes: new Uint8Array(this.bytes.buffer, 0, this.at), index: this.index.subarray(0, this.rows * STRIDE) };
  }

  private put(text: string): void {
    this.at += this.bytes.write(text, this.at);
  }

  private grow(needed: number): void {
    const bigger = Buffer.allocUnsafeSlow(Math.max(needed, 2 * this.bytes.length));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }
}

/** How many rows the batch holds. */
export function batchRowCount(b: SerializedBatch): number {
  return b.index.length / STRIDE;
}

/** Row `i` of the batch (0-based), its parts decoded from the bytes. */
export function batchRow(b: SerializedBatch, i: number): SerializedRow {
  return rowAt(bytesOf(b), b.index, i);
}

/** Whether row `i` of the batch could not be read. */
export function batchRowFailed(b: SerializedBatch, i: number): boolean {
  return b.index[i * STRIDE + 6] !== b.index[i * STRIDE + 7];
}

/** Every row of the batch. */
export function batchRows(b: SerializedBatch): SerializedRow[] {
  const bytes = bytesOf(b);
  return Array.from({ length: batchRowCount(b) }, (_, i) => rowAt(bytes, b.index, i));
}

/** The batch's bytes as a Buffer, without a copy (a transferred Uint8Array arrives without Buffer's methods). */
function bytesOf(b: SerializedBatch): Buffer {
  return Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.length);
}

function rowAt(bytes: Buffer, index: Uint32Array, i: number): SerializedRow {
  const at = (slot: number) => index[i * STRIDE + slot] as number;
  const text = (slot: number) => bytes.toString("utf8", at(slot), at(slot + 1));
  const line = at(1);
  return { row: at(0), line: line === 0 ? null : line, id: text(2), results: text(4), error: at(6) === at(7) ? null : text(6) };
}
