import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wordTokens } from "../../metrics/tokens.js";
import { addRow, indexWords, quantizeRows, rowOf, tokenRows, type WordTable } from "./table.js";

describe("indexWords", () => {
  it("maps lower-cased words to their first (most frequent) row", () => {
    const index = indexWords(["Paris", "the", "paris", "PARIS", "Étoile"]);
    expect(index.get("paris")).toBe(0);
    expect(index.get("the")).toBe(1);
    expect(index.get("étoile")).toBe(4);
    expect(index.has("Paris")).toBe(false);
    expect(index.size).toBe(3);
  });

  it("lower-cases as wordTokens does, so that a Greek word with a final sigma is found", () => {
    const index = indexWords(["οδος", "ΚΑΙ"]);
    for (const text of ["ΟΔΟΣ ΚΑΙ", "ΟΔΟΣ.ΚΑΙ", "οδος και"]) for (const word of wordTokens(text)) expect(index.has(word), `${text}: ${word}`).toBe(true);
  });
});

describe("tokenRows", () => {
  it("keeps the words a text can produce and leaves out punctuation and multi-token entries", () => {
    const index = indexWords(["the", ",", "n't", "e-mail", "café", "東京", "1990", "x_y", "."]);
    expect(tokenRows(index)).toEqual([0, 4, 5, 6]);
  });
});

describe("quantizeRows", () => {
  it("stores each row as int8 codes times a per-row scale max|x| / 127", () => {
    const { data, scales } = quantizeRows(Float32Array.from([1, -0.5, 0.25, 0, 0, 0, 254, 127, -254]), 3);
    expect([...scales]).toEqual([Math.fround(1 / 127), 0, 2]);
    expect([...data]).toEqual([127, -64, 32, 0, 0, 0, 127, 64, -127]);
  });

  it("is off by at most half a step (scale / 2) in every component", () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -10, max: 10, noNaN: true }), { minLength: 4, maxLength: 4 }), (row) => {
        const original = Float32Array.from(row);
        const q = quantizeRows(original, 4);
        const table: WordTable = { words: ["w"], dim: 4, data: q.data, scales: q.scales };
        const back = rowOf(table, 0);
        const scale = q.scales[0] as number;
        for (let j = 0; j < 4; j++) expect(Math.abs((back[j] as number) - (original[j] as number))).toBeLessThanOrEqual(scale / 2 + 1e-6);
      }),
    );
  });
});

describe("addRow", () => {
  it("adds factor × row, dequantising int8 rows", () => {
    const out = Float64Array.from([1, 1]);
    addRow({ words: ["a", "b"], dim: 2, data: Int8Array.from([0, 0, 10, -20]), scales: Float32Array.from([1, 0.5]) }, 1, 2, out);
    expect([...out]).toEqual([11, -19]);
  });
});
