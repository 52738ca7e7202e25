import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DatasetItem, UnparsedRow } from "../dataset/rows.js";
import { packItems, unpackItems } from "./item-batch.js";

// A JSON array's element has `byte` (0 at a line's start; past 4 GiB in a long one-line array), a JSONL line none.
const unparsed: fc.Arbitrary<UnparsedRow> = fc.record(
  { row: fc.nat(), line: fc.nat(), json: fc.string({ unit: "grapheme" }), byte: fc.oneof(fc.constant(0), fc.nat(), fc.constant(2 ** 32 + 7)) },
  { requiredKeys: ["row", "line", "json"] },
);
const item: fc.Arbitrary<DatasetItem> = fc.oneof(
  fc.record({ row: fc.nat(), line: fc.nat(), record: fc.dictionary(fc.string(), fc.string()) }),
  fc.record({ row: fc.nat(), line: fc.nat(), error: fc.record({ code: fc.constant("DATASET_ROW_INVALID" as const), message: fc.string() }) }),
);

describe("packItems / unpackItems", () => {
  it("gives back the same items in the same order, whatever mix of unparsed lines and other items (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(unparsed, unparsed, item), { maxLength: 60 }), (items) => {
        const batch = packItems(items);
        // What crosses to the thread: a structured clone, with the typed array moved.
        const received = structuredClone(batch, { transfer: [batch.lines.buffer as ArrayBuffer] });
        expect(unpackItems(received)).toEqual(items);
      }),
      { numRuns: 500 },
    );
  });

  it("sends unparsed lines as one string, not an object per row", () => {
    const batch = packItems([
      { row: 1, line: 1, json: '{"a":1}' },
      { row: 2, line: 3, json: '{"b":"é"}' },
    ]);
    expect(batch.json).toBe('{"a":1}{"b":"é"}');
    expect(batch.others).toEqual([]);
  });
});
