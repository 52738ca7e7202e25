import { readFile } from "node:fs/promises";
import { EvalError } from "../errors.js";

/**
 * Reads EVALS.json: `{ "evaluators": [spec, ...] }`. Problems with the file itself (missing, not JSON,
 * wrong shape) are USAGE/CONFIG errors naming the file; the specs are validated by the caller.
 */
export async function readEvalsFile(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory, expected a JSON file" : (error as Error).message;
    throw new EvalError("USAGE", `${path}: ${why} (the --config file holds {"evaluators": [...]})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EvalError("CONFIG_INVALID", `${path}: not valid JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed) || !("evaluators" in parsed)) {
    throw new EvalError("CONFIG_INVALID", `${path}: expected an object {"evaluators": [spec, ...]}, found ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed === "object" ? "an object without \"evaluators\"" : typeof parsed}`);
  }
  const extra = Object.keys(parsed).filter((k) => k !== "evaluators");
  if (extra.length) throw new EvalError("CONFIG_INVALID", `${path}: unknown top-level key${extra.length > 1 ? "s" : ""} ${extra.map((k) => `"${k}"`).join(", ")}; the file holds only "evaluators"`);
  const evaluators = (parsed as { evaluators: unknown }).evaluators;
  if (!Array.isArray(evaluators) || evaluators.length === 0) {
    throw new EvalError("CONFIG_INVALID", `${path}: "evaluators" must be a non-empty array of evaluator specs`);
  }
  return evaluators;
}
