/**
 * The checks of the rows callers hand the run store (`addRows`, `appendRows`): each throws INPUT_INVALID naming
 * the row and field (`appendRows: rows[2].results.lev.score must be …`), so that no row is stored that a later
 * read, summary or comparison of the run would fail on or misread.
 */
import { cutText } from "../cut-text.js";
import { argumentError, EvalError, formatPath, isPlainObject } from "../errors.js";
import type { EvaluatorDefinition } from "../evaluators/define.js";
import { findEvaluator } from "../evaluators/registry.js";
import { scoreFault } from "../evaluators/score-range.js";
import { nonFiniteIn } from "../non-finite.js";
import type { RowOutcome, RowResult, SerializedRow } from "../run/types.js";
import type { UnnumberedRow } from "./store.js";

/** A row given to `appendRows` as a {@link RowOutcome} without its `row`: a {@link SerializedRow}'s JSON parsed. */
export type UnnumberedOutcome = Extract<UnnumberedRow, { results: Record<string, RowResult> }>;

/**
 * `rows` as outcomes, a {@link SerializedRow}'s JSON parsed (see {@link parsedSerializedRow}), so that a row is
 * stored, and its scores made from its results, as a RowOutcome is. Throws INPUT_INVALID, naming the place
 * (`appendRows: rows[2].row must be nothing …`), unless `rows` is an array of objects without a `row` whose
 * `results` is an object of objects (a {@link RowOutcome}'s, see {@link checkResults}) or their JSON, with a `key`
 * and `line` of their kinds. Their records are checked by {@link recordJson}; a `stored_at` is not read.
 */
export function checkUnnumberedRows(rows: unknown): UnnumberedOutcome[] {
  const bad = (arg: string, expected: string, value: unknown, path: (string | number)[]) => argumentError("INPUT_INVALID", "appendRows", arg, expected, value, path);
  if (!Array.isArray(rows)) throw bad("rows", "an array of rows (RowOutcomes or SerializedRows without their row)", rows, ["rows"]);
  return rows.map((r: unknown, i) => {
    if (typeof r !== "object" || r === null || Array.isArray(r)) throw bad(`rows[${i}]`, "a row (a RowOutcome or SerializedRow without its row)", r, ["rows", i]);
    const { row, results } = r as Record<string, unknown>;
    // A number given here would be silently replaced: the caller meant addRows, or copied rows of another run.
    if (row !== undefined) throw bad(`rows[${i}].row`, "nothing (appendRows numbers the rows; addRows takes numbered ones)", row, ["rows", i, "row"]);
    if (typeof results !== "string" && !isPlainObject(results)) {
      throw bad(`rows[${i}].results`, "an object of results by evaluator name, or their JSON", results, ["rows", i, "results"]);
    }
    const outcome = typeof results === "string" ? parsedSerializedRow(r as Omit<SerializedRow, "row">, i) : (r as UnnumberedOutcome);
    // A row that could not be read: `show` counts it unreadable, so it is one only with the error's { code, message }.
    if (outcome.error !== undefined && !isPlainObject(outcome.error)) throw bad(`rows[${i}].error`, "nothing or the row's error ({ code, message })", outcome.error, ["rows", i, "error"]);
    checkResults("appendRows", outcome, i);
    checkId(outcome, i);
    checkKey("appendRows", r, i);
    checkLine(r, i);
    return outcome;
  });
}

/**
 * Throws INPUT_INVALID naming `rows` unless the `rows` given to `addRows` are an array: `addRows(id, 5)` threw a
 * TypeError, where `appendRows` names the argument.
 */
export function checkNumberedRows(rows: unknown): asserts rows is readonly (RowOutcome | SerializedRow)[] {
  if (!Array.isArray(rows)) throw argumentError("INPUT_INVALID", "addRows", "rows", "an array of rows (RowOutcomes or SerializedRows)", rows, ["rows"]);
}

/**
 * Throws INPUT_INVALID naming the field unless row `i` given to `addRows` is an object with a `row` that is a whole
 * number from 1, `results` that are an object (`{}` for a row that could not be read) or a {@link SerializedRow}'s
 * JSON, and a `key` and results of their kinds (see {@link checkKey} and {@link checkResults}). A SerializedRow's JSON
 * is stored as it is, unchecked. Results left out (a row error given as `{ row, id, error }`) were STORE_FAILED
 * "Cannot convert undefined or null to object", and results of 5 or an array were stored and read back as given.
 */
export function checkNumberedRow(r: RowOutcome | SerializedRow, i: number): void {
  const bad = (field: string, expected: string, value: unknown) => argumentError("INPUT_INVALID", "addRows", `rows[${i}]${field}`, expected, value, ["rows", i, ...(field ? [field.slice(1)] : [])]);
  if (!isPlainObject(r)) throw bad("", "a row (a RowOutcome or SerializedRow)", r);
  // A row's 1-based number in its dataset keys it: a 0, a fraction or a "3" would be stored as given.
  if (!Number.isSafeInteger(r.row) || r.row < 1) throw bad(".row", "a whole number from 1 (the row's number in its dataset)", r.row);
  checkKey("addRows", r, i);
  const { results } = r as { results?: unknown };
  if (typeof results !== "string" && !isPlainObject(results)) {
    throw bad(".results", "an object of results by evaluator name ({} for a row that could not be read), or their JSON", results);
  }
  checkResults("addRows", r, i);
}

/**
 * Throws INPUT_INVALID naming `rows[i].id` (and where in it) when row `i`'s id holds a number JSON cannot write: NaN
 * or ±Infinity, anywhere in an id that is an array or object. JSON writes them as null, so the row was stored with
 * no id (or `[1,null]`), silently, and could not be found by the id the caller gave it; the dataset readers refuse
 * such an id as a row error. An id that JSON.stringify cannot write at all (a BigInt, a cycle) is left to
 * {@link rowJson}, which says why. A SerializedRow's id is checked as parsed (`"1e400"` reads as Infinity).
 */
function checkId(r: UnnumberedOutcome, i: number): void {
  const found = nonFiniteIn(r.id);
  if (found === undefined) return;
  const path = ["rows", i, "id", ...found.path];
  const expected = "nothing or a value JSON writes as it is (a string, a finite number, or arrays and objects of them): NaN and ±Infinity are written as null, and the row would be stored without its id";
  throw argumentError("INPUT_INVALID", "appendRows", formatPath(path), expected, found.value, path);
}

/**
 * Throws INPUT_INVALID naming `rows[i].line` unless row `i` has no line, a null one or a whole number from 1 (the
 * dataset line it was read from): "3" or 1.5 were STORE_FAILED saying "cannot store TEXT value in INTEGER column
 * rows.line", naming no row.
 */
function checkLine(r: object, i: number): void {
  const { line } = r as { line?: unknown };
  if (line === undefined || line === null || (Number.isSafeInteger(line) && (line as number) >= 1)) return;
  throw argumentError("INPUT_INVALID", "appendRows", `rows[${i}].line`, "nothing, null or a whole number from 1 (the dataset line the row was read from)", line, ["rows", i, "line"]);
}

/**
 * Row `i`, a {@link SerializedRow} (its `results` a string), as the outcome its JSON holds: `results` an object's,
 * `id` any JSON text (or null or nothing: no id), `error` null, nothing or an object's; its `scores` are not read
 * (made from the results, as a RowOutcome's are, where ones given could disagree with them). Throws INPUT_INVALID
 * naming the field otherwise: `{ id: "trace-1", results: JSON.stringify(results) }` was stored as it was, and every
 * later read of the run (`rows()`, `finishStoredRun`, `simeval finish`) failed on its id. Parsing costs a service's
 * batch little; `addRows`, the dataset runner's path, stores its rows unchecked.
 */
function parsedSerializedRow(r: Omit<SerializedRow, "row"> & { key?: string; record?: Record<string, unknown> }, i: number): UnnumberedOutcome {
  const bad = (field: string, expected: string, value: unknown) => argumentError("INPUT_INVALID", "appendRows", `rows[${i}].${field}`, expected, value, ["rows", i, field]);
  const NOT_JSON = Symbol("not JSON");
  const parsed = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return NOT_JSON;
    }
  };
  const results = parsed(r.results);
  if (!isPlainObject(results)) throw bad("results", "an object of results by evaluator name, or its JSON (a string that parses to an object)", r.results);
  const outcome: UnnumberedOutcome = { results: results as Record<string, RowResult> };
  if (r.id !== undefined && r.id !== null) {
    const id = typeof r.id === "string" ? parsed(r.id) : NOT_JSON;
    if (id === NOT_JSON) throw bad("id", "the JSON of the row's id (JSON.stringify(id): a row whose results are a string of JSON is a SerializedRow, whose id is JSON too), or nothing", r.id);
    outcome.id = id;
  }
  if (r.error !== undefined && r.error !== null) {
    const error = typeof r.error === "string" ? parsed(r.error) : NOT_JSON;
    if (!isPlainObject(error)) throw bad("error", "null, nothing or the JSON of { code, message }", r.error);
    outcome.error = error as { code: string; message: string };
  }
  if (r.line !== undefined && r.line !== null) outcome.line = r.line;
  if (r.key !== undefined) outcome.key = r.key;
  if (r.record !== undefined) outcome.record = r.record;
  return outcome;
}

/**
 * Row `i`'s `record` as the JSON text to store, or null when it has none. Throws INPUT_INVALID naming
 * `rows[i].record` unless it is nothing or a plain object (not an array, not a class instance such as a Date or a
 * Map, whose JSON is no object or an empty one) that `JSON.stringify` can write (no BigInt, no cycle): a reader
 * parses it back to the object the evaluators were given.
 */
export function recordJson(r: UnnumberedRow, i: number): string | null {
  const { record } = r as { record?: unknown };
  if (record === undefined) return null;
  const bad = (expected: string) => argumentError("INPUT_INVALID", "appendRows", `rows[${i}].record`, expected, record, ["rows", i, "record"]);
  const expected = "nothing or a plain object (the record the evaluators were given, stored as its JSON)";
  if (!isPlainObject(record)) throw bad(expected);
  const proto: unknown = Object.getPrototypeOf(record);
  if (proto !== Object.prototype && proto !== null) throw bad(`${expected}, not an instance of ${(record as object).constructor?.name || "a class"}`);
  let json: string | undefined;
  try {
    json = JSON.stringify(record) as string | undefined;
  } catch (error) {
    throw bad(`${expected} that JSON.stringify can write (${error instanceof Error ? error.message : String(error)})`);
  }
  // A toJSON of its own may make it anything else.
  if (json?.[0] !== "{") throw bad(`${expected} whose JSON is an object (its toJSON gives ${json === undefined ? "nothing" : cutText(json, 40)})`);
  return json;
}

/**
 * Throws INPUT_INVALID naming `rows[i].results.NAME` for the first result of a row of `rows` under a name that is
 * none of run `runId`'s evaluators (`names`): stored, it would be summarized by
 * no evaluator and compared as "only in B", a result of an evaluator the run never had.
 */
export function refuseUnknownResults(runId: string, names: readonly string[], rows: readonly UnnumberedOutcome[]): void {
  const known = new Set(names);
  for (const [i, r] of rows.entries()) {
    const name = Object.keys(r.results).find((n) => !known.has(n));
    if (name === undefined) continue;
    const message = `run ${runId} has no evaluator named ${JSON.stringify(name)} (its evaluators: ${names.map((n) => JSON.stringify(n)).join(", ")}); a row's results are keyed by the names of the run's evaluators, as scoreRecord gives them`;
    throw new EvalError("INPUT_INVALID", `appendRows: rows[${i}].results.${name}: ${message}`, { issues: [{ path: ["rows", i, "results", name], message, received: JSON.stringify(name) }] });
  }
}

/**
 * Throws INPUT_INVALID naming `rows[i].results.NAME.score`, the evaluator's type and its range, for the first score
 * of a row of `rows` that the type of the run's evaluator NAME (`evaluators`) cannot give (see {@link scoreFault}):
 * a levenshtein similarity of 1.5, a negative or fractional distance, NaN or a score beyond ±2^53. Stored, it was
 * summarized (a mean above 1) and compared as a score, where a results.jsonl holding it is refused. A result under a
 * name none of them has is {@link refuseUnknownResults}'s; one of a type this simeval does not know is not checked.
 */
export function refuseImpossibleScores(evaluators: readonly { name: string; type: string }[], rows: readonly UnnumberedOutcome[]): void {
  const definitions = new Map<string, EvaluatorDefinition>();
  for (const { name, type } of evaluators) {
    const definition = findEvaluator(type);
    if (definition) definitions.set(name, definition);
  }
  for (const [i, r] of rows.entries()) {
    for (const [name, result] of Object.entries(r.results)) {
      const { score } = result as { score?: unknown };
      const definition = definitions.get(name);
      if (typeof score !== "number" || definition === undefined) continue;
      const expected = scoreFault(definition, score);
      if (expected !== null) throw argumentError("INPUT_INVALID", "appendRows", `rows[${i}].results.${name}.score`, expected, score, ["rows", i, "results", name, "score"]);
    }
  }
}

/**
 * Throws INPUT_INVALID naming `rows[i].results.NAME` when row `i`'s results are an object (not a SerializedRow's
 * JSON) holding a value that is not an object, a result or `{ error }` as `scoreRecord` gives them: `{ lev: 7 }` was
 * STORE_FAILED saying "Cannot use 'in' operator to search for 'error' in 7", which named neither row nor evaluator.
 * Naming `rows[i].results.NAME.FIELD` too when a field the summary reads is missing or of the wrong kind (see
 * {@link resultFieldFault}): `{ score: 2, passed: "yes" }` was stored and counted as a pass, `{ score: 1 }` as a fail.
 */
function checkResults(fn: string, r: object, i: number): void {
  const { results } = r as { results?: unknown };
  if (!isPlainObject(results)) return;
  for (const [name, result] of Object.entries(results)) {
    if (!isPlainObject(result)) {
      throw argumentError("INPUT_INVALID", fn, `rows[${i}].results.${name}`, "an evaluator's result ({ score, skipped, … } or { error }, as scoreRecord gives it)", result, ["rows", i, "results", name]);
    }
    const fault = resultFieldFault(result);
    if (fault) throw argumentError("INPUT_INVALID", fn, `rows[${i}].results.${name}.${fault.field}`, fault.expected, result[fault.field], ["rows", i, "results", name, fault.field]);
  }
}

/**
 * The first field of a result that the summary and the comparison read and that is missing or of the wrong kind,
 * with what it must be; null when there is none. Given as a string, say, it would be stored and then read as a
 * verdict or an error (`passed: "yes"` counted as a pass, `score: "0.9"` as the evaluator's error); left out, it
 * was read as something the caller did not say: `{}` as the evaluator's error, `{ score: 1 }` as a failed row. So
 * a result that is not skipped must give `score` and `passed` (either may be null: no score, no verdict), as
 * `scoreRecord` does; a skipped one (`skipped: true`) or an `{ error }` need not.
 */
function resultFieldFault(result: Record<string, unknown>): { field: string; expected: string } | null {
  if ("error" in result) {
    const { error } = result;
    const whole = isPlainObject(error) && typeof error["code"] === "string" && typeof error["message"] === "string";
    return whole ? null : { field: "error", expected: "the evaluator's error ({ code, message }, both strings, as scoreRecord gives it)" };
  }
  const { score, passed, skipped } = result;
  // NaN and ±Infinity are numbers: appendRows refuses them as no evaluator's (refuseImpossibleScores); addRows
  // stores them as JSON writes them, null: no score, as a reader of the row finds.
  if (score !== undefined && score !== null && typeof score !== "number") return { field: "score", expected: "a number or null" };
  if (passed !== undefined && passed !== null && typeof passed !== "boolean") return { field: "passed", expected: "true, false or null (no verdict)" };
  if (skipped !== undefined && typeof skipped !== "boolean") return { field: "skipped", expected: "true or false" };
  if (skipped === true) return null;
  const unless = "unless the result is skipped (skipped: true) or an { error }, as scoreRecord gives them";
  if (score === undefined) return { field: "score", expected: `a number or null (no score), ${unless}` };
  if (passed === undefined) return { field: "passed", expected: `true, false or null (no verdict), ${unless}` };
  return null;
}

/**
 * The JSON of field `field` of row `at.i` given to `at.fn`. Throws INPUT_INVALID naming `rows[i].FIELD` when
 * `JSON.stringify` cannot write it (a BigInt, a cycle): an id of `1n` was STORE_FAILED with JSON's words, naming no row.
 */
export function rowJson(at: { fn: string; i: number }, field: string, value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw argumentError("INPUT_INVALID", at.fn, `rows[${at.i}].${field}`, `a value that JSON.stringify can write (${why})`, value, ["rows", at.i, field]);
  }
}

/** Throws INPUT_INVALID naming `rows[i].key` unless row `i` has no key or a non-empty string (an empty key would name no delivery). */
function checkKey(fn: string, r: object, i: number): void {
  const { key } = r as { key?: unknown };
  if (key === undefined || (typeof key === "string" && key !== "")) return;
  throw argumentError("INPUT_INVALID", fn, `rows[${i}].key`, "nothing or a non-empty string (the row's idempotency key)", key, ["rows", i, "key"]);
}

/** Whether `r` is a {@link SerializedRow}: its `results` (and `id` and `error`) JSON text, stored as it is. */
export function isSerialized<R extends UnnumberedRow>(r: R): r is Extract<R, { results: string }> {
  return typeof r.results === "string";
}
