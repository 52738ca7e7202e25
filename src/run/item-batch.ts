import type { DatasetItem, UnparsedRow } from "../dataset/rows.js";

/**
 * A batch of dataset items as it crosses to a scoring thread. The unparsed JSONL lines or JSON array elements,
 * nearly every item of a run, travel as one string with their row and line numbers in typed arrays (moved, not copied): a
 * thread copies one string instead of rebuilding an object and a string per row, which took it about a
 * quarter of its time on short rows. Other items (parsed rows, row errors) travel as they are.
 */
export interface ItemBatch {
  /** How many items the batch holds. */
  count: number;
  /** The unparsed lines' JSON, one after another. */
  json: string;
  /**
   * Per unparsed line: its position in the batch, row, line, end offset in `json` (UTF-16 units) and `byte` + 1
   * (0 for none), 5 numbers each; 64-bit, as an element of a one-line array may start past 4 GiB.
   */
  lines: Float64Array;
  /** The other items with their positions in the batch. */
  others: [number, DatasetItem][];
}

/** Packs items for {@link unpackItems}; `lines.buffer` can be transferred. */
export function packItems(items: readonly (DatasetItem | UnparsedRow)[]): ItemBatch {
  let unparsed = 0;
  for (const item of items) if ("json" in item) unparsed++;
  const lines = new Float64Array(unparsed * 5);
  const json: string[] = [];
  const others: [number, DatasetItem][] = [];
  let at = 0;
  let end = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as DatasetItem | UnparsedRow;
    if (!("json" in item)) {
      others.push([i, item]);
      continue;
    }
    json.push(item.json);
    end += item.json.length;
    lines[at] = i;
    lines[at + 1] = item.row;
    lines[at + 2] = item.line;
    lines[at + 3] = end;
    lines[at + 4] = item.byte === undefined ? 0 : item.byte + 1;
    at += 5;
  }
  return { count: items.length, json: json.join(""), lines, others };
}

/** The items that {@link packItems} packed, in their order. */
export function unpackItems(batch: ItemBatch): (DatasetItem | UnparsedRow)[] {
  const items = new Array<DatasetItem | UnparsedRow>(batch.count);
  const { json, lines } = batch;
  let start = 0;
  for (let at = 0; at < lines.length; at += 5) {
    const end = lines[at + 3] as number;
    const byte = lines[at + 4] as number;
    const item: UnparsedRow = { row: lines[at + 1] as number, line: lines[at + 2] as number, json: json.slice(start, end) };
    if (byte > 0) item.byte = byte - 1;
    items[lines[at] as number] = item;
    start = end;
  }
  for (const [i, item] of batch.others) items[i] = item;
  return items;
}
