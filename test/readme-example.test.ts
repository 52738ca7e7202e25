import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The example dataset's rows, as JSON objects. */
function rows(file: string): Record<string, unknown>[] {
  return readFileSync(new URL(`../examples/${file}`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("README's first screen: the example", () => {
  // It said "300 support questions with reference answers", and the example's first summary shows 294 scored and
  // 6 skipped, unexplained: a newcomer's first question.
  it("tells the example's questions, those with a reference answer, and the skipped rest, as the files hold them", () => {
    for (const file of ["support-prompt-a.jsonl", "support-prompt-b.jsonl"]) {
      const all = rows(file);
      const withReference = all.filter((r) => typeof r["expected"] === "string" && r["expected"] !== "").length;
      const intro = readme.slice(readme.indexOf("The example scores"), readme.indexOf("![The HTML run report"));
      expect(intro.replace(/\s+/g, " ")).toContain(
        `(${all.length} support questions answered by two prompt variants, ${withReference} of them with a reference answer: the ${all.length - withReference} without are the summary's \`skipped\`)`,
      );
    }
  });
});
