import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../test-support.js";
import { hashFile, scanFile } from "./hash.js";
import { CHUNK_BYTES } from "./read-bytes.js";
import { makeFifo, PIPE_REFUSED } from "./test-support.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "simeval-hash-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("hashFile", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
  ])("sha256(%j) is the known digest", async (text, digest) => {
    const path = join(dir, "f.txt");
    await writeFile(path, text);
    expect(await hashFile(path)).toBe(digest);
  });

  it("hashes bytes as they are, across reads (no decoding, no BOM stripping)", async () => {
    const a = join(dir, "a.bin");
    const b = join(dir, "b.bin");
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 0x61);
    await writeFile(a, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), big]));
    await writeFile(b, big);
    const [ha, hb] = await Promise.all([hashFile(a), hashFile(b)]);
    expect(ha).toMatch(/^[0-9a-f]{64}$/);
    expect(ha).not.toBe(hb);
    const { createHash } = await import("node:crypto");
    expect(hb).toBe(createHash("sha256").update(big).digest("hex"));
  });

  it.each([
    ["missing", "nope.csv", "no such file"],
    ["a directory", ".", "is a directory; expected a dataset file (.jsonl, .json or .csv)"],
  ])("%s → DATASET_INVALID", async (_name, name, problem) => {
    const path = join(dir, name);
    await expect(hashFile(path)).rejects.toMatchObject({ code: "DATASET_INVALID", message: `${path}: ${problem}` });
  });

  it.each([
    ["", 0],
    ["\n\n \t\r\n", 0],
    ['{"a":1}', 1],
    ['{"a":1}\n', 1],
    ['{"a":1}\r\n\r\n{"a":2}\n\n\n  {"a":3}   \n \n', 3],
    ["\n\nx", 1],
  ])("counts the lines that are not blank (JSONL's rows) in %j: %i", async (text, filled) => {
    const path = join(dir, "lines.jsonl");
    await writeFile(path, text);
    expect((await scanFile(path)).filledLines).toBe(filled);
  });

  it("tells onRead the bytes read so far after each read, and gives the size and modification time it began with", async () => {
    const path = join(dir, "progress.jsonl");
    await writeFile(path, "x".repeat(CHUNK_BYTES + 10));
    const seen: number[] = [];
    const scan = await scanFile(path, (bytes) => seen.push(bytes));
    expect(seen).toEqual([CHUNK_BYTES, CHUNK_BYTES + 10]);
    const st = await stat(path);
    expect(scan.stat).toEqual({ size: CHUNK_BYTES + 10, mtimeMs: st.mtimeMs });
    expect(scan.bytes).toBe(CHUNK_BYTES + 10);
  });

  it("counts the lines that are not blank across its reads, wherever a read ends in a line", async () => {
    const path = join(dir, "long-lines.jsonl");
    const tails = ["\n\n{}\n", " \n{}", "{}\r\n \r\n", "\r\n\n", "x\n\n\n", "  \t \n  x"];
    for (const tail of tails) {
      for (let k = 0; k <= 6; k++) {
        // The first line ends k bytes before the end of the first read, and the tail follows it.
        const text = `${"x".repeat(CHUNK_BYTES - k)}${tail}${"\n \n{}".repeat(3)}`;
        await writeFile(path, text);
        const expected = text.split("\n").filter((line) => !/^[ \t\r]*$/.test(line)).length;
        expect([tail, k, (await scanFile(path)).filledLines]).toEqual([tail, k, expected]);
      }
    }
  });

  // scanFile is the first read of a run's dataset: a pipe must be refused before it is opened.
  const fifo = makeFifo(tempDir("simeval-hash-fifo-"), "rows.jsonl");
  it.skipIf(fifo === undefined)("a FIFO → DATASET_INVALID saying it is a pipe, without opening it", async () => {
    await expect(scanFile(fifo!)).rejects.toMatchObject({ code: "DATASET_INVALID", message: `${fifo}: ${PIPE_REFUSED}` });
  });
});
