import { describe, expect, it } from "vitest";
import { renderTable } from "./table.js";

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
