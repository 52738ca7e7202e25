import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * The types of the documented signatures, as a TypeScript user imports them from the built package
 * ("The types in these signatures are exported too"): compiled with tsc, strict, nodenext.
 */
describe("the package's types", () => {
  // Inside the package, so that `simeval` resolves to itself through its exports.
  const dir = mkdtempSync(join(root, "test", ".types-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("export the inputs of the report renderers, verdictNow's result, the embedding cache and a provider factory's hooks", () => {
    writeFileSync(
      join(dir, "consumer.ts"),
      `import type { EvalVerdict, EmbeddingCache, EmbeddingProviderHooks, EvaluatorEnv, Evaluator } from "simeval";
import type { RunReportInput, ComparisonReportInput, TrendReportInput, JUnitInput } from "simeval/node";
import { renderRunReport, renderComparisonReport, renderTrendReport, renderJUnit } from "simeval/node";
export const verdict = (e: Evaluator): EvalVerdict | undefined => e.verdictNow?.({ output: "a", expected: "a" });
export const cache: EvaluatorEnv["embeddingCache"] = undefined as EmbeddingCache | undefined;
export const hooks: EmbeddingProviderHooks = { notice: () => {} };
export const renderers: [(i: RunReportInput) => string, (i: ComparisonReportInput) => string, (i: TrendReportInput) => string, (i: JUnitInput) => string] =
  [renderRunReport, renderComparisonReport, renderTrendReport, renderJUnit];
`,
    );
    const args = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", join(dir, "consumer.ts")];
    const p = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), ...args], { cwd: root, encoding: "utf8" });
    expect(p.stdout + p.stderr).toBe("");
    expect(p.status).toBe(0);
  }, 60_000);
});
