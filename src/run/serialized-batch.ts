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
  /** The batch's results.jsonl lines, each ending in "\n"; the only view of its ArrayBuffer. */
  bytes: Uint8Array;
  /**
   * Per row, {@link STRIDE} numbers: the row number, its line (0 when unknown), then the byte offsets
   * of the start and end of its id, results and error JSON (the error's are equal when it has none).
   */
  index: Uint32Array;
}

/** Lays rows out as results.jsonl lines. */
export function serializeBatch(rows: readonly SerializedRow[]): SerializedBatch {
  let text = "";
  for (const r of rows) {
    text += r.error === null
      ? `{"row":${r.row},"id":${r.id},"results":${r.results}}\n`
      : `{"row":${r.row},"id":${r.id},"line":${r.line},"results":${r.results},"error":${r.error}}\n`;
  }
  // A buffer of its own (never a slice of Node's shared pool), so that it can be transferred.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  // Byte offsets: characters are bytes when the text is ASCII, as it usually is.
  const size = bytes.length === text.length ? (s: string) => s.length : (s: string) => Buffer.byteLength(s);
  const index = new Uint32Array(rows.length * STRIDE);
  let at = 0;
  rows.forEach((r, i) => {
    const put = (slot: number, before: string, json: string) => {
      at += size(before);
      index[i * STRIDE + slot] = at;
      at += size(json);
      index[i * STRIDE + slot + 1] = at;
    };
    index[i * STRIDE] = r.row;
    index[i * STRIDE + 1] = r.line ?? 0;
    put(2, `{"row":${r.row},"id":`, r.id);
    put(4, r.error === null ? `,"results":` : `,"line":${r.line},"results":`, r.results);
    if (r.error === null) index[i * STRIDE + 6] = index[i * STRIDE + 7] = at;
    else put(6, `,"error":`, r.error);
    at += 2; // }\n
  });
  return { bytes: new Uint8Array(bytes.buffer, 0, bytes.length), index };
}

/** How many rows the batch holds. */
export function batchRowCount(b: SerializedBatch): number {
  return b.index.length / STRIDE;
}

/** Row `i` of the batch (0-based), its parts decoded from the bytes. */
export function batchRow(b: SerializedBatch, i: number): SerializedRow {
  const bytes = Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.length);
  const at = (slot: number) => b.index[i * STRIDE + slot] as number;
  const text = (slot: number) => bytes.toString("utf8", at(slot), at(slot + 1));
  const line = at(1);
  return { row: at(0), line: line === 0 ? null : line, id: text(2), results: text(4), error: at(6) === at(7) ? null : text(6) };
}

/** Whether row `i` of the batch could not be read. */
export function batchRowFailed(b: SerializedBatch, i: number): boolean {
  return b.index[i * STRIDE + 6] !== b.index[i * STRIDE + 7];
}

/** Every row of the batch. */
export function batchRows(b: SerializedBatch): SerializedRow[] {
  return Array.from({ length: batchRowCount(b) }, (_, i) => batchRow(b, i));
}
