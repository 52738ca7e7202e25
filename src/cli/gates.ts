import { EvalError, problemCount, type Issue } from "../errors.js";
import { didYouMean } from "../evaluators/suggest.js";
import type { EvaluatorSummary, RunSummary } from "../run/types.js";
import { formatFigure, formatRate, printedFigure, printedRate } from "./format.js";
import { rowsText } from "../report/format.js";

export type GateKind = "fail-under" | "fail-over" | "min-pass-rate";

export interface Gate {
  kind: GateKind;
  evaluator: string;
  value: number;
}

/** What the checks of a gate need of its evaluator (the config and type tell its lowest score). */
export interface GatedEvaluator {
  name: string;
  direction: string;
  threshold: number | null;
  type?: string;
  config?: Readonly<Record<string, unknown>>;
}

export interface GateOutcome {
  name: string;
  passed: boolean;
  message: string;
}

/**
 * The gates of every flag, in the order fail-under, fail-over, min-pass-rate (each's in the order given),
 * with an issue (at the flag) in the place of every argument that is malformed: all of them, so that one
 * run names every one.
 */
export function readGates(flags: Partial<Record<GateKind, readonly string[] | undefined>>): (Gate | Issue)[] {
  return (["fail-under", "fail-over", "min-pass-rate"] as const).flatMap((kind) =>
    (flags[kind] ?? []).map((arg) => {
      const gate = parseGate(kind, arg);
      return typeof gate === "string" ? { path: [`--${kind}`], message: gate, received: JSON.stringify(arg) } : gate;
    }),
  );
}

/** Whether an entry of {@link readGates} is a gate (not the issue of a malformed argument). */
export function isGate(entry: Gate | Issue): entry is Gate {
  return "kind" in entry;
}

/** One `NAME=VALUE` gate argument as a gate, or what is wrong with it. */
function parseGate(kind: GateKind, arg: string): Gate | string {
  const m = /^(.+)=([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/.exec(arg);
  const value = m ? Number(m[2]) : Number.NaN;
  const received = JSON.stringify(arg);
  const rate = `--min-pass-rate takes a fraction in [0, 1] (e.g. exact_match=0.95), received ${received}`;
  // 80% (or 80 for a pass rate, below): say how it is written.
  const written = (what: string, name: string, pct: number) => `: ${what} of ${pct}% is written ${name}=${Number((pct / 100).toPrecision(15))}`;
  // A pass rate or a similarity's mean; a distance's is a count of edits, which a percentage is not.
  const percent = kind === "fail-over" ? null : /^(.+)=(\d+\.?\d*|\.\d+)\s*%$/.exec(arg);
  if (percent && Number(percent[2]) <= 100) {
    const [, name = "", pct] = percent;
    return kind === "min-pass-rate"
      ? rate + written("a pass rate", name, Number(pct))
      : `--fail-under takes NAME=MEAN, the mean as the scores give it (e.g. levenshtein=0.8), received ${received}` + written("a mean", name, Number(pct));
  }
  // The example suits the option: --fail-over takes a distance, and refuses levenshtein, a similarity.
  const example = kind === "fail-over" ? "levenshtein_distance=5" : "levenshtein=0.8";
  // 1e999 is written as a number, and read as Infinity: said so, not as a value that is no number. So is 1e-400, read as 0
  // (a gate at 0 passes a mean or pass rate of 0, which one at 1e-400 fails), and 1.2e-323, read as 1e-323, as the messages would name it.
  const beyond = m && !Number.isFinite(value) ? `: ${m[2]} is too large to read as a number (beyond ±1.8e308)` : m && tooSmall(m[2] as string, value);
  if (!m || !Number.isFinite(value) || beyond) return `--${kind} takes NAME=${kind === "min-pass-rate" ? "RATE" : "MEAN"}, the name of an evaluator and a number (e.g. --${kind} ${example}), received ${received}${beyond || ""}`;
  if (kind === "min-pass-rate" && (value < 0 || value > 1)) {
    // 95 is likely 95%; 1.01 is more likely a slip past the highest rate than a rate of 1.01%.
    if (value > 1 && value < 2) return rate + ": the highest pass rate, every row passing, is 1";
    return rate + (value > 1 && value <= 100 ? written("a pass rate", m[1] as string, value) : "");
  }
  return { kind, evaluator: m[1] as string, value };
}

/** The smallest double read with all its digits: nearer 0, a number keeps fewer (a subnormal), or none (0). */
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/**
 * What to say of a number `written` (finite as read) that is not 0 as written but reads as 0, or as a subnormal other than
 * the number written (1.2e-323 reads as 1e-323); "" for any other.
 */
function tooSmall(written: string, value: number): string {
  const lost = value === 0 ? /[1-9]/.test(written.split(/e/i)[0] as string) : Math.abs(value) < SMALLEST_NORMAL && decimal(written) !== decimal(String(value));
  return lost ? `: ${written} is too small to read as a number (nearer 0 than ±2.2e-308, it reads as ${value})` : "";
}

/** A decimal number written as `d.ddde±N`, without a sign + or zeros that change nothing: 1.20e-323, +0.012e-321 and 12e-324 are all 1.2e-323. */
function decimal(text: string): string {
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(text) ?? [];
  const digits = whole + fraction;
  const first = digits.search(/[1-9]/);
  if (first < 0) return "0";
  const kept = digits.slice(first).replace(/0+$/, "");
  return `${sign === "-" ? "-" : ""}${kept[0]}.${kept.slice(1)}e${Number(exponent) + whole.length - first - 1}`;
}

/**
 * One USAGE error for the problems of the gate options: a single problem is its message, several are
 * listed one a line under their count (as {@link gatesMessage} says them).
 */
export function gatesError(issues: Issue[]): EvalError {
  return new EvalError("USAGE", gatesMessage(issues, issues.length > 1), { issues });
}

/** The problems of the gate options, as a list under their count when `listed`, else the first's message. */
export function gatesMessage(issues: readonly Issue[], listed: boolean): string {
  if (!listed) return issues[0]?.message ?? "";
  const count = problemCount(issues.length);
  return `${count} with the gate options:\n${issues.map((i) => `✖ ${i.message}`).join("\n")}`;
}

/**
 * Every problem of the gate options, in the order given: each malformed argument's issue from
 * {@link readGates}, and each gate that does not suit the run's evaluators. A gate must name one of them,
 * suit its direction (`--fail-under` a similarity, `--fail-over` a distance); `--min-pass-rate` must name
 * an evaluator with a threshold (the others give no verdicts); and the value must be reachable
 * (similarities are at most 1, distances at least 0) and missable (a similarity's mean is at least its
 * lowest score: 0, or -1 for a cosine). {@link gatesError} makes them one USAGE error.
 */
export function gateIssues(entries: readonly (Gate | Issue)[], evaluators: readonly GatedEvaluator[]): Issue[] {
  const names = evaluators.map((e) => e.name);
  return entries.flatMap((g) => {
    if (!isGate(g)) return [g];
    const problem = gateProblem(g, evaluators, names);
    return problem === undefined ? [] : [{ path: [`--${g.kind}`], message: problem, received: `${g.evaluator}=${g.value}` }];
  });
}

/**
 * For a gate whose name is several gates joined by commas (`--fail-under levenshtein=0.8,exact_match=0.5`, read as
 * the name "levenshtein=0.8,exact_match"), how to give them: the option once for each. Undefined for any other name.
 */
function commaListed(g: Gate): string | undefined {
  const parts = g.evaluator.split(",");
  const earlier = parts.slice(0, -1);
  if (earlier.length === 0 || !earlier.every((p) => /^[^=]+=[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(p))) return undefined;
  const each = [...earlier, `${parts[parts.length - 1]}=${g.value}`].map((p) => `--${g.kind} ${p}`).join(" ");
  return `each --${g.kind} gives one gate: give it once for each, as ${each}`;
}

/**
 * For a gate given two values (`--fail-under levenshtein=0.5=0.8`, read as the name "levenshtein=0.5"), that a gate
 * takes one. Undefined unless what comes before the first "=" names an evaluator of the run.
 */
function valueTwice(g: Gate, names: readonly string[]): string | undefined {
  const m = /^([^=]+)=[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.exec(g.evaluator);
  if (!m || !names.includes(m[1] as string)) return undefined;
  return `a gate takes one value, as --${g.kind} ${m[1]}=${g.value}`;
}

/** What is wrong with one gate, or undefined. */
function gateProblem(g: Gate, evaluators: readonly GatedEvaluator[], names: string[]): string | undefined {
  const e = evaluators.find((x) => x.name === g.evaluator);
  const gate = `--${g.kind} ${g.evaluator}=${g.value}`;
  if (!e) return `${gate}: no evaluator is named "${g.evaluator}"; ${commaListed(g) ?? valueTwice(g, names) ?? `the evaluators are ${names.join(", ")}.${didYouMean(g.evaluator, names)}`}`;
  const distance = e.direction === "minimize";
  if (g.kind === "fail-under" && distance) {
    return `${gate}: "${g.evaluator}" is a distance (lower is better); use --fail-over ${g.evaluator}=MEAN to fail when its mean is above MEAN`;
  }
  if (g.kind === "fail-over" && !distance) {
    return `${gate}: "${g.evaluator}" is a similarity (higher is better); use --fail-under ${g.evaluator}=MEAN to fail when its mean is below MEAN`;
  }
  if (g.kind === "min-pass-rate" && e.threshold === null) {
    return `${gate}: "${g.evaluator}" has no threshold, so it gives no pass/fail verdicts; set "threshold" in its config, or gate its mean with --${distance ? "fail-over" : "fail-under"}`;
  }
  if (g.kind === "fail-under" && g.value > 1) return `${gate}: "${g.evaluator}" scores at most 1, so this gate could never pass`;
  if (g.kind === "fail-over" && g.value < 0) return `${gate}: "${g.evaluator}" is never negative, so this gate could never pass`;
  // A mean that cannot be below the value never fails the gate: a gate that gates nothing is a typo, not a choice.
  // (A gate at the lowest score is one: it fails only when the evaluator fails on rows or scores none.)
  const lowest = lowestScore(e);
  if (g.kind === "fail-under" && g.value < lowest) {
    return `${gate}: "${g.evaluator}" scores at least ${lowest}, so its mean is never below ${g.value} and this gate could never fail; give the lowest mean that should pass, from ${lowest} to 1`;
  }
  return undefined;
}

/**
 * The lowest score of a similarity: 0, but -1 for semantic_similarity's cosine when it is not rescaled
 * (rescaled, it is clamped to [0, 1]). A distance's is 0 too; it has no highest.
 */
function lowestScore(e: GatedEvaluator): number {
  return e.type === "semantic_similarity" && e.config?.["rescale"] === undefined ? -1 : 0;
}

/**
 * What of the dataset no evaluator saw, or undefined when nothing was lost: its rows that could not be read
 * (`rowErrors`, counting the read that stopped, when `readStopped`, as one), and the rest of a file whose
 * reading stopped (an I/O error), whose rows are not known, so not counted.
 */
export function datasetLost(rowErrors: number, readStopped: boolean): string | undefined {
  const unreadable = rowErrors - (readStopped ? 1 : 0);
  const lost = [
    ...(unreadable > 0 ? [`${rowsText(unreadable)} of the dataset could not be read`] : []),
    ...(readStopped ? ["the dataset was not read to its end"] : []),
  ];
  return lost.length ? lost.join(" and ") : undefined;
}

/**
 * Why a gate fails whatever its figure, or undefined when nothing does: what of the dataset was lost
 * ({@link datasetLost}, which no evaluator saw), and rows the evaluator failed on; each is named, so that one
 * does not hide the other. The figure is qualified by what it covers, or, when the evaluator scored no
 * row, that is said rather than "its mean - covers only the rows read".
 */
function failureBehindFigure(evaluator: string, s: EvaluatorSummary, lost: string | undefined, figure: string): string | undefined {
  if (lost === undefined && s.errors === 0) return undefined;
  const causes: string[] = [];
  if (lost !== undefined) causes.push(lost);
  if (s.errors > 0) causes.push(`${evaluator} failed on ${rowsText(s.errors)}`);
  if (s.n === 0) return `${causes.join(" and ")} (and ${s.errors > 0 ? "" : `${evaluator} `}scored no row)`;
  const covered = s.errors > 0 ? `the ${s.n.toLocaleString("en-US")} it scored` : "the rows read";
  return `${causes.join(" and ")} (its ${figure} covers only ${covered})`;
}

/**
 * Evaluates gates on a summary. A gate compares the value exactly as it is printed (means to 4
 * decimals, pass rates to 0.1%), so what a person reads is what decided the exit code. A gate on an
 * evaluator that failed on some rows (an embedding API that refused the key, a mapping that matched
 * several values) fails whatever its figure: that figure covers only the rows it could score, which
 * may be the few it scored without the failing part (identical or empty texts), so it vouches for
 * nothing. So does every gate of a run with rows that could not be read (bad JSON, a ragged CSV row), which
 * no evaluator saw, or whose file was not read to its end (`readStopped`). Skipped rows (no expected output) are not failures.
 */
export function evaluateGates(gates: readonly Gate[], summary: RunSummary, readStopped = false): GateOutcome[] {
  const lost = datasetLost(summary.row_errors, readStopped);
  return gates.map((g) => {
    const s = summary.evaluators.find((e) => e.name === g.evaluator) as EvaluatorSummary;
    const name = `--${g.kind} ${g.evaluator}=${g.value}`;
    const figure = g.kind === "min-pass-rate" ? `pass rate ${formatRate(s)}` : `mean ${formatFigure(s.mean)}`;
    const failure = failureBehindFigure(g.evaluator, s, lost, figure);
    if (failure !== undefined) return { name, passed: false, message: `${name}: failed, ${failure}` };
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
