import { EvalError } from "../../errors.js";
import type { RunInfo } from "../../run/types.js";
import type { RunStore } from "../../storage/store.js";
import { warn, type CliIO } from "../io.js";
import { terminalProgress } from "../progress.js";
import { loadRun } from "../run-ref.js";
import { forTerminalLine } from "../format.js";
import { tableWidth } from "../table.js";
import { compare, comparisonJson, printComparison, mismatchWithheld, refuseWithheldVerdict, refuseNoCommonEvaluator, regressionVerdict, type ComparisonJson } from "./compare.js";
import { describeUnscored, unscoredEvaluators } from "./baseline.js";
import { runLabel } from "./recorded-runs.js";

/**
 * `simeval run … --baseline`: compares the new run with the baseline in the same step and prints it.
 * Returns the baseline's label and id, the evaluators on which the new run is significantly worse, those
 * with no row scored in both runs (no verdict, which fails a gate), and the whole comparison as `compare --json`
 * gives it, or null when there was nothing to
 * compare. With `gate` (--fail-on-regression), no baseline (unset since the run began), runs whose ids
 * disagree, or that share no evaluator, or a baseline in which one of the run's evaluators scored no row
 * (see {@link unscoredInBaseline}), are a USAGE error rather than a verdict; without it, the first and
 * last are a warning. `createdDatabase`, the path of a run database this run created, makes the no-baseline
 * warning say so: the baseline a user set elsewhere (a CI job's earlier runner) is not in it. Each warning, printed
 * on stderr (see {@link warn}), is pushed to `warnings` too (without the prefix before it), for `--summary` and `--report`, which
 * would otherwise give a null `baseline` without saying why; so are the comparison's own warnings (rows in one run
 * only, ids that disagree), which its text prints.
 */
export async function compareAgainstBaseline(store: RunStore, runId: string, io: CliIO, gate: boolean, createdDatabase?: string, warnings: string[] = []): Promise<BaselineVerdict | null> {
  const said = (text: string) => {
    warn(io, text);
    warnings.push(text);
  };
  const baseline = await store.baseline();
  if (!baseline && gate) {
    // runCommand refused the gate before the first row when no baseline was set: another process deleted its run since.
    throw new EvalError(
      "USAGE",
      "--fail-on-regression: no baseline is set any more (its run was deleted while this run was being recorded), so there is no verdict; `simeval baseline set RUN` marks a known-good run",
    );
  }
  if (!baseline) {
    const created = createdDatabase === undefined ? "" : ` (this run created the run database ${forTerminalLine(createdDatabase)}: a CI runner starts without one unless the file is kept between jobs)`;
    said(`--baseline: no baseline is set yet${created}; \`simeval baseline set RUN\` marks a known-good run`);
    return null;
  }
  const a = await loadRun(baseline.id, store);
  const b = await loadRun(runId, store);
  try {
    refuseNoCommonEvaluator(a, b);
  } catch (error) {
    // Nothing to compare: a gate has no verdict (exit 2); otherwise the run stands and this is said.
    if (gate) throw error;
    said(`--baseline: ${(error as Error).message}`);
    return null;
  }
  const unscored = unscoredInBaseline(baseline, Object.keys(b.types));
  if (unscored && gate) throw new EvalError("USAGE", `--fail-on-regression: ${unscored}; \`simeval baseline set RUN\` marks a run in which every evaluator scored rows`);
  if (unscored) said(`--baseline: ${unscored}`);
  // No signal: the run is scored by now, so a first Ctrl-C or SIGTERM lets the comparison and the files be finished.
  // The comparison lets the event loop turn every 10,000 rows all the same, so that one while it reads a million rows
  // (about 12 s, from a synchronous store) is heard: said, and the same signal again stops at once.
  const comparison = await compare(a, b, 1, terminalProgress(process.stderr));
  io.stdout(`\nAgainst the baseline:\n${printComparison(comparison, tableWidth(io), io.columns)}`);
  // Printed in that text; said in --summary's and --report's warnings too, with the run's own.
  for (const w of comparison.warnings) warnings.push(`--baseline: ${w}`);
  // Only ids that disagree: this run's own end (a read that stopped) is said and gated by run itself, and the baseline is complete.
  if (gate) refuseWithheldVerdict(mismatchWithheld(comparison));
  return { baseline: a.label, baseline_id: baseline.id, ...regressionVerdict(comparison), comparison: comparisonJson(comparison, a, b) };
}

/** The new run against the baseline: the evaluators it regressed on, and those with no pair to judge (see {@link compareAgainstBaseline}). */
export interface BaselineVerdict {
  /** The baseline as printed: `NAME (ID)`, or its id when unnamed. */
  baseline: string;
  /** Its run id, for a reader of summary.json that should not parse the label (a name may hold brackets). */
  baseline_id: string;
  regressed: string[];
  no_verdict: string[];
  /** How many evaluators the comparison covers. */
  compared: number;
  /**
   * The comparison as `simeval compare BASELINE RUN --json` prints it (each evaluator's means, difference, interval,
   * p-value, verdict and rows improved, regressed and unchanged), for summary.json's `baseline.comparison`: with
   * `--baseline`, there is no other way to read these figures but the text.
   */
  comparison: ComparisonJson;
}

/**
 * What is wrong with a baseline in which some of `evaluators` (the new run's) scored no row: a comparison
 * has no pairs for them, so it cannot show a regression on them, and a gate would pass unchecked. Null
 * when every one of them scored rows (an evaluator the new run lacks is not compared, so it does not count).
 */
export function unscoredInBaseline(baseline: RunInfo, evaluators: readonly string[]): string | null {
  const unscored = unscoredEvaluators(baseline).filter((e) => evaluators.includes(e.name));
  if (!unscored.length) return null;
  return `the baseline ${runLabel(baseline)}: ${describeUnscored(unscored)} scored no row in it, so a comparison with it cannot show a regression on ${unscored.length > 1 ? "them" : "it"}`;
}
