import { describe, expect, it } from "vitest";
import type { Issue } from "../errors.js";
import type { EvaluatorSummary, RunSummary } from "../run/types.js";
import { datasetLost, evaluateGates, gateIssues, gatesError, isGate, readGates, type Gate, type GatedEvaluator, type GateKind } from "./gates.js";

/** One flag's arguments as gates, throwing the USAGE error of the malformed ones, as `simeval run` does. */
function parseGates(kind: GateKind, args: readonly string[]): Gate[] {
  const entries = readGates({ [kind]: args });
  const malformed = entries.filter((e): e is Issue => !isGate(e));
  if (malformed.length) throw gatesError(malformed);
  return entries.filter(isGate);
}

/** Throws the USAGE error of the gates that do not suit the evaluators, as `simeval run` does. */
function checkGates(gates: readonly Gate[], evaluators: readonly GatedEvaluator[]): void {
  const issues = gateIssues(gates, evaluators);
  if (issues.length) throw gatesError(issues);
}

const evaluator = (name: string, mean: number | null, pass_rate: number | null, direction: "maximize" | "minimize" = "maximize"): EvaluatorSummary => ({
  name,
  type: name,
  direction,
  threshold: null,
  n: 10_000,
  skipped: 0,
  errors: 0,
  mean,
  median: mean,
  p10: mean,
  p90: mean,
  min: mean,
  max: mean,
  pass_rate,
  verdicts: 10_000,
});
const summary = (...evaluators: EvaluatorSummary[]): RunSummary => ({ rows: 10, row_errors: 0, skipped_as_zero: false, evaluators });

describe("gates", () => {
  it("--min-pass-rate given as a percentage (95, 80%) says how to write it as a fraction", () => {
    expect(() => parseGates("min-pass-rate", ["exact_match=95"])).toThrow('--min-pass-rate takes a fraction in [0, 1] (e.g. exact_match=0.95), received "exact_match=95": a pass rate of 95% is written exact_match=0.95');
    expect(() => parseGates("min-pass-rate", ["exact_match=99.9"])).toThrow(/written exact_match=0.999$/);
    expect(() => parseGates("min-pass-rate", ["exact_match=-1"])).toThrow(/received "exact_match=-1"$/);
    // Written with a percent sign, the same hint.
    expect(() => parseGates("min-pass-rate", ["exact_match=80%"])).toThrow('--min-pass-rate takes a fraction in [0, 1] (e.g. exact_match=0.95), received "exact_match=80%": a pass rate of 80% is written exact_match=0.8');
    expect(() => parseGates("min-pass-rate", ["x=99.5 %"])).toThrow(/a pass rate of 99.5% is written x=0.995$/);
    expect(() => parseGates("min-pass-rate", ["x=150%"])).toThrow(/--min-pass-rate takes NAME=RATE, the name of an evaluator and a number .*received "x=150%"$/);
    // A similarity's mean too; a distance's is a count of edits, which a percentage is not.
    expect(() => parseGates("fail-under", ["lev=80%"])).toThrow('--fail-under takes NAME=MEAN, the mean as the scores give it (e.g. levenshtein=0.8), received "lev=80%": a mean of 80% is written lev=0.8');
    expect(() => parseGates("fail-over", ["dist=80%"])).toThrow(/^--fail-over takes NAME=MEAN, the name of an evaluator and a number .*received "dist=80%"$/);
    // Its example is a distance's, where levenshtein=0.8 was one --fail-over refuses (a similarity).
    expect(() => parseGates("fail-over", ["dist"])).toThrow('--fail-over takes NAME=MEAN, the name of an evaluator and a number (e.g. --fail-over levenshtein_distance=5), received "dist"');
  });

  it("a pass rate just over 1 (1.01) is said to be past the highest rate, not read as 1.01%", () => {
    expect(() => parseGates("min-pass-rate", ["em=1.01"])).toThrow('--min-pass-rate takes a fraction in [0, 1] (e.g. exact_match=0.95), received "em=1.01": the highest pass rate, every row passing, is 1');
    expect(() => parseGates("min-pass-rate", ["em=1.999"])).toThrow(/: the highest pass rate, every row passing, is 1$/);
    expect(() => parseGates("min-pass-rate", ["em=2"])).toThrow(/a pass rate of 2% is written em=0.02$/);
  });

  it("a percentage of exactly 100 is explained like any other: 100% is written 1", () => {
    expect(() => parseGates("min-pass-rate", ["em=100%"])).toThrow(/a pass rate of 100% is written em=1$/);
    expect(() => parseGates("min-pass-rate", ["em=100"])).toThrow(/a pass rate of 100% is written em=1$/);
    expect(() => parseGates("fail-under", ["lev=100%"])).toThrow(/a mean of 100% is written lev=1$/);
  });

  it("parse NAME=VALUE and reject anything else, naming the flag", () => {
    expect(parseGates("fail-under", ["levenshtein=0.8", "a=b=0.5"])).toEqual([
      { kind: "fail-under", evaluator: "levenshtein", value: 0.8 },
      { kind: "fail-under", evaluator: "a=b", value: 0.5 },
    ]);
    expect(() => parseGates("fail-under", ["levenshtein"])).toThrow(/--fail-under takes NAME=MEAN, the name of an evaluator and a number/);
    expect(() => parseGates("min-pass-rate", ["x=95"])).toThrow(/fraction in \[0, 1\]/);
    // Only decimal numbers: Number() would also read hex, binary and blanks.
    for (const odd of ["x=0x1", "x=0b1", "x= ", "x=1_0", "x=Infinity"]) expect(() => parseGates("fail-under", [odd])).toThrow(/takes NAME=MEAN/);
    expect(parseGates("fail-over", ["x=-1", "y=.5", "z=2e-1"]).map((g) => g.value)).toEqual([-1, 0.5, 0.2]);
    // A number too large for a double reads as Infinity: said so, where the message only said to give a number.
    expect(() => parseGates("fail-under", ["levenshtein=1e999"])).toThrow(
      '--fail-under takes NAME=MEAN, the name of an evaluator and a number (e.g. --fail-under levenshtein=0.8), received "levenshtein=1e999": 1e999 is too large to read as a number (beyond ±1.8e308)',
    );
    expect(() => parseGates("fail-over", ["x=-1e400"])).toThrow(/received "x=-1e400": -1e400 is too large to read as a number \(beyond ±1\.8e308\)$/);
  });

  it("refuses a number not 0 as written that reads as 0 (1e-400), or as a subnormal other than the one written (1.2e-323 as 1e-323), as 1e999 is", () => {
    // Read as 0, lev=1e-400 passed a mean of 0, which it fails, and the messages named lev=0.
    expect(() => parseGates("fail-under", ["levenshtein=1e-400"])).toThrow(
      '--fail-under takes NAME=MEAN, the name of an evaluator and a number (e.g. --fail-under levenshtein=0.8), received "levenshtein=1e-400": 1e-400 is too small to read as a number (nearer 0 than ±2.2e-308, it reads as 0)',
    );
    expect(() => parseGates("min-pass-rate", ["em=0.00001e-320"])).toThrow(/received "em=0.00001e-320": 0.00001e-320 is too small to read as a number \(nearer 0 than ±2\.2e-308, it reads as 0\)$/);
    expect(() => parseGates("fail-over", ["d=-1e-400"])).toThrow(/received "d=-1e-400": -1e-400 is too small to read as a number \(nearer 0 than ±2\.2e-308, it reads as 0\)$/);
    expect(() => parseGates("fail-under", ["x=1.2e-323"])).toThrow(/received "x=1.2e-323": 1.2e-323 is too small to read as a number \(nearer 0 than ±2\.2e-308, it reads as 1e-323\)$/);
    expect(() => parseGates("fail-over", ["x=3e-324"])).toThrow(/3e-324 is too small to read as a number \(nearer 0 than ±2\.2e-308, it reads as 5e-324\)$/);
    // 0 however written, a subnormal read as written (however its zeros are placed), and the smallest number read in full are gates.
    const kept = ["x=0e-400", "x=-0", "x=0.000e5", "x=1e-320", "x=+0.010e-318", "x=-12.5e-322", "x=2.2250738585072014e-308"];
    expect(parseGates("fail-over", kept).map((g) => g.value)).toEqual([0, -0, 0, 1e-320, 1e-320, -1.25e-321, 2.2250738585072014e-308]);
  });

  it("keeps a normal number however many digits it is written with: only a subnormal's lost digits are refused (the rule is |value| below the smallest normal)", () => {
    // A normal number that a double cannot hold in full (a negative one too, and one just above the subnormals) reads
    // as the nearest double, as 0.1 does: it is no subnormal, and is not said to be too small.
    const kept = ["x=-1.00000000000000001", "x=1.00000000000000001e-307", "x=-1.00000000000000001e-307", "x=2.2250738585072013e-308"];
    expect(parseGates("fail-over", kept).map((g) => g.value)).toEqual([-1, 1.0000000000000001e-307, -1.0000000000000001e-307, 2.2250738585072014e-308]);
    // Just below the smallest normal, the digits a subnormal loses are refused.
    expect(() => parseGates("fail-over", ["x=2.2250738585072011e-308"])).toThrow(/too small to read as a number \(nearer 0 than ±2\.2e-308, it reads as 2\.225073858507201e-308\)$/);
  });

  it("several gates joined by commas in one option say to give the option once for each, rather than list the evaluators", () => {
    const evaluators: GatedEvaluator[] = [
      { name: "levenshtein", direction: "maximize", threshold: 0.8 },
      { name: "exact_match", direction: "maximize", threshold: 1 },
    ];
    const [issue] = gateIssues(readGates({ "fail-under": ["levenshtein=0.8,exact_match=0.5"] }), evaluators);
    expect(issue?.message).toBe(
      '--fail-under levenshtein=0.8,exact_match=0.5: no evaluator is named "levenshtein=0.8,exact_match"; each --fail-under gives one gate: give it once for each, as --fail-under levenshtein=0.8 --fail-under exact_match=0.5',
    );
    // A name with a comma that is not such a list is named as any other unknown name.
    expect(gateIssues(readGates({ "fail-under": ["a,b=0.5"] }), evaluators)[0]?.message).toContain("the evaluators are levenshtein, exact_match.");
  });

  it("a gate given two values says a gate takes one, where it named no evaluator 'levenshtein=0.5'", () => {
    const evaluators: GatedEvaluator[] = [{ name: "levenshtein", direction: "maximize", threshold: 0.8 }];
    expect(gateIssues(readGates({ "fail-under": ["levenshtein=0.5=0.8"] }), evaluators)[0]?.message).toBe(
      '--fail-under levenshtein=0.5=0.8: no evaluator is named "levenshtein=0.5"; a gate takes one value, as --fail-under levenshtein=0.8',
    );
    // Before the "=", a name the run lacks: the evaluators are listed, as for any unknown name.
    expect(gateIssues(readGates({ "fail-under": ["lev=0.5=0.8"] }), evaluators)[0]?.message).toContain("the evaluators are levenshtein.");
  });

  it("name every malformed argument at once, not the first only", () => {
    expect(() => parseGates("fail-under", ["a", "b=0.5", "c=x"])).toThrow('2 problems with the gate options:\n✖ --fail-under takes NAME=MEAN, the name of an evaluator and a number (e.g. --fail-under levenshtein=0.8), received "a"\n✖ --fail-under takes NAME=MEAN, the name of an evaluator and a number (e.g. --fail-under levenshtein=0.8), received "c=x"');
    const parsed = readGates({ "min-pass-rate": ["m=2"], "fail-under": ["u=0.5", "v"] });
    expect(parsed.map((p) => (isGate(p) ? p.evaluator : p.path))).toEqual(["u", ["--fail-under"], ["--min-pass-rate"]]);
  });

  it("checked against the evaluators, every gate that does not suit its evaluator is named at once", () => {
    const evaluators = [{ name: "lev", direction: "maximize", threshold: null }];
    expect(() => checkGates(parseGates("fail-under", ["x=0.5", "lev=0.5", "lev=2"]), evaluators)).toThrow(/^2 problems with the gate options:\n✖ --fail-under x=0\.5: no evaluator is named "x".*\n✖ --fail-under lev=2: "lev" scores at most 1/);
  });

  it("compare the value exactly as printed (4 decimals for means, 0.1% for rates)", () => {
    const s = summary(evaluator("lev", 0.79996, 0.9496));
    // 0.79996 prints as 0.8000, so a gate at 0.8 passes; 0.9496 prints as 95.0%.
    expect(evaluateGates(parseGates("fail-under", ["lev=0.8"]), s)[0]).toMatchObject({ passed: true, message: "--fail-under lev=0.8: passed, mean 0.8000" });
    expect(evaluateGates(parseGates("min-pass-rate", ["lev=0.95"]), s)[0]?.passed).toBe(true);
    const t = summary(evaluator("lev", 0.79994, 0.9494));
    expect(evaluateGates(parseGates("fail-under", ["lev=0.8"]), t)[0]).toMatchObject({ passed: false, message: "--fail-under lev=0.8: failed, mean 0.7999" });
    expect(evaluateGates(parseGates("min-pass-rate", ["lev=0.95"]), t)[0]).toMatchObject({ passed: false, message: "--min-pass-rate lev=0.95: failed, pass rate 94.9%" });
  });

  it("a pass-rate gate at the printed rate passes: 2,470 of 20,000 prints as 12.4%", () => {
    const s = summary({ ...evaluator("em", 0.1, 2470 / 20_000), verdicts: 20_000 });
    expect(evaluateGates(parseGates("min-pass-rate", ["em=0.124"]), s)[0]).toMatchObject({ passed: true, message: "--min-pass-rate em=0.124: passed, pass rate 12.4%" });
    expect(evaluateGates(parseGates("min-pass-rate", ["em=0.1241"]), s)[0]?.passed).toBe(false);
  });

  it("a strict gate fails on a single failing row: the printed figure is never rounded to a whole number", () => {
    const s = summary({ ...evaluator("em", 1999 / 2000, 1999 / 2000), verdicts: 2000 });
    expect(evaluateGates(parseGates("min-pass-rate", ["em=1"]), s)[0]).toMatchObject({ passed: false, message: "--min-pass-rate em=1: failed, pass rate 99.95%" });
    expect(evaluateGates(parseGates("min-pass-rate", ["em=0.9995"]), s)[0]?.passed).toBe(true);
    expect(evaluateGates(parseGates("fail-under", ["em=1"]), summary(evaluator("em", 19_999 / 20_000, null)))[0]).toMatchObject({ passed: false, message: "--fail-under em=1: failed, mean 0.99995" });
    expect(evaluateGates(parseGates("fail-over", ["dist=0"]), summary(evaluator("dist", 0.00004, null, "minimize")))[0]).toMatchObject({ passed: false, message: "--fail-over dist=0: failed, mean 0.00004" });
  });

  it("fail-over gates a distance from above", () => {
    const s = summary(evaluator("dist", 3.2, null, "minimize"));
    expect(evaluateGates(parseGates("fail-over", ["dist=3"]), s)[0]?.passed).toBe(false);
    expect(evaluateGates(parseGates("fail-over", ["dist=4"]), s)[0]?.passed).toBe(true);
  });

  it("a fail-over gate at the printed mean passes: only a mean above the value fails it", () => {
    expect(evaluateGates(parseGates("fail-over", ["dist=3.2"]), summary(evaluator("dist", 3.2, null, "minimize")))[0]).toMatchObject({ passed: true, message: "--fail-over dist=3.2: passed, mean 3.2000" });
    // 3.20004 prints as 3.2000: at the value, so it passes; 3.20006 prints as 3.2001 and fails.
    expect(evaluateGates(parseGates("fail-over", ["dist=3.2"]), summary(evaluator("dist", 3.20004, null, "minimize")))[0]?.passed).toBe(true);
    expect(evaluateGates(parseGates("fail-over", ["dist=3.2"]), summary(evaluator("dist", 3.20006, null, "minimize")))[0]?.passed).toBe(false);
  });

  it("a gate on an evaluator with nothing scored fails, saying why", () => {
    expect(evaluateGates(parseGates("fail-under", ["lev=0.1"]), summary(evaluator("lev", null, null)))[0]?.message).toContain("scored no rows");
  });

  it("a gate on an evaluator that failed on some rows fails, whatever its figure covers", () => {
    // An embedding API that refused the key: only the identical and empty pairs were scored, without it.
    const s = summary({ ...evaluator("oa", 0.5, 0.5), n: 2, verdicts: 2, errors: 5 });
    expect(evaluateGates(parseGates("fail-under", ["oa=0.5"]), s)[0]).toEqual({
      name: "--fail-under oa=0.5",
      passed: false,
      message: "--fail-under oa=0.5: failed, oa failed on 5 rows (its mean 0.5000 covers only the 2 it scored)",
    });
    expect(evaluateGates(parseGates("min-pass-rate", ["oa=0.1"]), s)[0]).toMatchObject({ passed: false, message: expect.stringContaining("failed on 5 rows (its pass rate 50.0% covers only the 2") });
    expect(evaluateGates(parseGates("fail-under", ["oa=0.5"]), summary({ ...evaluator("oa", 0.5, 0.5), skipped: 5 }))[0]?.passed).toBe(true);
    // Every row failed: no figure to qualify, so the message says nothing was scored.
    const none = summary({ ...evaluator("oa", null, null), n: 0, verdicts: 0, errors: 1 });
    expect(evaluateGates(parseGates("fail-under", ["oa=0.5"]), none)[0]?.message).toBe("--fail-under oa=0.5: failed, oa failed on 1 row (and scored no row)");
    expect(evaluateGates(parseGates("min-pass-rate", ["oa=0.5"]), none)[0]?.message).toBe("--min-pass-rate oa=0.5: failed, oa failed on 1 row (and scored no row)");
  });

  it("every gate fails when rows of the dataset could not be read, whatever its figure covers", () => {
    const s = { ...summary(evaluator("lev", 0.91, 0.95)), row_errors: 1 };
    expect(evaluateGates([...parseGates("fail-under", ["lev=0.5"]), ...parseGates("min-pass-rate", ["lev=0.5"])], s)).toEqual([
      { name: "--fail-under lev=0.5", passed: false, message: "--fail-under lev=0.5: failed, 1 row of the dataset could not be read (its mean 0.9100 covers only the rows read)" },
      { name: "--min-pass-rate lev=0.5", passed: false, message: "--min-pass-rate lev=0.5: failed, 1 row of the dataset could not be read (its pass rate 95.0% covers only the rows read)" },
    ]);
    expect(evaluateGates(parseGates("fail-under", ["lev=0.5"]), { ...s, row_errors: 0 })[0]?.passed).toBe(true);
    expect(evaluateGates(parseGates("fail-under", ["lev=0.5"]), { ...s, row_errors: 1200 })[0]?.message).toBe(
      "--fail-under lev=0.5: failed, 1,200 rows of the dataset could not be read (its mean 0.9100 covers only the rows read)",
    );
  });

  it("a read that stopped (an I/O error) fails every gate as the rest of the file not read, not as one row more", () => {
    // row_errors counts the stop as one: the rows after it are not known, so not counted.
    const stopped = { ...summary(evaluator("lev", 0.91, 0.95)), row_errors: 1 };
    expect(evaluateGates(parseGates("fail-under", ["lev=0.5"]), stopped, true)[0]?.message).toBe(
      "--fail-under lev=0.5: failed, the dataset was not read to its end (its mean 0.9100 covers only the rows read)",
    );
    expect(evaluateGates(parseGates("fail-under", ["lev=0.5"]), { ...stopped, row_errors: 3 }, true)[0]?.message).toBe(
      "--fail-under lev=0.5: failed, 2 rows of the dataset could not be read and the dataset was not read to its end (its mean 0.9100 covers only the rows read)",
    );
    expect(datasetLost(0, false)).toBeUndefined();
  });

  it("a gate on rows lost says when its evaluator scored no row, and names the rows it failed on too", () => {
    // Every readable row skipped (or none readable): no figure, so not "its mean - covers only the rows read".
    const none = { ...summary({ ...evaluator("lev", null, null), n: 0, verdicts: 0, skipped: 1 }), row_errors: 2 };
    expect(evaluateGates([...parseGates("fail-under", ["lev=0.5"]), ...parseGates("min-pass-rate", ["lev=0.5"])], none).map((o) => o.message)).toEqual([
      "--fail-under lev=0.5: failed, 2 rows of the dataset could not be read (and lev scored no row)",
      "--min-pass-rate lev=0.5: failed, 2 rows of the dataset could not be read (and lev scored no row)",
    ]);
    // The evaluator's own failures are not hidden behind the rows lost.
    const failed = { ...summary({ ...evaluator("lev", 0.91, 0.95), n: 15, errors: 3 }), row_errors: 1 };
    expect(evaluateGates(parseGates("fail-under", ["lev=0.5"]), failed)[0]?.message).toBe(
      "--fail-under lev=0.5: failed, 1 row of the dataset could not be read and lev failed on 3 rows (its mean 0.9100 covers only the 15 it scored)",
    );
    const failedAll = { ...summary({ ...evaluator("lev", null, null), n: 0, verdicts: 0, errors: 1 }), row_errors: 1 };
    expect(evaluateGates(parseGates("fail-under", ["lev=0.5"]), failedAll)[0]?.message).toBe(
      "--fail-under lev=0.5: failed, 1 row of the dataset could not be read and lev failed on 1 row (and scored no row)",
    );
  });

  it("are checked against the evaluators before the run: name, direction, verdicts, reachable value", () => {
    const evaluators = [
      { name: "lev", direction: "maximize", threshold: 0.8 },
      { name: "dist", direction: "minimize", threshold: null },
    ];
    const check = (kind: "fail-under" | "fail-over" | "min-pass-rate", arg: string) => () => checkGates(parseGates(kind, [arg]), evaluators);
    expect(check("fail-under", "levenshtein=0.8")).toThrow(/no evaluator is named "levenshtein"; the evaluators are lev, dist\.$/);
    expect(check("min-pass-rate", "Lve=0.8")).toThrow(/no evaluator is named "Lve"; the evaluators are lev, dist\. Did you mean "lev"\?$/);
    expect(check("fail-under", "dist=2")).toThrow(/"dist" is a distance .*use --fail-over dist=MEAN to fail when its mean is above MEAN/);
    expect(check("fail-over", "lev=0.5")).toThrow(/"lev" is a similarity .*use --fail-under lev=MEAN to fail when its mean is below MEAN/);
    expect(check("min-pass-rate", "dist=0.5")).toThrow(/"dist" has no threshold, so it gives no pass\/fail verdicts.*--fail-over/);
    expect(check("fail-under", "lev=1.5")).toThrow(/scores at most 1/);
    expect(check("fail-over", "dist=-1")).toThrow(/never negative/);
    for (const [kind, arg] of [["fail-under", "lev=1"], ["fail-over", "dist=0"], ["min-pass-rate", "lev=1"], ["fail-under", "lev=0"], ["fail-over", "dist=1000"]] as const) expect(check(kind, arg)).not.toThrow();
  });

  it("a --fail-under below the evaluator's lowest score, which no mean could fail, is refused", () => {
    const evaluators = [
      { name: "lev", direction: "maximize", threshold: null, type: "levenshtein", config: {} },
      { name: "cos", direction: "maximize", threshold: null, type: "semantic_similarity", config: { provider: "openai" } },
      { name: "scaled", direction: "maximize", threshold: null, type: "semantic_similarity", config: { rescale: { from: 0.7 } } },
    ];
    const check = (arg: string) => () => checkGates(parseGates("fail-under", [arg]), evaluators);
    expect(check("lev=-1")).toThrow('--fail-under lev=-1: "lev" scores at least 0, so its mean is never below -1 and this gate could never fail; give the lowest mean that should pass, from 0 to 1');
    expect(check("scaled=-0.1")).toThrow(/"scaled" scores at least 0,/);
    // A raw cosine may be negative: a gate below 0 can fail, one below -1 cannot.
    expect(check("cos=-0.5")).not.toThrow();
    expect(check("cos=-1.5")).toThrow(/"cos" scores at least -1, so its mean is never below -1.5 and this gate could never fail; give the lowest mean that should pass, from -1 to 1$/);
  });
});
