import fc from "fast-check";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { describeEvaluators } from "../../evaluators/describe.js";
import { listCommand, wrapWords } from "./list.js";

/** What `simeval list` prints on a terminal `columns` wide (undefined: not a terminal). */
function listed(columns: number | undefined): string {
  let out = "";
  listCommand({}, { stdout: (s) => void (out += s), stderr: () => undefined, columns });
  return out;
}

describe("simeval list", () => {
  it("fits its lines to the terminal, and to 160 columns when not one, where they ran to some 300 columns", () => {
    for (const [columns, width] of [[undefined, 160], [120, 120], [160, 160]] as const) {
      const long = listed(columns).split("\n").filter((l) => stringWidth(l) > width);
      expect(long, `${columns}`).toEqual([]);
    }
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
