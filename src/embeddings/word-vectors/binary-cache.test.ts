import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readVectorCache, writeVectorCache } from "./binary-cache.js";
import { quantizeRows, type WordTable } from "./table.js";
import { tempDir } from "../../test-support.js";

const dir = tempDir("simeval-vector-cache-");
const source = { path: "/data/glove.txt", size: 123, mtimeMs: 456.5 };

describe("the binary vectors cache", () => {
  // Words of odd UTF-8 lengths, so that the vector block needs padding to stay 4-byte aligned.
  const words = ["the", "café", "東京", "a"];
  const floats = Float32Array.from([0.5, -1, 2, 1e-3, 0, -0.25, 3, 4, 5, -7, 8.5, 1]);

  it("round-trips Float32 vectors exactly, with the words and the source", async () => {
    const file = join(dir, "f32", "x.bin");
    await writeVectorCache(file, { words, dim: 3, data: floats, scales: null }, source);
    const { table, source: back } = await readVectorCache(file);
    expect(table.words).toEqual(words);
    expect(table.dim).toBe(3);
    expect(table.data).toBeInstanceOf(Float32Array);
    expect([...table.data]).toEqual([...floats]);
    expect(table.scales).toBeNull();
    expect(back).toEqual(source);
  });

  it("round-trips int8 codes and their scales exactly", async () => {
    const file = join(dir, "i8.bin");
    const q = quantizeRows(floats, 3);
    const original: WordTable = { words, dim: 3, data: q.data, scales: q.scales };
    await writeVectorCache(file, original, source);
    const { table } = await readVectorCache(file);
    expect(table.data).toBeInstanceOf(Int8Array);
    expect([...table.data]).toEqual([...q.data]);
    expect([...(table.scales as Float32Array)]).toEqual([...q.scales]);
    // 4 words × 3 components at one byte, plus 4 scales at four: far smaller than Float32.
    expect(readFileSync(file).length).toBeLessThan(readFileSync(join(dir, "f32", "x.bin")).length);
  });

  it("leaves no temporary file behind", () => {
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("rejects a file that is not a cache, or a truncated one, naming the file", async () => {
    const foreign = join(dir, "foreign.bin");
    writeFileSync(foreign, "the 1 2 3\n");
    await expect(readVectorCache(foreign)).rejects.toThrow(`${foreign} is not a valid vectors cache (no "SEWVEC01" signature)`);
    const truncated = join(dir, "truncated.bin");
    writeFileSync(truncated, readFileSync(join(dir, "i8.bin")).subarray(0, -3));
    await expect(readVectorCache(truncated)).rejects.toThrow(/not a valid vectors cache \(\d+ bytes where the header implies \d+\)/);
  });
});
