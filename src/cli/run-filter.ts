import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { hashFile } from "../dataset/hash.js";
import { EvalError } from "../errors.js";
import type { RunInfo } from "../run/types.js";
import { warn, type CliIO } from "./io.js";
import { wholeNumberOption } from "./whole-number.js";

/** The options by which `runs` and `trend` pick recorded runs, as given. */
export interface RunFilterOptions {
  /** `-n, --name`: only runs with this name. */
  name?: string;
  /** `--dataset`: only runs on this dataset file, or on its content at another path. */
  dataset?: string;
  /** `--last`: only the newest this many of the runs the other filters keep. */
  last?: string;
}

/** The filters checked (see {@link checkRunFilter}): the dataset's path made absolute, --last a number. */
interface CheckedRunFilter {
  name: string | undefined;
  /** The absolute path of `--dataset`, as runs record theirs. */
  dataset: string | undefined;
  last: number | undefined;
}

/** What a table of runs writes after the dataset of a run `--dataset` kept for its content, recorded at another path. */
export const SAME_CONTENT_MARK = " (same content)";

/** The line under such a table, when it marks some run with {@link SAME_CONTENT_MARK}. */
export function sameContentNote(dataset: string): string {
  return `(same content): recorded at another path, matched by content: its dataset's sha256 is that of ${dataset}`;
}

/** What the filters keep, once the dataset's content is known (see {@link matchRuns}). */
interface RunFilter extends CheckedRunFilter {
  /** Whether `-n` and `--dataset` keep the run (`--last` is applied to the list: see {@link newest}). */
  keeps(run: RunInfo): boolean;
  /** Whether a run is kept as recorded at another path than `--dataset`'s, on a file of the same sha256. */
  byContent(run: RunInfo): boolean;
  /** `-n` and `--dataset` as a message names them (`named "nightly" on /data/qa.jsonl`), "" without either. */
  described: string;
  /** The flags of the filters given that can leave runs out (`-n`, `--dataset`), for a message to name. */
  flags: string[];
}

/**
 * Checks the filters before the database is opened, each a USAGE error (exit 2) naming the option, the
 * value and what was expected: `--last` a whole number >= 1 ({@link wholeNumberOption}); `--dataset` no
 * directory (see {@link checkDatasetOption}).
 */
export function checkRunFilter(opts: RunFilterOptions): CheckedRunFilter {
  const last = opts.last === undefined ? undefined : wholeNumberOption("--last", opts.last, "a whole number >= 1 (how many of the newest runs to keep)", 1);
  if (opts.dataset !== undefined) checkDatasetOption(opts.dataset);
  return { name: opts.name, dataset: opts.dataset === undefined ? undefined : resolve(opts.dataset), last };
}

/**
 * The filters as they apply to recorded runs: `-n` keeps the runs of that name; `--dataset` keeps the runs
 * recorded on its path, and those whose dataset's sha256 is that of the file there (the same data in a moved
 * or copied folder; see {@link datasetContent}).
 */
export async function matchRuns(filter: CheckedRunFilter, io: CliIO): Promise<RunFilter> {
  const { name, dataset } = filter;
  const sha256 = dataset === undefined ? undefined : await datasetContent(dataset, io);
  // A run not read from a dataset file (null path and hash) is on no dataset: --dataset never keeps it.
  const byContent = (r: RunInfo) => sha256 !== undefined && r.dataset_path !== null && r.dataset_path !== dataset && r.dataset_hash === sha256;
  const on = sha256 === undefined ? `on ${dataset}` : `on ${dataset} or on a file with its content`;
  return {
    ...filter,
    keeps: (r) => (name === undefined || r.name === name) && (dataset === undefined || r.dataset_path === dataset || byContent(r)),
    byContent,
    described: [name === undefined ? "" : `named ${JSON.stringify(name)}`, dataset === undefined ? "" : on].filter(Boolean).join(" "),
    flags: [...(name === undefined ? [] : ["-n"]), ...(dataset === undefined ? [] : ["--dataset"])],
  };
}

/** The newest `last` of `runs` (given newest first, as the store lists them), or all of them without `--last`. */
export function newest<T>(runs: readonly T[], last: number | undefined): T[] {
  return last === undefined ? [...runs] : runs.slice(0, last);
}

/**
 * What a command says when `-n` or `--dataset` keeps none of the runs (`kind`: "run", or "complete run"),
 * with how many others of that kind are recorded and where to see them: `No run named "x" (3 other runs are
 * recorded; `simeval runs` lists them)`.
 */
export function noRunKept(kind: string, filter: RunFilter, others: number, whereListed: string): string {
  const is = others === 1 ? `${kind} is` : `${kind}s are`;
  return `No ${kind} ${filter.described} (${others.toLocaleString("en-US")} other ${is} recorded; ${whereListed} ${others === 1 ? "it" : "them"}).`;
}

/**
 * Throws USAGE (exit 2) when `--dataset` names a directory: no run is recorded on one (`run DIR` is refused,
 * exit 2, as no dataset file), so it is a wrong argument, not a filter that keeps no run. A path with nothing
 * there is not one: runs recorded on a file since removed are still matched by its path.
 */
function checkDatasetOption(path: string): void {
  let directory: boolean;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    return; // missing or unreadable: see datasetContent
  }
  if (directory) throw new EvalError("USAGE", `--dataset ${path}: is a directory; expected a dataset file (.jsonl, .json or .csv), the path that runs were recorded on`);
}

/**
 * The sha256 of the file at `path`, which `--dataset` also matches runs by; undefined when there is no file
 * there (runs recorded on it before it was removed are still matched by path), or when it cannot be read,
 * which is said: runs are then matched by path only.
 */
async function datasetContent(path: string, io: CliIO): Promise<string | undefined> {
  if (!existsSync(path)) return undefined;
  try {
    return await hashFile(path);
  } catch (error) {
    warn(io, `--dataset: ${(error as Error).message}; runs are matched by its path only, not by its content`);
    return undefined;
  }
}
