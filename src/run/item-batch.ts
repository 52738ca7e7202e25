import type { DatasetItem, UnparsedRow } from "../dataset/rows.js";

/**
 * A batch of dataset items as it crosses to a scoring thread. The unparsed JSONL lines, nearly every item of a
 * JSONL run, travel as one string with their row and line numbers in typed arrays (moved, not copied): a
 * thread copies one string instead of rebuilding an object and a string per row, which took it about a
 * quarter of its time on short rows. Other items (parsed rows, row errors) travel as they are.
 */
export interface ItemBatch {
  /** How many items the batch holds. */
  count: number;
  /** The unparsed lines' JSON, one after another. */
  json: string;
  /** Per unparsed line: its position in the batch, row, line and end offset in `json` (UTF-16 units), 4 numbers each. */
  lines: Uint32Array;
  /** The other items with their positions in the batch. */
  others: [number, DatasetItem][];
}

/** Packs items for {@link unpackItems}; `lines.buffer` can be transferred. */
export function packItems(items: readonly (DatasetItem | UnparsedRow)[]): ItemBatch {
  let unparsed = 0;
  for (const item of items) if ("json" in item) unparsed++;
  const lines = new Uint32Array(unparsed * 4);
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
    at += 4;
  }
  return { count: items.length, json: json.join(""), lines, others };
}

/** The items that {@link packItems} packed, in their order. */
export function unpackItems(batch: ItemBatch): (DatasetItem | UnparsedRow)[] {
  const items = new Array<DatasetItem | UnparsedRow>(batch.count);
  const { json, lines } = batch;
  let start = 0;
  for (let at = 0; at < lines.length; at += 4) {
    const end = lines[at + 3] as number;
    items[lines[at] as number] = { row: lines[at + 1] as number, line: lines[at + 2] as number, json: json.slice(start, end) };
    start = end;
  }
  for (const [i, item] of batch.others) items[i] = item;
  return items;
}
