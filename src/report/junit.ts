/**
 * JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): one `<testsuite>` per evaluator
 * (`simeval.<name>`) with one `<testcase>` per row, a `simeval:rows` suite for rows that could not be
 * read, and a `simeval:gates` suite with one testcase per gate (and per part of the dataset the run
 * does not cover). simeval's own suites are named with a colon so that no evaluator's suite can take
 * their name: an evaluator may be named `rows` or `gates`, and its suite is `simeval.rows`.
 *
 * Written with a small escape function rather than an XML builder: the document is flat, and the
 * builders checked (fast-xml-builder) do not remove the control characters XML 1.0 forbids, which
 * model outputs do contain; see escape.ts. {@link JUnitBuilder} takes the rows one at a time and hands
 * each testcase's XML to a sink, so that a file writer can keep a million rows out of memory.
 */
import { argumentError, isPlainObject } from "../errors.js";
import { isResultError, type RowOutcome } from "../run/types.js";
import { escapeXml, escapeXmlText } from "./escape.js";
import { checkReportInput } from "./check-input.js";
import { capCodePoints, formatId } from "./format.js";
import type { GateResult, JUnitInput } from "./types.js";

/** simeval's own suites: no `simeval.<evaluator>` suite can have these names, whatever the evaluator is named. */
const ROWS_SUITE = "simeval:rows";
const GATES_SUITE = "simeval:gates";

interface Case {
  name: string;
  /** Absent = passed. */
  outcome?: { kind: "failure" | "error" | "skipped"; message: string; type?: string; body?: string };
}

/** Counts in a suite, as JUnit's attributes name them. */
interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function noCounts(): Counts {
  return { tests: 0, failures: 0, errors: 0, skipped: 0 };
}

function count(c: Counts, k: Case): void {
  c.tests++;
  if (k.outcome?.kind === "failure") c.failures++;
  else if (k.outcome?.kind === "error") c.errors++;
  else if (k.outcome?.kind === "skipped") c.skipped++;
}

/** `row N (id ID)`: a line break or tab in the id is written as `\n`, `\r`, `\t`, so that the name stays one line in CI views. */
function caseName(row: RowOutcome): string {
  const id = formatId(row.id).replace(/[\r\n\t]/g, (c) => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
  return id === "" ? `row ${row.row}` : `row ${row.row} (id ${id})`;
}

/**
 * The text's first line that is not blank, cut past 300 characters (code points, so that no surrogate pair is
 * split into U+FFFD): a reasoning or error that starts with a line break would otherwise give an empty message,
 * which is all a CI view shows of a failure. "" when every line is blank.
 */
function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const capped = capCodePoints(line, 299);
  return capped.length > 300 ? `${capped.text}…` : line;
}

/**
 * One evaluator's testcase for a row: a failed verdict is a failure, a skipped row skipped (a failure
 * when `skippedAsFailed`, as `--count-skipped-as-zero` counts it), an error an error; none for an unreadable row.
 */
function evaluatorCase(name: string, row: RowOutcome, skippedAsFailed: boolean): Case | null {
  const result = row.results[name];
  // Unreadable rows are reported once, in the rows suite, not once per evaluator.
  if (row.error || result === undefined) return null;
  if (isResultError(result)) return { name: caseName(row), outcome: { kind: "error", message: firstLine(result.error.message), type: result.error.code, body: result.error.message } };
  if (result.skipped && skippedAsFailed) {
    const message = "no expected output; counted as failed because of --count-skipped-as-zero";
    return { name: caseName(row), outcome: { kind: "failure", message, type: result.type, body: result.reasoning } };
  }
  if (result.skipped) return { name: caseName(row), outcome: { kind: "skipped", message: firstLine(result.reasoning || "skipped") } };
  if (result.passed === false) {
    return { name: caseName(row), outcome: { kind: "failure", message: firstLine(result.reasoning), type: result.type, body: `score: ${result.score ?? "none"}\n${result.reasoning}` } };
  }
  return { name: caseName(row) };
}

function unreadableCase(row: RowOutcome): Case {
  const message = row.error?.message ?? "";
  return { name: caseName(row), outcome: { kind: "error", message: firstLine(message), type: row.error?.code ?? "ROW_ERROR", body: message } };
}

function gateCase(g: GateResult): Case {
  return g.passed ? { name: g.name } : { name: g.name, outcome: { kind: "failure", message: firstLine(g.message), type: "gate", body: g.message } };
}

/**
 * A testcase's XML. It has no `time` attribute: the evaluators score a row together and no row's time per
 * evaluator is measured, and `time="0"` on every case read as "took no time" in CI views. The attribute is
 * optional in the JUnit XML that Jenkins (Surefire's schema), GitLab and the GitHub test-report actions read:
 * a case without it counts as 0 in their sums.
 */
function caseXml(suite: string, k: Case): string {
  const open = `    <testcase name="${escapeXml(k.name)}" classname="${escapeXml(suite)}"`;
  const o = k.outcome;
  if (!o) return `${open}/>`;
  const type = o.type === undefined ? "" : ` type="${escapeXml(o.type)}"`;
  const child = o.body === undefined ? `<${o.kind} message="${escapeXml(o.message)}"${type}/>` : `<${o.kind} message="${escapeXml(o.message)}"${type}>${escapeXmlText(o.body)}</${o.kind}>`;
  return `${open}>${child}</testcase>`;
}

/** A suite of the document: its name, counts, and where its testcase lines went. */
interface JUnitSuite {
  /** Index passed to the sink with each of this suite's lines. */
  index: number;
  /** `<testsuite ...>`, counts included; written before the suite's lines. */
  open: string;
  /** `</testsuite>`. */
  close: string;
  /** Lines kept in memory (the gates); others went to the sink. */
  lines: string[];
}

/**
 * Builds the JUnit XML of a run row by row: suites `simeval.<evaluator>` (one testcase per row),
 * `simeval:rows` (unreadable rows) and `simeval:gates`. Each testcase line goes to `sink(suite, line)`
 * as its row arrives; `finish()` gives what goes around them: the document's first lines, each suite's
 * opening (with its counts) and closing, and the last line. A row an evaluator gave no verdict on (no
 * threshold) passes; a skipped row is skipped, or failed for the evaluators in `input.skippedAsFailed`.
 */
export class JUnitBuilder {
  private readonly names: string[];
  private readonly counts: Counts[];
  private readonly skippedAsFailed: ReadonlySet<string>;

  constructor(
    private readonly input: Omit<JUnitInput, "rows" | "gates">,
    private readonly sink: (suite: number, line: string) => void,
  ) {
    this.names = [...input.evaluators.map((e) => `simeval.${e}`), ROWS_SUITE];
    this.counts = this.names.map(noCounts);
    this.skippedAsFailed = new Set(input.skippedAsFailed);
  }

  add(row: RowOutcome): void {
    if (row.error) {
      this.emit(this.names.length - 1, unreadableCase(row));
      return;
    }
    this.input.evaluators.forEach((name, i) => {
      const k = evaluatorCase(name, row, this.skippedAsFailed.has(name));
      if (k) this.emit(i, k);
    });
  }

  /** The document around the sunk lines; the rows suite is left out when no row was unreadable. */
  finish(gates: readonly GateResult[]): { head: string; suites: JUnitSuite[]; tail: string } {
    const rowsSuite = this.names.length - 1;
    const suites = this.names.map((name, index) => ({ name, index, counts: this.counts[index]!, lines: [] as string[] })).filter((s) => s.index !== rowsSuite || s.counts.tests > 0);
    if (gates.length) {
      const counts = noCounts();
      const lines = gates.map((g) => {
        const k = gateCase(g);
        count(counts, k);
        return caseXml(GATES_SUITE, k);
      });
      suites.push({ name: GATES_SUITE, index: -1, counts, lines });
    }
    const total = noCounts();
    for (const s of suites) (Object.keys(total) as (keyof Counts)[]).forEach((key) => (total[key] += s.counts[key]));
    const ts = this.input.timestamp === undefined ? "" : ` timestamp="${escapeXml(this.input.timestamp)}"`;
    const time = timeAttr(this.input.time);
    // The gates are checked once the run has ended: they take no time of it.
    const suiteTime = (index: number) => timeAttr(this.input.time === undefined ? undefined : index < 0 ? 0 : this.input.time);
    return {
      head: [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="${escapeXml(this.input.name)}"${attrs(total)}${time}>`].join("\n"),
      suites: suites.map((s) => ({ index: s.index, open: `  <testsuite name="${escapeXml(s.name)}"${attrs(s.counts)}${suiteTime(s.index)}${ts}>`, close: "  </testsuite>", lines: s.lines })),
      tail: "</testsuites>\n",
    };
  }

  private emit(suite: number, k: Case): void {
    count(this.counts[suite]!, k);
    this.sink(suite, caseXml(this.names[suite]!, k));
  }
}

/** ` time="12.345"` (seconds, 3 decimals at most, as Surefire's schema allows), or nothing when the time is not known. */
function timeAttr(seconds: number | undefined): string {
  return seconds === undefined ? "" : ` time="${seconds.toFixed(3)}"`;
}

function attrs(c: Counts): string {
  return ` tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;
}

/**
 * Renders the run as a JUnit XML document (XML 1.0, UTF-8) in memory; see {@link JUnitBuilder}.
 * Totals on `<testsuites>` add up the suites. An input that is not a {@link JUnitInput} (nothing, `{}`,
 * `rows: 5`, a row that is not an object) throws INPUT_INVALID naming the field.
 */
export function renderJUnit(input: JUnitInput): string {
  checkReportInput("renderJUnit", "a JUnit report's input ({ name, evaluators, rows, gates })", input,
    { name: "string", evaluators: "array", rows: "iterable", gates: "array" },
    { timestamp: "string", skippedAsFailed: "array", time: "number" });
  if (input.time !== undefined && !(Number.isFinite(input.time) && input.time >= 0)) {
    throw argumentError("INPUT_INVALID", "renderJUnit", "input.time", "the run's duration in seconds (a finite number >= 0) or nothing", input.time);
  }
  const lines: string[][] = [];
  const builder = new JUnitBuilder(input, (suite, line) => (lines[suite] ??= []).push(line));
  let position = 0;
  for (const row of input.rows) {
    // The builder reads rows unchecked (a file writer feeds it a run's rows); a `null` threw a TypeError.
    if (!isPlainObject(row)) throw argumentError("INPUT_INVALID", "renderJUnit", `input.rows[${position}]`, "a row outcome ({ row, id, results } or { row, error })", row);
    builder.add(row);
    position++;
  }
  const { head, suites, tail } = builder.finish(input.gates);
  return [head, ...suites.flatMap((s) => [s.open, ...(s.index >= 0 ? (lines[s.index] ?? []) : s.lines), s.close]), tail].join("\n");
}
