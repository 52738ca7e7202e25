import { EvalError } from "../../errors.js";
import type { EvaluatorSummary, RunInfo } from "../../run/types.js";
import type { SqliteRunStore } from "../../storage/sqlite.js";
import { EXIT } from "../exit-codes.js";
import { forTerminalLine } from "../format.js";
import type { CliIO } from "../io.js";
import { didYouMean } from "../../evaluators/suggest.js";
import { rowsText } from "../../report/format.js";
import { databaseAbove, findOrFail, openRecordedRuns, recordedRunsIfAny, runLabel } from "./recorded-runs.js";

/**
 * When `run` was found by its name (the newest run of that name), and an earlier run of that name is complete,
 * names the newest such to set instead: on a shared database the newest may be another job's still running.
 */
async function completeOfName(store: SqliteRunStore, run: RunInfo, ref: string): Promise<string> {
  if (run.name === null || ref.trim() !== run.name) return "";
  const complete = (await store.listRuns()).find((r) => r.name === run.name && r.status === "complete");
  return complete ? `; the newest complete run named ${forTerminalLine(JSON.stringify(run.name))} is ${complete.id}: \`simeval baseline set ${complete.id}\`` : "";
}

/** Actions a user may give to clear the baseline, which no action does. */
const UNSET_WORDS: readonly string[] = ["unset", "clear", "remove", "reset", "delete", "rm", "none", "drop"];

/**
 * `simeval baseline set RUN` / `simeval baseline`: marks or shows the known-good run. Shown with no run database at
 * `opts.db` yet, there is none (exit 0, creating no database); `set` then fails, naming the path.
 */
export async function baselineCommand(action: string | undefined, ref: string | undefined, opts: { db: string }, io: CliIO): Promise<number> {
  const usage = "usage: simeval baseline set RUN (a run id, name or id prefix), or simeval baseline to show it";
  if ((action === undefined || action === "show") && ref !== undefined) throw new EvalError("USAGE", `baseline show takes no run, received ${JSON.stringify(ref)}; ${usage}`);
  // Before the database is opened: a misspelt action is what to fix, whatever the database.
  if (action !== undefined && action !== "show" && action !== "set") {
    // "unset" is two edits from "set", its opposite: suggesting it would mark a run where the user meant to clear the mark.
    const hint = UNSET_WORDS.includes(action.toLowerCase())
      ? " No action unsets the baseline: `simeval baseline set RUN` marks another run, and deleting the baseline's run unsets it."
      : didYouMean(action, ["set", "show"]);
    throw new EvalError("USAGE", `baseline: unknown action ${JSON.stringify(action)}; expected set RUN or show.${hint} (${usage})`);
  }
  if (action === "set" && ref === undefined) throw new EvalError("USAGE", `baseline set needs a RUN; ${usage}`);
  const store = action === "set" ? openRecordedRuns(opts.db) : recordedRunsIfAny(opts.db);
  if (store === null) {
    const above = databaseAbove(opts.db);
    io.stdout(`no baseline set: there is no run database at ${forTerminalLine(opts.db)} yet${above || "; `simeval run` records runs there, and `simeval baseline set RUN` then sets one"}`);
    return EXIT.ok;
  }
  try {
    if (action === undefined || action === "show") {
      const b = await store.baseline();
      io.stdout(b ? `baseline: ${runLabel(b)}` : "no baseline set; `simeval baseline set RUN` sets one");
      return EXIT.ok;
    }
    const run = findOrFail(await store.findRun(ref as string), ref as string);
    if (run.status !== "complete") throw new EvalError("USAGE", `run ${runLabel(run)} is ${run.status}; only a complete run can be the baseline (the baseline is unchanged)${await completeOfName(store, run, ref as string)}`);
    // A comparison with it would have no pairs for these, so a regression on them would pass unseen.
    const unscored = unscoredEvaluators(run);
    if (unscored.length) {
      const them = unscored.length > 1 ? "them" : "it";
      throw new EvalError(
        "USAGE",
        `run ${runLabel(run)} cannot be the baseline: ${describeUnscored(unscored)} scored no row in it, so a comparison with it could not show a regression on ${them}; set a run in which every evaluator scored rows (the baseline is unchanged)`,
      );
    }
    await store.setBaseline(run.id);
    io.stdout(`baseline: ${runLabel(run)}`);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/**
 * The evaluators that scored no row of a run: each of its readable rows was skipped (no expected value) or
 * an error. A zero given to a skipped row by --count-skipped-as-zero is no score here: a comparison does
 * not pair it. A comparison with such a run has no pairs for these evaluators, so it cannot show a
 * regression on them. A run without a summary has none to tell.
 */
export function unscoredEvaluators(run: RunInfo): EvaluatorSummary[] {
  const s = run.summary;
  if (!s) return [];
  const readable = s.rows - s.row_errors;
  return s.evaluators.filter((e) => e.skipped + e.errors >= readable);
}

/** Unscored evaluators as messages name them, each with why: `exact_match (every row an error), levenshtein (2 rows skipped, 1 row failed)`. */
export function describeUnscored(evaluators: readonly EvaluatorSummary[]): string {
  const why = (e: EvaluatorSummary) => {
    if (e.skipped === 0) return "every row an error";
    if (e.errors === 0) return "every row skipped";
    return `${rowsText(e.skipped)} skipped, ${rowsText(e.errors)} failed`;
  };
  return evaluators.map((e) => `${e.name} (${why(e)})`).join(", ");
}
