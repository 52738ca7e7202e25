/**
 * Whole-file dataset problems: each becomes one `EvalError("DATASET_INVALID")` whose message starts with the
 * file as the user typed it, then says what was wrong and what was expected.
 */
import { EvalError } from "../errors.js";

/** `EvalError("DATASET_INVALID", "<path>: <problem>")`. */
export function datasetInvalid(path: string, problem: string, cause?: unknown): EvalError {
  return new EvalError("DATASET_INVALID", `${path}: ${problem}`, cause === undefined ? {} : { cause });
}

/** Turns a failed `stat`/`open`/`read` into a DATASET_INVALID error that names the file and the reason. */
export function fileProblem(path: string, err: unknown): EvalError {
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  switch (code) {
    case "ENOENT":
      return datasetInvalid(path, "no such file", err);
    case "ENOTDIR":
      return datasetInvalid(path, "no such file (a part of the path is not a directory)", err);
    case "EISDIR":
      return datasetInvalid(path, "is a directory; expected a dataset file (.jsonl, .json or .csv)", err);
    case "EACCES":
    case "EPERM":
      return datasetInvalid(path, "cannot be read (permission denied)", err);
    default:
      return datasetInvalid(path, `cannot be read (${err instanceof Error ? err.message : String(err)})`, err);
  }
}
