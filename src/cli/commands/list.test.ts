import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { describeEvaluators } from "../../evaluators/describe.js";
import { listCommand } from "./list.js";

/** What `simeval list` prints on a terminal `columns` wide (undefined: not a terminal). */
function listed(columns: number | undefined): string {
  let out = "";
  listCommand({}, { stdout: (s) => void (out += s), stderr: () => undefined, columns });
  return out;
}


/** Each evaluator's table as `simeval list` prints it at `columns`: its lines, and where its columns start. */
function tables(columns: number): { lines: string[]; at: { accepts: number; default: number; meaning: number } }[] {
  return listed(columns)
    .split("\n\n")
    .map((block) => {
      const lines = block.split("\n");
      const header = lines.findIndex((l) => l.startsWith("  config key"));
      const head = lines[header] as string;
      return { lines: lines.slice(header + 2), at: { accepts: head.indexOf("accepts"), default: head.indexOf("default"), meaning: head.indexOf("meaning") } };
    });
}

/** The cells of a column, each its lines: a cell starts on a line with a key. */
function cells(table: ReturnType<typeof tables>[number], from: number, to?: number): string[][] {
  const out: string[][] = [];
  for (const line of table.lines) {
    const text = line.slice(from, to).trim();
    if (line.slice(0, table.at.accepts).trim() !== "") out.push([]);
    if (text !== "") out[out.length - 1]?.push(text);
  }
  return out;
}

/** Whether each line of `cell` but the last would have gone past `width` with the next line's first word: wrapped at `width` or wider. */
function wrappedAtLeast(cell: readonly string[], width: number): boolean {
  return cell.slice(0, -1).every((line, i) => stringWidth(`${line} ${(cell[i + 1] as string).split(" ")[0]}`) > width);
}

describe("simeval list", () => {
  it("fits its lines to the terminal, and to 160 columns when not one, where they ran to some 300 columns", () => {
    for (const [columns, width] of [[undefined, 160], [120, 120], [160, 160]] as const) {
      const long = listed(columns).split("\n").filter((l) => stringWidth(l) > width);
      expect(long, `${columns}`).toEqual([]);
    }
  });

  it("prints each table whole, unwrapped, on a terminal just as wide as it", () => {
    const whole = tables(10_000);
    whole.forEach((table, i) => {
      const width = Math.max(...table.lines.map((l) => stringWidth(l)));
      expect(tables(width)[i]?.lines, `table ${i} at ${width} columns`).toEqual(table.lines);
      expect(tables(width - 1)[i]?.lines, `table ${i} at ${width - 1} columns`).not.toEqual(table.lines);
    });
  });

  it("names each key once, on its first line, and keeps \"accepts\" to 12 columns and \"meaning\" to 20 at the least on a narrow terminal", () => {
    for (const [i, table] of tables(40).entries()) {
      const e = describeEvaluators()[i];
      expect(cells(table, 0, table.at.accepts).map((c) => c.join(" ")), e?.type).toEqual(e?.config.map((f) => f.key));
      for (const cell of cells(table, table.at.accepts, table.at.default)) expect(wrappedAtLeast(cell, 12), `${e?.type}: ${JSON.stringify(cell)}`).toBe(true);
      for (const cell of cells(table, table.at.meaning)) expect(wrappedAtLeast(cell, 20), `${e?.type}: ${JSON.stringify(cell)}`).toBe(true);
    }
  });

  it("gives \"meaning\" all the room the other columns leave, to the terminal's edge", () => {
    let checked = 0;
    for (const columns of [100, 120, 140]) {
      for (const table of tables(columns)) {
        // Where "accepts" is not wrapped, it takes its own width and no more.
        if (cells(table, table.at.accepts, table.at.default).some((c) => c.length > 1)) continue;
        for (const cell of cells(table, table.at.meaning)) {
          expect(wrappedAtLeast(cell, Math.max(20, columns - table.at.meaning)), `${columns}: ${JSON.stringify(cell)}`).toBe(true);
          if (cell.length > 1) checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("fits a terminal of 80 columns, the usual one's, but for semantic_similarity's table (its default base_url takes 27), and one of 100 whole", () => {
    const blocks = listed(80).split("\n\n");
    for (const block of blocks.filter((b) => !b.startsWith("semantic_similarity "))) {
      expect(block.split("\n").filter((l) => stringWidth(l) > 80), block.split("\n")[0]).toEqual([]);
    }
    expect(listed(100).split("\n").filter((l) => stringWidth(l) > 100)).toEqual([]);
  });

  it("keeps every word of each description and of what each key accepts, in order", () => {
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    const out = words(listed(100));
    for (const e of describeEvaluators()) {
      for (const text of [e.description, ...e.config.flatMap((f) => [f.accepts, f.description])]) {
        // In order from the first, though other columns' words come between: each word is found after the one before.
        let at = out.indexOf(words(text)[0] as string);
        for (const w of words(text)) {
          at = out.indexOf(w, at);
          expect(at, `${e.type}: ${JSON.stringify(w)} of ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });
});
