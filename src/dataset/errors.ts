/**
 * Whole-file dataset problems: each becomes one `EvalError("DATASET_INVALID")` whose message starts with the
 * file as the user typed it, then says what was wrong and what was expected.
 */
import type { Stats } from "node:fs";
import { errorCode, EvalError } from "../errors.js";

/** `EvalError("DATASET_INVALID", "<path>: <problem>")`. */
export function datasetInvalid(path: string, problem: string, cause?: unknown): EvalError {
  return new EvalError("DATASET_INVALID", `${path}: ${problem}`, cause === undefined ? {} : { cause });
}

/** Turns a failed `stat`/`open`/`read` into a DATASET_INVALID error that names the file and the reason. */
export function fileProblem(path: string, err: unknown): EvalError {
  switch (errorCode(err)) {
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

/** What a path that is not a regular file is, for messages ("a pipe"), or undefined for a regular file. */
function specialKind(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isFIFO()) return "a pipe";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device (a terminal, or a device such as /dev/null)";
  if (stats.isBlockDevice()) return "a block device";
  return "a special file";
}

/**
 * The DATASET_INVALID error for a dataset path that is not a regular file, or undefined when it is one. A
 * directory gets {@link fileProblem}'s message; a pipe (`/dev/stdin`, `<(…)`, a FIFO), a socket or a device
 * is refused because a run reads its dataset more than once (to fingerprint it, then to read its rows), and
 * opening a FIFO for reading would wait for a writer.
 */
export function notRegularFile(path: string, stats: Stats): EvalError | undefined {
  if (stats.isDirectory()) return fileProblem(path, { code: "EISDIR" });
  const kind = specialKind(stats);
  if (kind === undefined) return undefined;
  return datasetInvalid(path, `is ${kind}, not a regular file; a dataset is read more than once, so save it to a file first and give its path`);
}
