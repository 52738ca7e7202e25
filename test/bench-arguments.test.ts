import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Runs a benchmark script as `npm run bench` does, with a time limit far under what a benchmark takes. */
function bench(script: string, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", script, ...args], { cwd: root, encoding: "utf8", timeout: 30_000 });
}

/** `npm run bench -- --help` ran every benchmark (minutes, gigabytes), and bench/dataset.ts took "--help" as NaN rows. */
describe("the benchmarks' arguments", () => {
  it("bench/index.ts prints its usage for --help and refuses any other argument, before any benchmark runs", () => {
    const help = bench("bench/index.ts", "--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("npm run bench: every benchmark, one after the other");
    expect(help.stdout).toContain("npm run build && npx tsx bench/dataset.ts [rows]");
    expect(help.stdout).not.toContain("##");
    const other = bench("bench/index.ts", "dataset");
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('bench: takes no arguments, received "dataset"');
    expect(other.stdout).toBe("");
  });

  it("bench/dataset.ts prints its usage for --help and refuses a row count that is not a whole number", () => {
    const help = bench("bench/dataset.ts", "--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("usage: npm run build && npx tsx bench/dataset.ts [rows]");
    for (const rows of ["abc", "1e6", "0", "-5"]) {
      const bad = bench("bench/dataset.ts", rows);
      expect(bad.status, rows).toBe(2);
      expect(bad.stderr).toContain(`bench/dataset.ts: rows must be a whole number above 0, received ${JSON.stringify(rows)}`);
      expect(bad.stdout).not.toContain("## Dataset run");
    }
  });
});
