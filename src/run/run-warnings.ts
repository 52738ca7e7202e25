/**
 * What a finished run should tell a person about its evaluators beyond the figures: an evaluator that
 * failed on rows (with its first error), one that skipped every row, one whose worst rows had no output.
 * The last two are nearly always a mapping that reaches nothing (a typo in a JSONPath, a CSV read with
 * the wrong delimiter), which would otherwise pass quietly as "n 0" or as a mean of zeros.
 */
import { readDataset } from "../dataset/read-dataset.js";
import type { Evaluator } from "../evaluators/create.js";
import { DEFAULT_INPUTS, type InputSource, type Parameter } from "../mapping/inputs.js";
import type { RunDatasetResult } from "./run-dataset.js";
import { cutText } from "../cut-text.js";
import { rowsText } from "../report/format.js";
import { evaluatorNames } from "../compare/evaluator-list.js";

interface RunWarning {
  evaluator: string;
  message: string;
  /** The evaluator failed on rows and scored none (a provider down, a mapping that fails on every row). */
  nothingScored: boolean;
  /** The warning is about what the rows hold (a missing field), so the dataset's fields help. */
  aboutFields: boolean;
  /** With `aboutFields`: the parameter that no row held. */
  parameter?: Parameter;
  /** The evaluator skipped every row: where it looked for the expected value that no row had. */
  allSkippedAt?: string;
  /** The evaluator's worst rows had no output: where it looked for it. */
  noOutputAt?: string;
  /**
   * With `allSkippedAt`: the evaluator reads the output where it is by default (`$.output`), which the rows skipped
   * never showed to be missing; {@link fieldHints} looks for it in the first row, so that both mappings a dataset of
   * other names needs (`question,answer,response`) are said in one run, not the output's only after the next.
   */
  defaultOutput?: boolean;
}

/** The run's warnings, one or more per evaluator that needs one, in evaluator order. */
export function runWarnings(result: Pick<RunDatasetResult, "summary" | "evaluators" | "evaluatorErrors" | "worst">): RunWarning[] {
  const warnings: RunWarning[] = [];
  const readable = result.summary.rows - result.summary.row_errors;
  for (const e of result.evaluators) {
    const s = result.summary.evaluators.find((x) => x.name === e.name);
    if (!s) continue;
    const first = result.evaluatorErrors[e.name];
    if (s.errors > 0 && first) {
      const none = s.n === 0;
      warnings.push({
        evaluator: e.name,
        message: `"${e.name}": ${rowsText(s.errors)} failed${none ? ", and nothing was scored" : ""}; the first, row ${first.row}: ${first.message}`,
        nothingScored: none,
        aboutFields: false,
      });
    }
    if (readable > 0 && s.skipped === readable) {
      const at = where(e, "expected");
      const defaultOutput = e.spec.inputs?.output === undefined;
      warnings.push({ evaluator: e.name, message: allSkippedText([e.name], at), nothingScored: false, aboutFields: true, parameter: "expected", allSkippedAt: at, defaultOutput });
    }
    const worst = result.worst[e.name] ?? [];
    if (worst.length > 0 && worst.every((w) => w.output === null)) {
      const at = where(e, "output");
      warnings.push({
        evaluator: e.name,
        message: `"${e.name}": ${worst.length === 1 ? "its worst row has" : `its ${worst.length} worst rows have`} no output at ${at}, so ${worst.length === 1 ? "it was" : "they were"} scored against the empty string`,
        nothingScored: false,
        aboutFields: true,
        parameter: "output",
        noOutputAt: at,
      });
    }
  }
  return warnings;
}

/**
 * `"lev": every row was skipped: no row has an expected value at $.answer`, naming one evaluator or several
 * (`"a", "b" and "c"`; past five, the first five and how many more, as a comparison counts them).
 */
function allSkippedText(names: readonly string[], at: string): string {
  return `${evaluatorNames(names.map((n) => `"${n}"`))}: every row was skipped: no row has an expected value at ${at}`;
}

/**
 * The warnings' messages with the evaluators that skipped every row for want of an expected value at the same place
 * said once, naming them all, in the first one's place, and likewise those whose worst rows had no output at the same
 * place; every other warning as it is: what `run` says on the terminal, in `--summary` and in `--report`. A run of a
 * dataset without expected texts gave six warnings, alike but for the evaluator's name.
 */
export function warningsSaidOnce(warnings: readonly RunWarning[]): string[] {
  const groups = new Map<string, string[]>();
  const keyOf = (w: RunWarning) => (w.allSkippedAt !== undefined ? `expected ${w.allSkippedAt}` : w.noOutputAt !== undefined ? `output ${w.noOutputAt}` : undefined);
  for (const w of warnings) {
    const key = keyOf(w);
    if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), w.evaluator]);
  }
  return warnings.flatMap((w) => {
    const key = keyOf(w);
    const names = key === undefined ? [] : (groups.get(key) ?? []);
    if (names.length < 2) return [w.message];
    if (names[0] !== w.evaluator) return [];
    if (w.allSkippedAt !== undefined) return [allSkippedText(names, w.allSkippedAt)];
    return [`${evaluatorNames(names.map((n) => `"${n}"`))}: their worst rows have no output at ${w.noOutputAt}, so they were scored against the empty string`];
  });
}

/** Where an evaluator reads a parameter, for messages: its JSONPath(s), or that it is a literal. */
function where(e: Evaluator, parameter: Parameter): string {
  const source: InputSource | undefined = e.spec.inputs?.[parameter];
  if (source === undefined) return DEFAULT_INPUTS[parameter].join(" or ");
  return typeof source === "string" ? source : "its literal (null)";
}

/**
 * The top-level fields of the dataset's first readable row, all of them (so that {@link fieldHints} finds a likely
 * field wherever it is; {@link firstRowFieldsText} shows the first few), for warnings about missing fields; null
 * when none can be read.
 */
export async function firstRowFields(dataset: string): Promise<string[] | null> {
  try {
    for await (const item of readDataset(dataset)) if ("record" in item) return Object.keys(item.record);
  } catch {
    // The run read this file already; a second read failing only costs the hint.
  }
  return null;
}

/** The longest field name {@link firstRowFieldsText} shows whole, in UTF-16 code units. */
const SHOWN_FIELD_LENGTH = 100;

/** How many fields {@link firstRowFieldsText} names; the others are counted. */
const SHOWN_FIELDS = 20;

/**
 * `the first row's fields are "a", "b"` (or that it has none): each name quoted, one over 100 code units cut to its first 100
 * (99 where the 100th would split a surrogate pair) and "…", since a row's key may be megabytes long and
 * this line goes to the terminal, `--summary`'s warnings and the report. The first 20 are named, then how many more
 * there are (`, and 5 more`): a list that stopped at 20 without a word read as all the fields of a row of 25.
 */
export function firstRowFieldsText(fields: readonly string[]): string {
  // A first row `{}` has none: "the first row's fields are " with nothing after it read as cut off.
  if (fields.length === 0) return "the first row has no fields (it is {})";
  const shown = fields.slice(0, SHOWN_FIELDS).map((f) => JSON.stringify(cutText(f, SHOWN_FIELD_LENGTH)));
  const more = fields.length - shown.length;
  return `the first row's fields are ${shown.join(", ")}${more > 0 ? `, and ${more} more` : ""}`;
}

/**
 * Names of fields that usually hold a parameter's text, likeliest first, normalised as {@link fieldHints} compares them
 * (lower case, without "_", "-" or spaces): the product documents' `expectedOutput`, the names
 * other tools and datasets use, and the default names written in another case (`Expected`, `OUTPUT`).
 */
const LIKELY_FIELDS: Readonly<Record<Parameter, readonly string[]>> = {
  output: ["output", "actual", "actualoutput", "response", "modelresponse", "modeloutput", "completion", "prediction", "generated", "generation"],
  // "answer" last: a question-and-answer dataset's reference (the issue's own example row, {question, answer, model_response}).
  expected: ["expected", "expectedoutput", "expectedanswer", "reference", "referenceanswer", "referenceoutput", "groundtruth", "gold", "goldanswer", "target", "ideal", "idealresponse", "answer"],
};

/**
 * For each parameter that a warning says no row held, the field of `fields` (the first row's) whose
 * name most usually holds it (see {@link LIKELY_FIELDS}), and the mapping that reads it: `to read "expectedOutput" as the expected
 * output, map it: "inputs": {"expected": "$.expectedOutput"}`; or, for rows shaped as simeval's results.jsonl, that
 * this is such a file. Empty when no field's name suggests one.
 */
export function fieldHints(warnings: readonly RunWarning[], fields: readonly string[]): string[] {
  const dotted = dottedNameHints(warnings, fields);
  const parameters = new Set(warnings.flatMap((w) => (w.parameter && !dotted.has(w.parameter) ? [w.parameter] : [])));
  // The output at its default place, unseen for rows all skipped: missing from the first row too, it is hinted as well.
  const outputPaths = DEFAULT_INPUTS.output.map((path) => path.slice(2));
  if (warnings.some((w) => w.defaultOutput === true) && !outputPaths.some((f) => fields.includes(f))) parameters.add("output");
  // simeval's own results.jsonl given as the dataset (its rows are {row, id, results}): no mapping reads texts from it.
  if (parameters.size > 0 && fields.includes("row") && fields.includes("results")) {
    return ["the rows look like a results.jsonl that simeval run --out wrote (row, id, results), which holds scores, not texts: give the dataset that was scored"];
  }
  return [...dotted.values(), ...[...parameters].flatMap((p) => {
    // The default name itself, written otherwise ("Expected", a spreadsheet's header, as JSONPath is case-sensitive), is one of them.
    // The likeliest name first, in LIKELY_FIELDS's order, wherever its field is in the row.
    const candidates = fields.filter((f) => f !== p);
    const field = LIKELY_FIELDS[p].map((name) => candidates.find((f) => f.toLowerCase().replace(/[-_ ]/g, "") === name)).find((f) => f !== undefined);
    if (field === undefined) return [];
    const path = /^[A-Za-z_][A-Za-z0-9_]*$/.test(field) ? `$.${field}` : `$[${JSON.stringify(field)}]`;
    return [`to read ${JSON.stringify(field)} as the ${p === "output" ? "output" : "expected output"}, map it: "inputs": {${JSON.stringify(p)}: ${JSON.stringify(path)}}`];
  })];
}

/**
 * For a parameter a warning says no row held at a path of dotted names (`$.model.text`), where the first row has a
 * field named so, dot and all (a CSV column `model.text`, as traces flattened to a spreadsheet name them): that JSONPath
 * reads `text` inside `model`, and the mapping that reads the field, by parameter.
 */
function dottedNameHints(warnings: readonly RunWarning[], fields: readonly string[]): Map<Parameter, string> {
  const hints = new Map<Parameter, string>();
  for (const w of warnings) {
    const at = w.allSkippedAt ?? w.noOutputAt;
    if (w.parameter === undefined || at === undefined || hints.has(w.parameter) || !/^\$(\.[A-Za-z_][A-Za-z0-9_]*){2,}$/.test(at)) continue;
    const name = at.slice(2);
    if (!fields.includes(name)) continue;
    const segments = name.split(".");
    const inner = `${JSON.stringify(segments.at(-1))} inside ${JSON.stringify(segments.slice(0, -1).join("."))}`;
    hints.set(w.parameter, `the first row has a field named ${JSON.stringify(name)}, with a dot in its name, which ${at} does not reach (it reads ${inner}): map it: "inputs": {${JSON.stringify(w.parameter)}: ${JSON.stringify(`$[${JSON.stringify(name)}]`)}}`);
  }
  return hints;
}
