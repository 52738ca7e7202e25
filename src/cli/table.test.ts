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
});
