import { getEventListeners } from "node:events";
import { mkdtemp, mkdir, open, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { tempDir } from "../test-support.js";
import { CHUNK_BYTES, checkDatasetFile, firstInvalidUtf8, openDatasetFile, readReusedChunks, Utf8Sanitizer } from "./read-bytes.js";
import { makeFifo, PIPE_REFUSED } from "./test-support.js";

const fatal = new TextDecoder("utf-8", { fatal: true });
const isValid = (bytes: Uint8Array): boolean => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** Bytes that are mostly UTF-8, with the odd stray, cut or overlong byte: the cases the checker must get right. */
const mostlyUtf8 = fc
  .array(
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 8 }).map((s) => [...Buffer.from(s, "utf8")]),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 3 }),
      fc.constantFrom([0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0x98]),
    ),
    { maxLength: 12 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

describe("firstInvalidUtf8", () => {
  it.each([
    ["ascii", [0x61, 0x62], -1],
    ["two-byte é", [0xc3, 0xa9], -1],
    ["emoji", [0xf0, 0x9f, 0x98, 0x80], -1],
    ["stray continuation", [0x61, 0x80], 1],
    ["overlong 2-byte", [0xc0, 0xaf], 0],
    ["overlong 3-byte", [0xe0, 0x80, 0xaf], 0],
    ["surrogate", [0x61, 0xed, 0xa0, 0x80], 1],
    ["above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["cut off at the end", [0x61, 0x62, 0xe2, 0x82], 2],
    ["lead byte then ASCII", [0xc3, 0x28], 0],
  ])("%s", (_name, bytes, expected) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(expected);
  });

  it("agrees with a fatal TextDecoder on whether bytes are valid", () => {
    fc.assert(
      fc.property(mostlyUtf8, (bytes) => {
        expect(firstInvalidUtf8(bytes) === -1).toBe(isValid(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it("the prefix before the reported byte is valid", () => {
    fc.assert(
      fc.property(mostlyUtf8, (bytes) => {
        const i = firstInvalidUtf8(bytes);
        if (i !== -1) expect(isValid(bytes.subarray(0, i))).toBe(true);
      }),
    );
  });
});

describe("Utf8Sanitizer", () => {
  const run = (bytes: Uint8Array, cuts: number[]): { out: Buffer; bad: number[] } => {
    const s = new Utf8Sanitizer();
    const parts: Buffer[] = [];
    const bad: number[] = [];
    let from = 0;
    for (const cut of [...cuts.filter((c) => c <= bytes.length)].sort((a, b) => a - b).concat(bytes.length)) {
      const r = s.push(Buffer.from(bytes.subarray(from, cut)));
      parts.push(r.bytes);
      bad.push(...r.bad);
      from = cut;
    }
    const r = s.end();
    parts.push(r.bytes);
    bad.push(...r.bad);
    return { out: Buffer.concat(parts), bad };
  };

  it("passes valid bytes through untouched however they are cut", () => {
    const text = Buffer.from("héllo 😀 wörld\n日本");
    for (let cut = 0; cut <= text.length; cut++) {
      const { out, bad } = run(text, [cut]);
      expect(bad).toEqual([]);
      expect(out.equals(text)).toBe(true);
    }
  });

  it("output is valid UTF-8 of the same length, and the flagged offsets do not depend on the chunking", () => {
    fc.assert(
      fc.property(mostlyUtf8, fc.array(fc.nat(40), { maxLength: 4 }), (bytes, cuts) => {
        const whole = run(bytes, []);
        const chunked = run(bytes, cuts);
        expect(chunked.out.length).toBe(bytes.length);
        expect(isValid(chunked.out)).toBe(true);
        expect(chunked.bad).toEqual(whole.bad);
        expect(whole.bad.length === 0).toBe(isValid(bytes));
        for (const i of chunked.bad) expect(chunked.out[i]).toBe(0x3f);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("openDatasetFile", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "simeval-bytes-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["missing", "nope.jsonl", "nope.jsonl: no such file"],
    ["a directory", "sub", "sub: is a directory; expected a dataset file (.jsonl, .json or .csv)"],
    ["empty", "empty.jsonl", "empty.jsonl: the file is empty; expected rows"],
  ])("%s → DATASET_INVALID naming the file", async (_name, file, message) => {
    await mkdir(join(dir, "sub"), { recursive: true });
    await writeFile(join(dir, "empty.jsonl"), "");
    const err = await openDatasetFile(join(dir, file), "rows").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvalError);
    expect((err as EvalError).code).toBe("DATASET_INVALID");
    expect((err as EvalError).message).toBe(join(dir, message));
  });

  it("a text file starting with the first bytes of a magic number only (a CSV column named PK) is opened", async () => {
    const path = join(dir, "pk.csv");
    await writeFile(path, "PK,output\n1,a\n");
    const handle = await openDatasetFile(path, "rows");
    await handle.close();
  });

  const fifoDir = tempDir("simeval-fifo-");
  const fifo = makeFifo(fifoDir, "rows.jsonl");
  it.skipIf(fifo === undefined)("a FIFO → DATASET_INVALID saying it is a pipe, without opening it (which would wait for a writer)", async () => {
    await expect(openDatasetFile(fifo!, "rows")).rejects.toMatchObject({ code: "DATASET_INVALID", message: `${fifo}: ${PIPE_REFUSED}` });
  });

  it("a character device → DATASET_INVALID saying what it is", async () => {
    await expect(openDatasetFile("/dev/null", "rows")).rejects.toMatchObject({
      code: "DATASET_INVALID",
      message: "/dev/null: is a character device (a terminal, or a device such as /dev/null), not a regular file; a dataset is read more than once, so save it to a file first and give its path",
    });
  });
});

describe("checkDatasetFile", () => {
  const dir = tempDir("simeval-check-");
  const fifo = makeFifo(dir, "check.jsonl");
  it.skipIf(fifo === undefined)("refuses a FIFO", () => {
    expect(() => checkDatasetFile(fifo!)).toThrow(expect.objectContaining({ code: "DATASET_INVALID", message: `${fifo}: ${PIPE_REFUSED}` }));
    expect(() => checkDatasetFile(fifo!)).toThrow(new EvalError("DATASET_INVALID", `${fifo}: ${PIPE_REFUSED}`));
  });

  it("accepts a regular file, also through a symlink, and names a missing one", async () => {
    const path = join(dir, "ok.jsonl");
    await writeFile(path, "{}\n");
    await symlink(path, join(dir, "link.jsonl"));
    expect(checkDatasetFile(path).size).toBe(3);
    expect(checkDatasetFile(join(dir, "link.jsonl")).size).toBe(3);
    expect(() => checkDatasetFile(join(dir, "nope.jsonl"))).toThrow(expect.objectContaining({ code: "DATASET_INVALID", message: `${join(dir, "nope.jsonl")}: no such file` }));
  });
});

describe("readReusedChunks", () => {
  const dir = tempDir("simeval-reused-");
  it("closes the file as an abort comes, though the generator is left suspended (as a consumer that stops on the abort leaves it)", async () => {
    const path = join(dir, "two-reads.jsonl");
    await writeFile(path, Buffer.alloc(CHUNK_BYTES + 10, 0x61));
    const handle = await open(path, "r");
    const controller = new AbortController();
    const chunks = readReusedChunks(path, handle, controller.signal);
    expect((await chunks.next()).value).toHaveLength(CHUNK_BYTES);
    controller.abort();
    // Closing has begun (a FileHandle's fd is -1 from then on); nothing asked the generator for more or ended it.
    expect(handle.fd).toBe(-1);
    await expect(chunks.next()).rejects.toBe(controller.signal.reason);
  });

  const drain = async (chunks: AsyncIterable<Buffer>): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const chunk of chunks) parts.push(Buffer.from(chunk));
    return Buffer.concat(parts);
  };

  it("skips a BOM at the start of the file only, not one that starts a later read", async () => {
    const path = join(dir, "bom-at-read.jsonl");
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const body = Buffer.concat([Buffer.alloc(CHUNK_BYTES - 3, 0x61), bom, Buffer.from("tail")]);
    await writeFile(path, Buffer.concat([bom, body]));
    expect((await drain(readReusedChunks(path, await open(path, "r")))).equals(body)).toBe(true);
  });

  it("closes the file at the end, and leaves no abort listener on the signal", async () => {
    const path = join(dir, "closed.jsonl");
    await writeFile(path, '{"a":1}\n');
    const signal = new AbortController().signal;
    const handle = await open(path, "r");
    await drain(readReusedChunks(path, handle, signal));
    expect(handle.fd).toBe(-1);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("a read error names the file (DATASET_INVALID), as the open errors do", async () => {
    const sub = join(dir, "a-directory");
    await mkdir(sub);
    await expect(drain(readReusedChunks(sub, await open(sub, "r")))).rejects.toMatchObject({ code: "DATASET_INVALID", message: expect.stringContaining(`${sub}: is a directory`) });
  });
});
