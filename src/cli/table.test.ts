import fc from "fast-check";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { renderTable, renderTableBlocks, wrapWords } from "./table.js";

describe("renderTable", () => {
  it("keeps each row on one line and escapes what a cell holds from the data (a path, an id), as forTerminal does", () => {
    const table = renderTable(["id", "dataset"], [["a\nb", "/tmp/x\u001b[31m\u202e.jsonl"], ["c\r\nd", "/tmp/y.jsonl"]]);
    expect(table.split("\n")).toEqual([
      "id              dataset",
      "--------------  ----------------------------",
      "a\\u000ab        /tmp/x\\u001b[31m\\u202e.jsonl",
      "c\\u000d\\u000ad  /tmp/y.jsonl",
    ]);
  });

  it("aligns columns by the width a terminal gives a cell: a letter with combining marks takes one column, a CJK character or an emoji two", () => {
    const table = renderTable(["name", "n"], [["e\u0301e\u0301", 1], ["中文", 2], ["👍🏽x", 3], ["abcd", 4]]);
    const [, , ...lines] = table.split("\n");
    // Each line's "n" column starts at the same terminal column: 4 columns of name, then two spaces.
    expect(lines).toEqual(["e\u0301e\u0301    1", "中文  2", "👍🏽x   3", "abcd  4"]);
  });
});

describe("renderTableBlocks", () => {
  const cell = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("中文", "👍🏽", "e\u0301"), fc.integer({ min: 0, max: 10 ** 6 }));
  const table = fc.integer({ min: 1, max: 9 }).chain((columns) =>
    fc.record({
      header: fc.array(fc.string({ minLength: 1, maxLength: 15 }).map((h) => h.replace(/\s/g, "_")), { minLength: columns, maxLength: columns }),
      rows: fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { maxLength: 4 }),
      keep: fc.integer({ min: 0, max: columns }),
      width: fc.integer({ min: 1, max: 120 }),
    }),
  );

  /** A rendered table's width: its dashes line's, since the other lines drop their trailing spaces. */
  const widthOf = (t: string): number => stringWidth(t.split("\n")[1] ?? "");

  it("prints the one table when it fits, else tables each repeating the kept columns and as many others as fit, every column once and in order", () => {
    fc.assert(
      fc.property(table, ({ header, rows, keep, width }) => {
        // The reference deals the columns by rendering each candidate table and measuring it.
        const render = (columns: number[]) => {
          const pick = <T>(r: readonly T[]) => [...r.slice(0, keep), ...columns.map((i) => r[i] as T)];
          return renderTable(pick(header), rows.map(pick));
        };
        const blocks: number[][] = [];
        for (let i = keep; i < header.length; i++) {
          const last = blocks[blocks.length - 1];
          if (last && widthOf(render([...last, i])) <= width) last.push(i);
          else blocks.push([i]);
        }
        const expected = blocks.length <= 1 ? renderTable(header, rows) : blocks.map(render).join("\n\n");
        expect(renderTableBlocks(header, rows, keep, width)).toBe(expected);
      }),
    );
  });

  it("deals a wide table's evaluator columns into tables that fit the width, each naming the runs", () => {
    const header = ["run", "started", ...Array.from({ length: 6 }, (_, i) => `evaluator_${i}`)];
    const rows = [["a", "2026-01-01", 0.5, 0.25, 0.125, 1, 0, 0.75]];
    const text = renderTableBlocks(header, rows, 2, 50);
    expect(text.split("\n\n").map((b) => b.split("\n")[0])).toEqual([
      "run  started     evaluator_0  evaluator_1",
      "run  started     evaluator_2  evaluator_3",
      "run  started     evaluator_4  evaluator_5",
    ]);
    expect(text.split("\n\n")[1]?.split("\n")[2]).toBe("a    2026-01-01        0.125            1");
  });
});

describe("wrapWords", () => {
  it("gives back the text's words in lines no wider than asked, a longer word on a line of its own", () => {
    const word = fc.stringMatching(/^[a-zé中]{1,12}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 40 }), (ws, width) => {
        const lines = wrapWords(ws.join(" "), width);
        expect(lines.join(" ")).toBe(ws.join(" "));
        for (const line of lines) if (line.includes(" ")) expect(stringWidth(line)).toBeLessThanOrEqual(width);
        // Greedy: each line but the last would overflow with the next line's first word.
        lines.slice(0, -1).forEach((line, i) => expect(stringWidth(`${line} ${(lines[i + 1] as string).split(" ")[0]}`)).toBeGreaterThan(width));
      }),
    );
  });
});
