import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonArrayScanner } from "./json-array-scanner.js";
import { parseArrayElement } from "./read-json.js";
import type { DatasetItem, UnparsedRow } from "./rows.js";
import { brief } from "./test-support.js";

/**
 * What `scanner` makes of `bytes` (a leading BOM skipped, as reads skip it) read in pieces ending at each of `ends`,
 * then ended: its items, each element parsed.
 */
function scanned(scanner: JsonArrayScanner, bytes: Buffer, ends: number[]): DatasetItem[] {
  const out: (DatasetItem | UnparsedRow)[] = [];
  const body = bytes.subarray(bytes[0] === 0xef ? 3 : 0);
  let from = 0;
  for (const end of ends) {
    const stop = Math.min(body.length, end);
    if (stop > from) scanner.push(Buffer.from(body.subarray(from, stop)), out);
    from = Math.max(from, stop);
    if (scanner.stopped) return out.map(parsed);
  }
  scanner.end(out);
  return out.map(parsed);
}

const parsed = (item: DatasetItem | UnparsedRow): DatasetItem => ("json" in item ? parseArrayElement(item) : item);

describe("JsonArrayScanner", () => {
  it("an element longer than a string can hold is a row error, its bytes not kept; the rows after it still come", () => {
    // Node.js's limit (about 512 MiB) made small: a scanner allowing elements of at most 12 bytes (the last one is 12).
    const text = '[{"a":1},\n{"a":"long text"},\n{"a":3}, "1234567890"]';
    for (const split of [[text.length], [12, 16, 20, 24, 40, text.length]]) {
      const scanner = new JsonArrayScanner("long.json", undefined, 12);
      const items = scanned(scanner, Buffer.from(text), split);
      expect(brief(items)).toEqual([
        [1, 1, { a: 1 }],
        [2, 2, "line 2: an element of 17 bytes, longer than the longest text Node.js can hold (12 characters); expected a JSON array of row objects"],
        [3, 3, { a: 3 }],
        [4, 3, "line 3: expected a row object in the array, found a string"],
      ]);
      expect((scanner as unknown as { pieces: Buffer[] }).pieces).toEqual([]);
    }
  });

  it("invalid UTF-8 in an element: placed on its own line, also in an element read in pieces whose last read is ASCII", () => {
    const text = Buffer.concat([Buffer.from('[{"a":1,\n  "b":"'), Buffer.from([0xff]), Buffer.from('"},\n{"c":2}]')]);
    for (const split of [[text.length], [17, text.length], [18, text.length]]) {
      const items = scanned(new JsonArrayScanner("u.json"), text, split);
      expect(brief(items)).toEqual([
        [1, 1, "line 2: not valid UTF-8 at byte 8 of the line; expected UTF-8 text"],
        [2, 3, { c: 2 }],
      ]);
    }
  });

  it("an element of just the longest length is kept, also when a read ends right after it (a bare value ends at the next byte)", () => {
    for (const split of [[14], [13, 14], [1, 13, 14]]) {
      const items = scanned(new JsonArrayScanner("long.json", undefined, 12), Buffer.from("[123456789012]"), split);
      expect(brief(items)).toEqual([[1, 1, "line 1: expected a row object in the array, found a number"]]);
    }
  });

  it("finds the same rows however the file is cut into reads (property)", () => {
    const element = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v, null, 1)),
      fc.dictionary(fc.string({ unit: "binary" }), fc.jsonValue(), { maxKeys: 3 }).map((v) => JSON.stringify(v)),
      fc.constantFrom('{"a" 1}', '{"a":1,}', "{'a':1}", "tru", "-", '"s\\"', '{"a":"\\\""}', '{"a":[1}', '{"a":"x\ny"}', "}", ",", "x", "é", "中", "😀x"),
    );
    const space = fc.constantFrom("", " ", "\n", "\r\n", "\t");
    const file = fc.tuple(fc.array(fc.tuple(space, element, space), { minLength: 1, maxLength: 8 }), fc.boolean(), fc.constantFrom("]", "]\n", ",]", "] x", "", '] "a\\"b"', '] "\\u0041"', "] 😀", "]中")).map(([elements, bom, end]) =>
      Buffer.from(`${bom ? "\uFEFF" : ""}[${elements.map(([a, e, b]) => `${a}${e}${b}`).join(",")}${end}`),
    );
    fc.assert(
      fc.property(file, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const read = (split: number[]) => {
          const warnings: string[] = [];
          const scanner = new JsonArrayScanner("p.json", (w) => warnings.push(w));
          try {
            return { items: scanned(scanner, bytes, split), warnings };
          } catch (err) {
            return { thrown: (err as Error).message };
          }
        };
        const whole = read([bytes.length]);
        const split = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        expect(read([...split, bytes.length])).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it("says what stopped the read, or what the top level holds, alike however the file is cut into reads (property)", () => {
    // A character, literal or string cut by a read is described once the next read completes it: not as bytes
    // that are not UTF-8, nor as its first byte.
    const top = fc.constantFrom("true", "false", "null", '"ab"', "-1", "中", "😀", "é", "x");
    const junk = fc.constantFrom("中", "😀", "é", '"a\\"b"', '"\\u0041"', '"ab"', "true");
    const file = fc.oneof(
      fc.tuple(fc.constantFrom("", "  ", "\n"), top).map(([a, t]) => Buffer.from(`${a}${t}`)),
      fc.tuple(fc.constantFrom("", ",", "]"), junk).map(([at, j]) => Buffer.from(`[{"a":1}${at} ${j} `)),
    );
    fc.assert(
      fc.property(file, fc.nat(), (bytes, cut) => {
        const read = (split: number[]) => {
          try {
            return scanned(new JsonArrayScanner("p.json"), bytes, split);
          } catch (err) {
            return (err as Error).message;
          }
        };
        const whole = read([bytes.length]);
        expect(JSON.stringify(whole)).not.toContain("UTF-8");
        expect(read([cut % (bytes.length + 1), bytes.length])).toEqual(whole);
      }),
    );
    const inTwo = (bytes: Buffer, at: number): DatasetItem[] | string => {
      try {
        return scanned(new JsonArrayScanner("p.json"), bytes, [at, bytes.length]);
      } catch (err) {
        return (err as Error).message;
      }
    };
    const stopped = ". Reading stopped here: the rest of the file is not in the run";
    expect(inTwo(Buffer.from("  true"), 4)).toBe("p.json: expected a JSON array of row objects at the top level, found a boolean");
    expect(inTwo(Buffer.from('[{"a":1}] "a\\"b"'), 13)).toEqual([
      { row: 1, line: 1, record: { a: 1 } },
      { row: 2, line: 1, error: { code: "DATASET_READ_STOPPED", message: `line 1: not valid JSON (unexpected string "a\\"b" after the array's closing ] at byte 11 of the line); expected a JSON array of row objects${stopped}` } },
    ]);
    expect(inTwo(Buffer.from("[{},\n中]"), 6)).toEqual([
      { row: 1, line: 1, record: {} },
      { row: 2, line: 2, error: { code: "DATASET_READ_STOPPED", message: `line 2: not valid JSON (unexpected "中" at byte 1 of the line); expected a JSON array of row objects${stopped}` } },
    ]);
  });
});
