import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluatorTypes } from "../evaluators/registry.js";
import { updateConfigTables } from "./config-tables.js";

describe("README evaluator reference", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

  it("documents every registered evaluator with its config table", () => {
    for (const type of evaluatorTypes) expect(readme).toContain(`<!-- config:${type} -->`);
  });

  it("ends each config table before the text after it (a line right after a table's rows is one more row)", () => {
    for (const [, block] of updateConfigTables(readme).matchAll(/<!-- config:[a-z_]+ -->\n([\s\S]*?)\n<!-- \/config:/g)) {
      const lines = (block as string).split("\n");
      const end = lines.findIndex((line) => !line.startsWith("|"));
      if (end >= 0) expect(lines[end], lines[end + 1]).toBe("");
    }
  });

  it("config tables are current (run `npm run docs` after changing a schema)", () => {
    expect(updateConfigTables(readme)).toBe(readme);
  });
});
