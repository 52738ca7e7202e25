import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BatchWriter, batchRow, batchRowCount, batchRowFailed, batchRows } from "./serialized-batch.js";
import type { SerializedRow } from "./types.js";

// Full Unicode, so that byte offsets differ from string offsets.
const text = fc.string({ unit: "binary" });
const json = fc.jsonValue({ stringUnit: "binary" }).map((v) => JSON.stringify(v));
const row: fc.Arbitrary<SerializedRow> = fc.record({
  row: fc.integer({ min: 1, max: 2 ** 32 - 1 }),
  line: fc.option(fc.integer({ min: 1, max: 2 ** 32 - 1 }), { nil: null }),
  id: json,
  results: fc.dictionary(text, fc.jsonValue({ stringUnit: "binary" })).map((v) => JSON.stringify(v)),
  error: fc.option(fc.record({ code: text, message: text }).map((v) => JSON.stringify(v)), { nil: null }),
});

function serializeBatch(rows: readonly SerializedRow[], room = rows.length) {
  const writer = new BatchWriter(room);
  for (const r of rows) writer.add(r);
  return writer.finish();
}

describe("BatchWriter", () => {
  it("writes one results.jsonl line per row and gives each row back as it was", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), fc.nat(5), (rows, spare) => {
        const batch = serializeBatch(rows, rows.length + spare);
        expect(batchRowCount(batch)).toBe(rows.length);
        expect(batchRows(batch)).toEqual(rows);
        const lines = Buffer.from(batch.bytes).toString("utf8").split("\n");
        expect(lines.pop()).toBe("");
        expect(lines).toHaveLength(rows.length);
        rows.forEach((r, i) => {
          const expected = r.error === null
            ? { row: r.row, id: JSON.parse(r.id), results: JSON.parse(r.results) }
            : { row: r.row, id: JSON.parse(r.id), line: r.line, results: JSON.parse(r.results), error: JSON.parse(r.error) };
          // Key order is part of the format, so compare the text of a re-serialisation.
          expect(JSON.stringify(JSON.parse(lines[i] as string))).toBe(JSON.stringify(expected));
          expect(batchRowFailed(batch, i)).toBe(r.error !== null);
        });
      }),
    );
  });

  it("skips rows: counted, with empty parts and no bytes, between the rows written", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(row, fc.boolean()), { maxLength: 20 }), (entries) => {
        const writer = new BatchWriter(entries.length, 0);
        for (const [r, skipped] of entries) {
          if (skipped) writer.skip(r.row, r.line);
          else writer.add(r);
        }
        const batch = writer.finish();
        const written = entries.filter(([, skipped]) => !skipped).map(([r]) => r);
        expect(batchRowCount(batch)).toBe(entries.length);
        expect(Buffer.from(batch.bytes).equals(Buffer.from(serializeBatch(written).bytes))).toBe(true);
        entries.forEach(([r, skipped], i) => {
          expect(batchRow(batch, i)).toEqual(skipped ? { row: r.row, line: r.line, id: "", results: "", error: null } : r);
          expect(batchRowFailed(batch, i)).toBe(!skipped && r.error !== null);
        });
      }),
    );
  });

  it("grows past its first guess of 2 KB a row", () => {
    const big = (n: number): SerializedRow => ({ row: n, line: n, id: JSON.stringify(`é${n}`), results: JSON.stringify({ text: "ü€😀".repeat(3000 + n) }), error: null });
    const rows = [big(1), big(2), big(3)];
    const batch = serializeBatch(rows);
    expect(batch.bytes.length).toBeGreaterThan(3 * 2048);
    expect(batchRows(batch)).toEqual(rows);
  });

  it("writes into a spare buffer that holds its first guess, and into one of its own when the spare is smaller", () => {
    const r: SerializedRow = { row: 1, line: 1, id: '"a"', results: '{"exact_match":{"score":1}}', error: null };
    const spare = new ArrayBuffer(4 * 2048);
    const into = new BatchWriter(4, 2048, spare);
    into.add(r);
    const batch = into.finish();
    expect(batch.bytes.buffer).toBe(spare);
    expect(batchRows(batch)).toEqual([r]);
    const small = new ArrayBuffer(3 * 2048);
    const own = new BatchWriter(4, 2048, small);
    own.add(r);
    expect(own.finish().bytes.buffer).not.toBe(small);
  });

  it("reads an unreadable row's parts", () => {
    const failed: SerializedRow = { row: 7, line: 9, id: "null", results: "{}", error: '{"code":"DATASET_INVALID","message":"bad JSON"}' };
    const batch = serializeBatch([failed]);
    expect(Buffer.from(batch.bytes).toString("utf8")).toBe('{"row":7,"id":null,"line":9,"results":{},"error":{"code":"DATASET_INVALID","message":"bad JSON"}}\n');
    expect(batchRow(batch, 0)).toEqual(failed);
  });
});
