/**
 * Typed errors. Every error simeval throws on purpose is an {@link EvalError} with a closed
 * {@link ErrorCode} and, for configuration problems, the full list of {@link Issue}s, so that a CLI,
 * an HTTP server or a test can react to the code and show every problem at once.
 */
import { cutText } from "./cut-text.js";
import { quoteForMessage } from "./unprintable.js";

/**
 * The closed set of error codes; the CLI and (later) the server map each to an exit code / status. The run store's
 * refusals have three: `RUN_NOT_FOUND` (a 404), `RUN_CONFLICT` (a 409) and `STORE_FAILED` (a 500, or a 503 when
 * `transient`), so that a server tells them apart by the code, not by the message.
 */
export type ErrorCode =
  | "CONFIG_INVALID" // a spec or option failed validation
  | "UNKNOWN_EVALUATOR" // `type` names no registered evaluator
  | "INPUT_INVALID" // data of the wrong kind: a record that could not be read (e.g. a JSONPath matched several nodes), a metric's argument, a row or run given to the run store
  | "DATASET_INVALID" // a dataset file as a whole cannot be read (missing, empty, wrong top-level shape, bad CSV header)
  | "PROVIDER_FAILED" // an embedding provider failed
  | "STORE_FAILED" // the run store (database) itself could not be opened, read or written: locked, damaged, disk full, closed
  | "RUN_NOT_FOUND" // the run store has no run with that id: never recorded, or deleted (by another process meanwhile, too)
  | "RUN_CONFLICT" // the run exists but its state forbids the call: rows to, or finishing, a run that has ended; a row number or key it holds already (addRows); deleting one still being recorded
  | "OUTPUT_FAILED" // an output file (--out, --summary, --report, --junit) could not be written to a right path: a full disk, an I/O error
  | "USAGE"; // a path or argument that cannot be used: bad command-line arguments, a run store path that is a folder, an ambiguous run id prefix

/** One problem, located by a path into the offending value. */
export interface Issue {
  /** Where: e.g. `["config", "threshold"]`. */
  path: (string | number)[];
  /** A full sentence: what was wrong, what was expected, what was received. */
  message: string;
  expected?: string;
  received?: string;
}

export class EvalError extends Error {
  override readonly name = "EvalError";
  readonly code: ErrorCode;
  readonly issues: Issue[];
  /**
   * True when the same call may succeed if retried later, unchanged: the failure was the moment's (a lock not
   * obtained in time, the disk full, an I/O error, out of memory), so a queue consumer may deliver the message
   * again. False (the default) for refusals that retrying cannot change: an unknown (`RUN_NOT_FOUND`) or finished
   * (`RUN_CONFLICT`) run, a bad argument, a damaged file (`STORE_FAILED`). A code may be either: `STORE_FAILED` is
   * transient for a locked database and not for a damaged one, and `RUN_CONFLICT` is transient for a run that kept
   * taking rows while `finishStoredRun` summarized it (it succeeds once the appends stop).
   */
  readonly transient: boolean;

  constructor(code: ErrorCode, message: string, opts: { issues?: Issue[]; cause?: unknown; transient?: boolean } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.issues = opts.issues ?? [];
    this.transient = opts.transient ?? false;
  }

  /**
   * What `JSON.stringify` gives of the error: its `name`, `code`, `message`, `issues` and `transient` (of an Error,
   * it gives only the properties set on the instance, which leave the message out), e.g. for a service's response
   * body or a log line. The `cause` and stack are left out: they may name files and internals of the machine.
   */
  toJSON(): { name: "EvalError"; code: ErrorCode; message: string; issues: Issue[]; transient: boolean } {
    return { name: this.name, code: this.code, message: this.message, issues: this.issues, transient: this.transient };
  }
}

/** `evaluators[2].config.threshold` from `["evaluators", 2, "config", "threshold"]`. */
export function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out === "" ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out === "" ? "(root)" : out;
}

/** "1 problem", "2 problems", "20,000 problems": the count heading a list of issues. */
export function problemCount(n: number): string {
  return n === 1 ? "1 problem" : `${n.toLocaleString("en-US")} problems`;
}

/** How many issues {@link formatIssues} lists; the rest are counted. */
const MAX_LISTED_ISSUES = 20;

/**
 * One line per issue: `✖ <message>\n  → at <path>`, the first {@link MAX_LISTED_ISSUES} of them, then
 * `…and N more such problems.` (a config of 20,000 bad specs is not 40,000 lines; the error's `issues`
 * keep every one). Throws EvalError (INPUT_INVALID) when `issues` is not
 * an array of {@link Issue}s (each an object with a string `message` and a `path` of strings and numbers),
 * naming the first entry that is not one: `formatIssues(null)` or `formatIssues([{}])` threw a TypeError.
 */
export function formatIssues(issues: readonly Issue[]): string {
  if (!Array.isArray(issues)) throw issuesInvalid("issues", "an array of issues ({ path, message })", issues);
  issues.forEach((issue: unknown, i) => {
    if (typeof issue !== "object" || issue === null) throw issuesInvalid(`issues[${i}]`, "an issue ({ path, message })", issue);
    const { message, path } = issue as Record<string, unknown>;
    if (typeof message !== "string") throw issuesInvalid(`issues[${i}].message`, "a string", message);
    if (!Array.isArray(path)) throw issuesInvalid(`issues[${i}].path`, "an array of strings and numbers", path);
    const part = path.findIndex((p) => typeof p !== "string" && typeof p !== "number");
    if (part >= 0) throw issuesInvalid(`issues[${i}].path[${part}]`, "a string or a number", path[part]);
  });
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((i) => `✖ ${i.message}\n  → at ${formatPath(i.path)}`);
  const more = issues.length - MAX_LISTED_ISSUES;
  return (more > 0 ? [...listed, `…and ${more.toLocaleString("en-US")} more such problems.`] : listed).join("\n");
}

/** INPUT_INVALID for what {@link formatIssues} was given: `arg` is where (`issues[0].message`). */
function issuesInvalid(arg: string, expected: string, value: unknown): EvalError {
  return argumentError("INPUT_INVALID", "formatIssues", arg, expected, value, [arg]);
}

/** The `code` of a thrown value (Node's `ENOENT`, SQLite's extended result code), as a string; `""` when it has none. */
export function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
}

/** True for a plain object: not null, not an array (what an options or record argument must be). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The error for an argument of a public function that is not what it must be, naming the function, the
 * argument, what it must be and what it was: `${fn}: ${arg} must be ${expected}, received ${received}`,
 * with one issue at `path` (by default `arg` split at its dots: `outcome.row` is ["outcome", "row"]).
 */
export function argumentError(code: ErrorCode, fn: string, arg: string, expected: string, value: unknown, path: readonly (string | number)[] = arg.split(".")): EvalError {
  const received = describeValue(value);
  const message = `${fn}: ${arg} must be ${expected}, received ${received}`;
  return new EvalError(code, message, { issues: [{ path: [...path], message, expected, received }] });
}

/** A short, single-line description of a received value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    // Escaped as JSON, and the bidirectional and invisible characters JSON leaves as they are too: a U+202E in a
    // received value would reverse the message after it.
    return `string ${quoteForMessage(cutText(value, 40))}`;
  }
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return `array of ${value.length}`;
  return typeof value;
}
