import { describe, expect, it } from "vitest";
import { describeJsonKind, isRowObject, itemsOf, recordItem, rowError, shortMessage, type DatasetItem } from "./rows.js";

const item = (row: number): DatasetItem => ({ row, line: row, record: { id: row } });

async function* batches(sizes: number[], failAfter?: number): AsyncGenerator<DatasetItem[]> {
  let row = 0;
  for (const [i, size] of sizes.entries()) {
    if (i === failAfter) throw new Error("read failed");
    await new Promise((resolve) => setTimeout(resolve, 1));
    yield Array.from({ length: size }, () => item(++row));
  }
}

describe("itemsOf", () => {
  it("yields every item of every batch in order, skipping empty batches", async () => {
    const rows: number[] = [];
    for await (const it of itemsOf(batches([3, 0, 1, 2]))) rows.push(it.row);
    expect(rows).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("gives each item to exactly one of several workers calling next() at once", async () => {
    const iterator = itemsOf(batches([4, 1, 0, 5, 3]));
    const seen: number[] = [];
    const worker = async (): Promise<void> => {
      for (;;) {
        const r = await iterator.next();
        if (r.done === true) return;
        seen.push(r.value.row);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(seen).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
  });

  it("passes a read error on once, then is done", async () => {
    const iterator = itemsOf(batches([2, 2], 1));
    expect((await iterator.next()).value).toEqual(item(1));
    expect((await iterator.next()).value).toEqual(item(2));
    await expect(iterator.next()).rejects.toThrow("read failed");
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it("rejects with the signal's reason once aborted, even with items in hand", async () => {
    const controller = new AbortController();
    const iterator = itemsOf(batches([5]), controller.signal);
    expect((await iterator.next()).done).toBe(false);
    controller.abort(new Error("user stop"));
    await expect(iterator.next()).rejects.toThrow("user stop");
  });

  it("return() closes the source", async () => {
    let closed = false;
    async function* source(): AsyncGenerator<DatasetItem[]> {
      try {
        yield [item(1), item(2)];
        yield [item(3)];
      } finally {
        closed = true;
      }
    }
    for await (const it of itemsOf(source())) {
      expect(it.row).toBe(1);
      break;
    }
    expect(closed).toBe(true);
  });
});

describe("row helpers", () => {
  it("rowError has the DATASET_ROW_INVALID code", () => {
    expect(rowError(3, 7, "line 7: bad")).toEqual({ row: 3, line: 7, error: { code: "DATASET_ROW_INVALID", message: "line 7: bad" } });
  });

  it.each([
    [{}, true, "an object"],
    [[], false, "an array"],
    [null, false, "null"],
    ["s", false, "a string"],
    [1, false, "a number"],
    [true, false, "a boolean"],
  ])("%j: row object %s, described as %s", (value, isRow, kind) => {
    expect(isRowObject(value)).toBe(isRow);
    expect(describeJsonKind(value)).toBe(kind);
  });

  it("shortMessage cuts long parser messages", () => {
    expect(shortMessage("abc", 5)).toBe("abc");
    expect(shortMessage("abcdefgh", 5)).toBe("abcde…");
    expect(shortMessage("x".repeat(201))).toBe(`${"x".repeat(200)}…`);
    expect(shortMessage("x".repeat(200))).toBe("x".repeat(200));
  });
});

describe("recordItem", () => {
  it("keeps a row whose id has no infinite number, and walks a deeply nested id without overflowing the stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(recordItem(1, 1, { id: deep })).toHaveProperty("record");
    expect(recordItem(2, 5, { id: { b: [1, 2], a: Number.MAX_VALUE } })).toHaveProperty("record");
    let inner: unknown[] = [Infinity];
    for (let i = 0; i < 3; i++) inner = [0, inner];
    expect(recordItem(3, 7, { id: inner })).toMatchObject({ row: 3, line: 7, error: { code: "DATASET_ROW_INVALID", message: expect.stringMatching(/^line 7: id\[1\]\[1\]\[1\]\[0\] is the number Infinity/) } });
  });

  it("names the first infinite number of an id, in the order the id is written", () => {
    expect(recordItem(1, 1, { id: [1, -Infinity, Infinity] })).toMatchObject({ error: { message: expect.stringMatching(/^line 1: id\[1\] is the number -Infinity/) } });
    expect(recordItem(1, 1, { id: { a: [Infinity], b: -Infinity } })).toMatchObject({ error: { message: expect.stringMatching(/^line 1: id\.a\[0\] is the number Infinity/) } });
  });
});
