/**
 * Property-based fuzzing of the gate options: any argument is either refused with an issue at its flag
 * whose message quotes it (a USAGE error, exit 2), or read as a gate whose name and value give the
 * argument back.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exitCodeFor } from "./exit-codes.js";
import { gateIssues, gatesError, isGate, readGates, type GateKind } from "./gates.js";

const SEED = 20240611;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });
const KINDS: GateKind[] = ["fail-under", "fail-over", "min-pass-rate"];

const name = fc.oneof(fc.constantFrom("lev", "exact_match", "a=b", "levenshtein_distance", "é", "😀", " x", "=", "", "50%"), fc.string({ maxLength: 6, unit: "grapheme" }));
const number = fc.oneof(
  fc.constantFrom("0", "1", "0.5", ".5", "5.", "-0", "+1", "1e-7", "1E3", "1e400", "-1e400", "1e-400", "0.95", "95", "95%", "80 %", "100%", "101%", "0x1", "Infinity", "NaN", "1_0", "١", "0.5 ", " 0.5", "1e", ".", "-", "00.5", "9".repeat(400)),
  fc.double({ noNaN: true }).map(String),
  fc.integer().map(String),
  fc.string({ maxLength: 6, unit: fc.constantFrom(..."0123456789.eE+-% ") }),
);
const arg = fc.oneof(fc.tuple(name, number).map(([n, v]) => `${n}=${v}`), fc.string({ maxLength: 10, unit: "binary" }));

describe("gate option fuzzing", () => {
  it("an argument is a gate that gives it back, or an issue at its flag quoting it", () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), arg, (kind, text) => {
        const [entry, ...rest] = readGates({ [kind]: [text] });
        expect(rest).toHaveLength(0);
        if (entry === undefined) throw new Error("no entry");
        if (isGate(entry)) {
          expect(entry.kind).toBe(kind);
          expect(Number.isFinite(entry.value)).toBe(true);
          expect(text.startsWith(`${entry.evaluator}=`)).toBe(true);
          const written = text.slice(entry.evaluator.length + 1);
          expect(Number(written)).toBe(entry.value);
          // Given back as the messages print it, it reads as the same gate.
          const [again] = readGates({ [kind]: [`${entry.evaluator}=${entry.value}`] });
          expect(again && isGate(again) && again.kind === kind && again.evaluator === entry.evaluator && again.value === entry.value).toBe(true);
          if (kind === "min-pass-rate") expect(entry.value >= 0 && entry.value <= 1).toBe(true);
        } else {
          expect(entry.path).toEqual([`--${kind}`]);
          expect(entry.message).toContain(JSON.stringify(text));
          expect(entry.message.startsWith(`--${kind} `)).toBe(true);
          const error = gatesError([entry]);
          expect(exitCodeFor(error.code)).toBe(2);
          expect(error.message).toBe(entry.message);
        }
      }),
      runs(3000),
    );
  });

  it("a gate checked against evaluators is refused with exit 2 naming it, or kept", () => {
    const evaluators = [
      { name: "lev", direction: "maximize", threshold: 0.7, type: "levenshtein", config: {} },
      { name: "dist", direction: "minimize", threshold: null, type: "levenshtein_distance", config: {} },
      { name: "cos", direction: "maximize", threshold: null, type: "semantic_similarity", config: {} },
    ];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.oneof(fc.tuple(fc.constantFrom("lev", "dist", "cos", "nope"), number).map(([n, v]) => `${n}=${v}`), arg)), { maxLength: 4 }), (given) => {
        const flags: Partial<Record<GateKind, string[]>> = {};
        for (const [kind, text] of given) (flags[kind] ??= []).push(text);
        const entries = readGates(flags);
        const issues = gateIssues(entries, evaluators);
        for (const issue of issues) expect(issue.message).toMatch(/^--(fail-under|fail-over|min-pass-rate) /);
        if (issues.length) expect(exitCodeFor(gatesError(issues).code)).toBe(2);
        // Every gate kept can both pass and fail on some mean of its evaluator.
        const refused = new Set(issues.map((i) => i.message));
        for (const g of entries.filter(isGate)) {
          if ([...refused].some((m) => m.startsWith(`--${g.kind} ${g.evaluator}=${g.value}:`))) continue;
          const e = evaluators.find((x) => x.name === g.evaluator);
          expect(e).toBeDefined();
          if (g.kind === "fail-under") expect(g.value >= (e?.type === "semantic_similarity" ? -1 : 0) && g.value <= 1).toBe(true);
          if (g.kind === "fail-over") expect(g.value >= 0).toBe(true);
        }
      }),
      runs(2000),
    );
  });
});
