import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const flat = readme.replace(/\s+/g, " ");

/** The "Dataset runs" table: each pass's seconds and ratio to the bare pass, by the pass's name. */
function datasetTable(): Map<string, { seconds: number; ratio: number }> {
  const section = readme.slice(readme.indexOf("### Dataset runs"));
  const rows = new Map<string, { seconds: number; ratio: number }>();
  for (const m of section.matchAll(/^\| ([^|]+?) \| ([\d.]+) \| [\d,]+ \| ([\d.]+) \| \d+ \|$/gm)) {
    rows.set(m[1] as string, { seconds: Number(m[2]), ratio: Number(m[3]) });
  }
  if (rows.size < 6) throw new Error(`README's Dataset runs table has ${rows.size} rows`);
  return rows;
}

function row(name: string): { seconds: number; ratio: number } {
  const r = datasetTable().get(name);
  if (!r) throw new Error(`no row "${name}" in README's Dataset runs table`);
  return r;
}

describe("README's benchmark prose agrees with the Dataset runs table it stands under", () => {
  // "the bare pass alone, writing lines of that size, takes about 9 times its own time", under a table giving 20.60.
  it("says how many times the bare pass takes when it writes lines of results.jsonl's size, as the table gives it", () => {
    const ratio = row("bare, writing lines the size of results.jsonl's").ratio;
    const m = / the bare pass alone, writing lines of that size, takes ([\d.]+) to ([\d.]+) times its own time on this shared machine \(([\d.]+) in the table above\)/.exec(flat);
    expect(m, "the sentence on the bare pass writing lines").not.toBeNull();
    const [low, high, quoted] = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(quoted).toBe(ratio);
    expect(low).toBeLessThanOrEqual(ratio);
    expect(high).toBeGreaterThanOrEqual(ratio);
    expect(flat).toContain(`the bare pass writing lines has measured ${m![1]} to ${m![2]} times the floor on it`);
  });
});

describe("README's run reference quotes the Dataset runs table as it stands", () => {
  // It said "it takes a quarter of the time of a run that writes --out", where the table gives 3.67 s against 10.96 s.
  it("gives a summary-only run's time against a run writing --out as the table does", () => {
    const summaryOnly = row("simeval: 4 evaluators, summary only").seconds;
    const withOut = row("simeval: 4 evaluators, results.jsonl").seconds;
    const m = /which nothing would read: it takes (about|less than) a (quarter|third|half) of the time of a run that writes `--out` \(([\d.]+) s against ([\d.]+) s on a million rows;/.exec(flat);
    expect(m, "the sentence on a summary-only run's time").not.toBeNull();
    expect([Number(m![3]), Number(m![4])]).toEqual([summaryOnly, withOut]);
    const fraction = { quarter: 1 / 4, third: 1 / 3, half: 1 / 2 }[m![2] as "quarter" | "third" | "half"];
    if (m![1] === "about") expect(Math.abs(summaryOnly / withOut - fraction)).toBeLessThan(0.04);
    else expect(summaryOnly / withOut).toBeLessThan(fraction);
  });
});
