import { EvalError } from "../errors.js";
import { didYouMean } from "../evaluators/suggest.js";
import type { EvaluatorSummary, RunSummary } from "../run/types.js";
import { formatFigure, formatRate, printedFigure, printedRate } from "./format.js";

export type GateKind = "fail-under" | "fail-over" | "min-pass-rate";

export interface Gate {
  kind: GateKind;
  evaluator: string;
  value: number;
}

export interface GateOutcome {
  name: string;
  passed: boolean;
  message: string;
}

/** Parses `NAME=VALUE` gate arguments; a malformed one is a USAGE error naming the flag and the argument. */
export function parseGates(kind: GateKind, args: readonly string[] | undefined): Gate[] {
  return (args ?? []).map((arg) => {
    const m = /^(.+)=([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/.exec(arg);
    const value = m ? Number(m[2]) : Number.NaN;
    if (!m || !Number.isFinite(value)) {
      throw new EvalError("USAGE", `--${kind} takes EVALUATOR=NUMBER (e.g. --${kind} levenshtein=0.8), received ${JSON.stringify(arg)}`);
    }
    if (kind === "min-pass-rate" && (value < 0 || value > 1)) {
      // 95 for 95%: say how it is written.
      const percent = value > 1 && value <= 100 ? `: a pass rate of ${value}% is written ${m[1]}=${Number((value / 100).toPrecision(15))}` : "";
      throw new EvalError("USAGE", `--min-pass-rate takes a fraction in [0, 1] (e.g. exact_match=0.95), received ${JSON.stringify(arg)}${percent}`);
    }
    return { kind, evaluator: m[1] as string, value };
  });
}

/**
 * Checks gates against the run's evaluators before anything runs: the name exists, the gate suits the
 * evaluator's direction (`--fail-under` a similarity, `--fail-over` a distance), `--min-pass-rate`
 * names an evaluator with a threshold (the others give no verdicts), and the value can be reached
 * (similarities are at most 1, distances at least 0).
 */
export function checkGates(gates: readonly Gate[], evaluators: readonly { name: string; direction: string; threshold: number | null }[]): void {
  const names = evaluators.map((e) => e.name);
  for (const g of gates) {
    const e = evaluators.find((x) => x.name === g.evaluator);
    const gate = `--${g.kind} ${g.evaluator}=${g.value}`;
    if (!e) throw new EvalError("USAGE", `${gate}: no evaluator is named "${g.evaluator}"; the evaluators are ${names.join(", ")}.${didYouMean(g.evaluator, names)}`);
    const distance = e.direction === "minimize";
    if (g.kind === "fail-under" && distance) {
      throw new EvalError("USAGE", `${gate}: "${g.evaluator}" is a distance (lower is better); use --fail-over ${g.evaluator}=N to fail when its mean is above N`);
    }
    if (g.kind === "fail-over" && !distance) {
      throw new EvalError("USAGE", `${gate}: "${g.evaluator}" is a similarity (higher is better); use --fail-under ${g.evaluator}=N to fail when its mean is below N`);
    }
    if (g.kind === "min-pass-rate" && e.threshold === null) {
      throw new EvalError("USAGE", `${gate}: "${g.evaluator}" has no threshold, so it gives no pass/fail verdicts; set "threshold" in its config, or gate its mean with --${distance ? "fail-over" : "fail-under"}`);
    }
    if (g.kind === "fail-under" && g.value > 1) throw new EvalError("USAGE", `${gate}: "${g.evaluator}" scores at most 1, so this gate could never pass`);
    if (g.kind === "fail-over" && g.value < 0) throw new EvalError("USAGE", `${gate}: "${g.evaluator}" is never negative, so this gate could never pass`);
  }
}

/**
 * Evaluates gates on a summary. A gate compares the value exactly as it is printed (means to 4
 * decimals, pass rates to 0.1%), so what a person reads is what decided the exit code. A gate on an
 * evaluator that failed on some rows (an embedding API that refused the key, a mapping that matched
 * several values) fails whatever its figure: that figure covers only the rows it could score, which
 * may be the few it scored without the failing part (identical or empty texts), so it vouches for
 * nothing. Skipped rows (no expected output) are not failures.
 */
export function evaluateGates(gates: readonly Gate[], summary: RunSummary): GateOutcome[] {
  return gates.map((g) => {
    const s = summary.evaluators.find((e) => e.name === g.evaluator) as EvaluatorSummary;
    const name = `--${g.kind} ${g.evaluator}=${g.value}`;
    const figure = g.kind === "min-pass-rate" ? `pass rate ${formatRate(s)}` : `mean ${formatFigure(s.mean)}`;
    if (s.errors > 0) {
      const failedRows = `${s.errors.toLocaleString("en-US")} ${s.errors === 1 ? "row" : "rows"}`;
      // With nothing scored there is no figure to qualify: say so, rather than "its mean - covers only the 0".
      const scored = s.n === 0 ? "and scored no row" : `its ${figure} covers only the ${s.n.toLocaleString("en-US")} it scored`;
      return { name, passed: false, message: `${name}: failed, ${g.evaluator} failed on ${failedRows} (${scored})` };
    }
    if (g.kind === "min-pass-rate") {
      const rate = printedRate(s);
      if (rate === null) return { name, passed: false, message: `${name}: failed, ${g.evaluator} gave no verdicts` };
      const passed = rate >= g.value;
      return { name, passed, message: `${name}: ${passed ? "passed" : "failed"}, ${figure}` };
    }
    if (s.mean === null) return { name, passed: false, message: `${name}: failed, ${g.evaluator} scored no rows` };
    const mean = printedFigure(s.mean);
    const passed = g.kind === "fail-under" ? mean >= g.value : mean <= g.value;
    return { name, passed, message: `${name}: ${passed ? "passed" : "failed"}, ${figure}` };
  });
}
