import { readFile } from "node:fs/promises";
import { EvalError, formatIssues, type Issue } from "../errors.js";
import { didYouMean } from "../evaluators/suggest.js";
import { createRunEvaluators } from "../run/run-dataset.js";
import { jsonErrorPlace } from "./json-option.js";

const TOP_LEVEL_KEYS = ["evaluators"];

/**
 * Reads EVALS.json: `{ "evaluators": [spec, ...] }`. Problems with the file itself (missing, not JSON,
 * not an object) are USAGE/CONFIG errors naming the file. A well-formed file's specs are validated by
 * the caller; but when the file has problems of its own (an unknown top-level key, `evaluators` missing
 * or not a non-empty array), the specs are validated here too, so that one CONFIG_INVALID error lists
 * every problem of the file at once in its `issues`, the file's first.
 */
export async function readEvalsFile(path: string): Promise<unknown[]> {
  let text: string;
  try {
    // A UTF-8 byte order mark (Windows editors, PowerShell 5) is not JSON: left out, as the datasets' readers do.
    text = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory, expected a JSON file" : (error as Error).message;
    throw new EvalError("USAGE", `${path}: ${why} (the --config file holds {"evaluators": [...]})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EvalError("CONFIG_INVALID", `${path}: not valid JSON${jsonErrorPlace(text, error)} (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new EvalError("CONFIG_INVALID", `${path}: expected an object {"evaluators": [spec, ...]}, found ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed}`);
  }
  const issues: Issue[] = [];
  for (const key of Object.keys(parsed).filter((k) => !TOP_LEVEL_KEYS.includes(k))) {
    issues.push({ path: [key], message: `unknown top-level key "${key}"; the file holds only "evaluators".${didYouMean(key, TOP_LEVEL_KEYS)}`, received: key });
  }
  const evaluators = (parsed as { evaluators?: unknown }).evaluators;
  if (!("evaluators" in parsed)) {
    issues.push({ path: ["evaluators"], message: `"evaluators" is missing: the file holds {"evaluators": [spec, ...]}`, expected: "non-empty array" });
  } else if (!Array.isArray(evaluators) || evaluators.length === 0) {
    issues.push({ path: ["evaluators"], message: `"evaluators" must be a non-empty array of evaluator specs`, expected: "non-empty array" });
  } else if (issues.length) {
    issues.push(...specIssues(evaluators));
  }
  if (issues.length) {
    const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
    throw new EvalError("CONFIG_INVALID", `${path}: Invalid evaluator configuration (${count}):\n${formatIssues(issues)}`, { issues });
  }
  return evaluators as unknown[];
}

/** Every problem `createRunEvaluators` (what `simeval run` then does with the specs) finds in them, or none. */
function specIssues(specs: unknown[]): Issue[] {
  try {
    createRunEvaluators(specs);
    return [];
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    return error.issues.length ? error.issues : [{ path: ["evaluators"], message: error.message }];
  }
}
