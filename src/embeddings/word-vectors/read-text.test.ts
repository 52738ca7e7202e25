import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTextVectors } from "./read-text.js";
import { evalErrorOf, tempDir, writeIn } from "../../test-support.js";

const dir = tempDir("simeval-read-text-");

const file = (name: string, text: string) => writeIn(dir, name, text);
const failure = (path: string) => evalErrorOf(readTextVectors(path));

describe("readTextVectors", () => {
  it("reads GloVe lines in file order", async () => {
    const t = await readTextVectors(file("glove.txt", "the 0.5 -1 2\ncat 1e-3 0 -0.25\nsat 3 4 5\n"));
    expect(t.words).toEqual(["the", "cat", "sat"]);
    expect(t.dim).toBe(3);
    expect([...t.data]).toEqual([0.5, -1, 2, 0.001, 0, -0.25, 3, 4, 5].map(Math.fround));
    expect(t.scales).toBeNull();
  });

  it("reads a fastText .vec file: header, trailing spaces, CRLF", async () => {
    const t = await readTextVectors(file("ft.vec", "2 2\r\nthe 1 2 \r\nCat -1 0.5 \r\n"));
    expect(t.words).toEqual(["the", "Cat"]);
    expect(t.dim).toBe(2);
    expect([...t.data]).toEqual([1, 2, -1, 0.5]);
  });

  it("drops a UTF-8 byte order mark before the first word or the fastText header", async () => {
    const glove = await readTextVectors(file("bom.txt", "\uFEFFthe 1 2\ncat 3 4\n"));
    expect(glove.words).toEqual(["the", "cat"]);
    const ft = await readTextVectors(file("bom.vec", "\uFEFF2 2\nthe 1 2\ncat 3 4\n"));
    expect({ words: ft.words, dim: ft.dim, data: [...ft.data] }).toEqual({ words: ["the", "cat"], dim: 2, data: [1, 2, 3, 4] });
  });

  it("keeps a word with spaces (GloVe 840B has some): the last d fields are the vector", async () => {
    const t = await readTextVectors(file("spaces.txt", "a 1 2\n. . . 3 4\n"));
    expect(t.words).toEqual(["a", ". . ."]);
    expect([...t.data]).toEqual([1, 2, 3, 4]);
  });

  it("names file:line, the numbers expected and those found, when a line has more numbers than the dimension", async () => {
    const glove = file("long.txt", "the 1 0 0\ncat 0 1 0 5\n");
    expect((await failure(glove)).message).toContain(
      `${glove}:2: expected 4 fields (a word and 3 numbers, the dimension of the first line), found 5 (a word and 4 numbers): "cat 0 1 0 5"`,
    );
    // With a fastText header, whose dimension then rules; a word with spaces does not hide the extra number.
    const ft = file("long.vec", "2 2\nthe 1 2\n. . 3 4 5\n");
    expect((await failure(ft)).message).toContain(`${ft}:3: expected 3 fields (a word and 2 numbers, the dimension the fastText header declares), found 5 (a word and 3 numbers)`);
  });

  it("reads more than one chunk of rows", async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `w${i} ${i} ${-i}`);
    const t = await readTextVectors(file("big.txt", lines.join("\n")));
    expect(t.words.length).toBe(40_000);
    expect(t.data.length).toBe(80_000);
    expect([t.data[2 * 39_999], t.data[2 * 39_999 + 1]]).toEqual([39_999, -39_999]);
    expect([t.data[2 * 16_384], t.data[2 * 16_384 + 1]]).toEqual([16_384, -16_384]);
  });

  it("names file:line when a line has too few numbers", async () => {
    const path = file("short.txt", "the 1 2 3\ncat 1 2\n");
    const err = await failure(path);
    expect(err.code).toBe("CONFIG_INVALID");
    expect(err.issues).toEqual([{ path: ["config", "path"], message: expect.stringContaining(`${path}:2: expected 4 fields`) as unknown, received: path }]);
    expect(err.message).toContain(`${path}:2: expected 4 fields (a word and 3 numbers, the dimension of the first line), found 3`);
  });

  it("names file:line and the component when a value is not a number", async () => {
    const path = file("nan.txt", "the 1 2\ncat 1 x2\n");
    const err = await failure(path);
    expect(err.message).toContain(`${path}:2: component 2 of "cat" is "x2", expected a finite number`);
    expect(err.code).toBe("CONFIG_INVALID");
  });

  it("reports a fastText file shorter than its header says", async () => {
    const path = file("truncated.vec", "3 2\nthe 1 2\ncat 3 4\n");
    const err = await failure(path);
    expect(err.message).toContain("the fastText header declares 3 words but the file has 2; is it truncated?");
    expect(err.code).toBe("CONFIG_INVALID");
  });

  it("rejects an empty file and a missing one", async () => {
    const empty = await failure(file("empty.txt", "\n\n"));
    expect({ code: empty.code, message: empty.message }).toEqual({ code: "CONFIG_INVALID", message: expect.stringContaining("holds no word vectors") as unknown });
    const missing = await failure(join(dir, "nope.txt"));
    expect({ code: missing.code, message: missing.message }).toEqual({ code: "CONFIG_INVALID", message: expect.stringMatching(/could not read .*nope\.txt.*ENOENT/) as unknown });
  });
});
