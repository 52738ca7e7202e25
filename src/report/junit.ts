/**
 * JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): one `<testsuite>` per evaluator
 * with one `<testcase>` per row, a `simeval.rows` suite for rows that could not be read, and a
 * `simeval.gates` suite with one testcase per `--fail-under` gate.
 *
 * Written with a small escape function rather than an XML builder: the document is flat, and the
 * builders checked (fast-xml-builder) do not remove the control characters XML 1.0 forbids, which
 * model outputs do contain; see escape.ts.
 */
import { isResultError, type RowOutcome } from "../run/types.js";
import { escapeXml, escapeXmlText } from "./escape.js";
import { formatId } from "./format.js";
import type { GateResult, JUnitInput } from "./types.js";

interface Case {
  name: string;
  /** Absent = passed. */
  outcome?: { kind: "failure" | "error" | "skipped"; message: string; type?: string; body?: string };
}

/** Counts in a suite, as JUnit's attributes name them. */
function counts(cases: readonly Case[]): { tests: number; failures: number; errors: number; skipped: number } {
  const of = (kind: string): number => cases.filter((c) => c.outcome?.kind === kind).length;
  return { tests: cases.length, failures: of("failure"), errors: of("error"), skipped: of("skipped") };
}

function caseName(row: RowOutcome): string {
  const id = formatId(row.id);
  return id === "" ? `row ${row.row}` : `row ${row.row} (id ${id})`;
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The testcases of one evaluator: a failed verdict is a failure, a skipped row skipped, an error an error. */
function evaluatorCases(name: string, rows: readonly RowOutcome[]): Case[] {
  const cases: Case[] = [];
  for (const row of rows) {
    const result = row.results[name];
    // Unreadable rows are reported once, in the rows suite, not once per evaluator.
    if (row.error || result === undefined) continue;
    if (isResultError(result)) {
      cases.push({ name: caseName(row), outcome: { kind: "error", message: firstLine(result.error.message), type: result.error.code, body: result.error.message } });
    } else if (result.skipped) {
      cases.push({ name: caseName(row), outcome: { kind: "skipped", message: firstLine(result.reasoning || "skipped") } });
    } else if (result.passed === false) {
      cases.push({
        name: caseName(row),
        outcome: { kind: "failure", message: firstLine(result.reasoning), type: result.type, body: `score: ${result.score ?? "none"}\n${result.reasoning}` },
      });
    } else cases.push({ name: caseName(row) });
  }
  return cases;
}

function gateCases(gates: readonly GateResult[]): Case[] {
  return gates.map((g) =>
    g.passed ? { name: g.name } : { name: g.name, outcome: { kind: "failure", message: firstLine(g.message), type: "gate", body: g.message } },
  );
}

function suiteXml(name: string, cases: readonly Case[], timestamp: string | undefined): string {
  const c = counts(cases);
  const ts = timestamp === undefined ? "" : ` timestamp="${escapeXml(timestamp)}"`;
  const lines = [
    `  <testsuite name="${escapeXml(name)}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="0"${ts}>`,
  ];
  for (const k of cases) {
    const open = `    <testcase name="${escapeXml(k.name)}" classname="${escapeXml(name)}" time="0"`;
    const o = k.outcome;
    if (!o) {
      lines.push(`${open}/>`);
      continue;
    }
    const type = o.type === undefined ? "" : ` type="${escapeXml(o.type)}"`;
    const child =
      o.body === undefined
        ? `<${o.kind} message="${escapeXml(o.message)}"${type}/>`
        : `<${o.kind} message="${escapeXml(o.message)}"${type}>${escapeXmlText(o.body)}</${o.kind}>`;
    lines.push(`${open}>${child}</testcase>`);
  }
  lines.push("  </testsuite>");
  return lines.join("\n");
}

/**
 * Renders the run as a JUnit XML document (XML 1.0, UTF-8). Suite names are `simeval.<evaluator>`,
 * testcase names `row <n> (id <id>)`; a row an evaluator gave no verdict on (no threshold) passes.
 * Totals on `<testsuites>` add up the suites.
 */
export function renderJUnit(input: JUnitInput): string {
  const suites: { name: string; cases: Case[] }[] = input.evaluators.map((name) => ({ name: `simeval.${name}`, cases: evaluatorCases(name, input.rows) }));
  const unreadable = input.rows.filter((r) => r.error);
  if (unreadable.length) {
    suites.push({
      name: "simeval.rows",
      cases: unreadable.map((r) => ({
        name: caseName(r),
        outcome: {
          kind: "error",
          message: firstLine(r.error?.message ?? ""),
          type: r.error?.code ?? "ROW_ERROR",
          body: `${r.line === undefined ? "" : `line ${r.line}: `}${r.error?.message ?? ""}`,
        },
      })),
    });
  }
  if (input.gates.length) suites.push({ name: "simeval.gates", cases: gateCases(input.gates) });
  const total = suites.reduce(
    (t, s) => {
      const c = counts(s.cases);
      return { tests: t.tests + c.tests, failures: t.failures + c.failures, errors: t.errors + c.errors, skipped: t.skipped + c.skipped };
    },
    { tests: 0, failures: 0, errors: 0, skipped: 0 },
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${escapeXml(input.name)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${total.skipped}" time="0">`,
    ...suites.map((s) => suiteXml(s.name, s.cases, input.timestamp)),
    `</testsuites>`,
    "",
  ].join("\n");
}
