import type { RunStore } from "../../storage/store.js";
import type { CliIO } from "../io.js";
import { terminalProgress } from "../progress.js";
import { loadRun } from "../run-ref.js";
import { compare, printComparison, refuseMismatchedGate, refuseNoCommonEvaluator } from "./compare.js";

/**
 * `simeval run … --baseline`: compares the new run with the baseline in the same step and prints it.
 * Returns the baseline's label and the evaluators on which the new run is significantly worse, or null
 * when there was nothing to compare. With `gate` (--fail-on-regression), runs whose ids disagree, or
 * that share no evaluator, are a USAGE error rather than a verdict.
 */
export async function compareAgainstBaseline(store: RunStore, runId: string, io: CliIO, gate: boolean): Promise<{ baseline: string; regressed: string[] } | null> {
  const baseline = await store.baseline();
  if (!baseline) {
    io.stderr("simeval: --baseline: no baseline is set yet; `simeval baseline set RUN` marks a known-good run");
    return null;
  }
  const a = await loadRun(baseline.id, store);
  const b = await loadRun(runId, store);
  try {
    refuseNoCommonEvaluator(a, b);
  } catch (error) {
    // Nothing to compare: a gate has no verdict (exit 2); otherwise the run stands and this is said.
    if (gate) throw error;
    io.stderr(`simeval: --baseline: ${(error as Error).message}`);
    return null;
  }
  const comparison = await compare(a, b, 1, terminalProgress(process.stderr));
  io.stdout(`\nAgainst the baseline:\n${printComparison(comparison)}`);
  if (gate) refuseMismatchedGate(comparison);
  return { baseline: a.label, regressed: comparison.evaluators.filter((e) => e.regressed).map((e) => e.name) };
}
