import { isAbsolute, relative, sep } from "node:path";
import type { RunInfo } from "../../run/types.js";
import { EXIT } from "../exit-codes.js";
import { formatFigure, forTerminal, forTerminalLine } from "../format.js";
import { warn, type CliIO } from "../io.js";
import stringWidth from "string-width";
import { renderTable, tableWidth } from "../table.js";
import { SAME_CONTENT_MARK, checkRunFilter, matchRuns, newest, noRunKept, sameContentNote, type RunFilterOptions } from "../run-filter.js";
import { NO_DATASET_CELL } from "../../report/format.js";
import { noDatabaseWarning, noRunsYet, recordedRunsIfAny, rowsRecorded, withRowsRecorded } from "./recorded-runs.js";

/**
 * `simeval runs`: the recorded runs, newest first; `-n NAME` and `--dataset PATH` keep some, as for `trend`
 * (see {@link matchRuns}), and `--last N` the newest N of those, in the table and in `--json`. A run not read from
 * a dataset file (a service's) shows "-" as its dataset, and null in `--json`. A database file that does not exist yet has none
 * (a project's default database is made by its first run), warned of on stderr (a mistyped --db); a path where none can be is refused.
 */
export async function runsCommand(opts: { db: string; json?: boolean } & RunFilterOptions, io: CliIO): Promise<number> {
  const checked = checkRunFilter(opts);
  const noneYet = noRunsYet(opts.db);
  const store = recordedRunsIfAny(opts.db);
  if (store === null) {
    io.stdout(opts.json ? "[]" : noneYet);
    // On stderr too (with --json, stdout holds the JSON alone): a mistyped --db, and a database in a folder above (run from a project's subfolder).
    warn(io, noDatabaseWarning(opts.db));
    return EXIT.ok;
  }
  try {
    const filter = await matchRuns(checked, io);
    const recorded = await store.listRuns();
    const runs = newest(recorded.filter(filter.keeps), filter.last);
    const baseline = (await store.baseline())?.id;
    if (opts.json) {
      const listed = await Promise.all(runs.map((r) => withRowsRecorded(r, store)));
      io.stdout(JSON.stringify(listed.filter((r) => r !== null), null, 2));
      return EXIT.ok;
    }
    if (!recorded.length) {
      io.stdout(noneYet);
      return EXIT.ok;
    }
    if (!runs.length) {
      io.stdout(forTerminal(noRunKept("run", filter, recorded.length, `\`simeval runs\` without ${filter.flags.join(" and ")} lists`)));
      return EXIT.ok;
    }
    const rows: (string | number)[][] = [];
    const runMeans: string[][] = [];
    let baselineListed = false;
    // Whether --dataset kept some run for its content, recorded at another path: marked, and said under the table.
    let sameContent = false;
    const cwd = workingFolder();
    for (const r of runs) {
      // A run killed outright has no summary, but its rows are stored (and compared): they are counted, for such runs only.
      const count = r.summary?.rows ?? (await rowsRecorded(r, store));
      if (count === null) continue; // deleted by another process since it was listed
      baselineListed ||= r.id === baseline;
      sameContent ||= filter.byContent(r);
      const datasetCell = r.dataset_path === null ? NO_DATASET_CELL : `${shownDatasetPath(r.dataset_path, cwd)}${filter.byContent(r) ? SAME_CONTENT_MARK : ""}`;
      rows.push([r.id === baseline ? `${r.id} *` : r.id, r.name ?? "", r.started_at.replace("T", " ").slice(0, 19), r.status, count, datasetCell]);
      runMeans.push(means(r));
    }
    // The means go last, cut to the width the other columns leave: `show RUN` and `--json` give them all.
    const header = ["id", "name", "started (UTC)", "status", "rows", "dataset"];
    const room = tableWidth(io) - stringWidth(renderTable(header, rows).split("\n")[1] ?? "") - 2;
    io.stdout(renderTable([...header, "means"], rows.map((r, i) => [...r, meansCell(runMeans[i] ?? [], room)])));
    // Only under a table that marks it: a filter may leave the baseline out.
    if (baselineListed) io.stdout("* baseline");
    if (sameContent && filter.dataset !== undefined) io.stdout(sameContentNote(filter.dataset));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/**
 * A recorded dataset path as `runs` lists it: relative to `cwd` when the file is under it
 * (`examples/a.jsonl`, which `--dataset` takes back as it is), else as recorded (absolute); as recorded
 * too without a working folder (null: see {@link workingFolder}).
 */
export function shownDatasetPath(path: string, cwd: string | null): string {
  if (cwd === null) return path;
  const rel = relative(cwd, path);
  const outside = rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  return rel && !outside ? rel : path;
}

/** The working folder, or null when it is gone (deleted under the shell): `process.cwd()` then throws ENOENT. */
function workingFolder(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

function means(r: RunInfo): string[] {
  return (r.summary?.evaluators ?? []).map((e) => `${e.name}=${formatFigure(e.mean)}`);
}

/**
 * A run's means (`name=mean`), as many as fit in `room` terminal columns, then `+N more` for the others; all of
 * them when they fit, and `N evaluators` when not even one does beside its count.
 */
export function meansCell(means: readonly string[], room: number): string {
  const width = (text: string) => stringWidth(forTerminalLine(text));
  if (width(means.join(" ")) <= room) return means.join(" ");
  let shown = 0;
  while (shown < means.length && width(`${means.slice(0, shown + 1).join(" ")} +${means.length - shown - 1} more`) <= room) shown++;
  return shown ? `${means.slice(0, shown).join(" ")} +${means.length - shown} more` : `${means.length} evaluators`;
}
