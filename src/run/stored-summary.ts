/**
 * A run's summary made again from its stored rows: for a service whose processes each add rows to one run
 * (`RunStore.appendRows`), so that none has built the summary as the CLI's runner does while it scores.
 */
import { argumentError, EvalError, isPlainObject } from "../errors.js";
import { outlineEvaluatorSpecs } from "../evaluators/create.js";
import { packScores } from "../stats/packed-scores.js";
import type { ScoreSetOptions } from "../stats/score-set.js";
import { SummaryBuilder } from "../stats/summarize.js";
import type { RunStore } from "../storage/store.js";
import type { RowOutcome, RunSummary } from "./types.js";

/** Rows packed for the summary at a time: what the runner's batches hold by default, about. */
const PACK_ROWS = 512;

export interface StoredSummaryOptions {
  /** As `runDataset`'s option (a run records no such setting, so say it again): count skipped rows as score 0. Default false. */
  countSkippedAsZero?: boolean;
  /** Where the scores go past memory, as {@link SummaryBuilder}'s. */
  scoreSet?: ScoreSetOptions;
}

/**
 * The {@link RunSummary} of the run `runId` (an exact id) over the rows stored for it, read as they stream
 * from `store.rows`: built by {@link SummaryBuilder} for the run's recorded evaluators in their order, each with
 * the direction and threshold that `createEvaluators` gives its spec (as `simeval run` builds them; none is built,
 * so a `semantic_similarity` spec needs no API key or model here), so that a
 * run whose rows came from many processes gets the summary the runner would have given the same rows. Rows that
 * could not be read count in `row_errors`, skipped results in `skipped` (as zeros too with `countSkippedAsZero`).
 * Memory stays flat: rows are read in pages and scores spill to a temporary file as the runner's do.
 *
 * Throws CONFIG_INVALID naming the argument when `store` is not a {@link RunStore} (no `findRun` or `rows`)
 * or `opts` not {@link StoredSummaryOptions}, INPUT_INVALID when `runId` is not a non-empty string,
 * STORE_FAILED when the store has no run with that id (a name or prefix does not do: the caller holds the id),
 * and the evaluators' CONFIG_INVALID when the run's recorded specs no longer make evaluators.
 */
export async function summarizeStoredRun(store: RunStore, runId: string, opts: StoredSummaryOptions = {}): Promise<RunSummary> {
  checkArguments(store, runId, opts);
  const run = await store.findRun(runId);
  if (run === undefined || run.id !== runId) throw new EvalError("STORE_FAILED", `summarizeStoredRun: the store has no run with id "${runId}"`);
  const evaluators = outlineEvaluatorSpecs(run.evaluators);
  const names = evaluators.map((e) => e.name);
  const builder = new SummaryBuilder(
    evaluators,
    { countSkippedAsZero: opts.countSkippedAsZero ?? false, ...(opts.scoreSet ? { scoreSet: opts.scoreSet } : {}) },
  );
  try {
    // Packed a batch at a time, as the runner adds them (SummaryBuilder.add packs each row alone).
    let batch: RowOutcome[] = [];
    for await (const row of store.rows(runId)) {
      batch.push(row);
      if (batch.length === PACK_ROWS) {
        builder.addPacked(packScores(batch, names));
        batch = [];
      }
    }
    if (batch.length) builder.addPacked(packScores(batch, names));
    return builder.finish();
  } finally {
    builder.close();
  }
}

/** How many times {@link finishStoredRun} summarizes a run that keeps growing before it gives up. */
export const FINISH_ATTEMPTS = 5;

/**
 * Summarizes the run `runId` from its stored rows ({@link summarizeStoredRun}) and marks it complete with that
 * summary, in a way that no row is left out: `finishRun` is told how many rows the summary covers and refuses
 * when the run stores another number (a process appended rows meanwhile), and the run is then summarized
 * again, up to {@link FINISH_ATTEMPTS} times. Resolves to the summary recorded. Throws STORE_FAILED when
 * rows kept coming each time (stop appending to the run first), or when the run is not running, and the
 * errors of {@link summarizeStoredRun}.
 */
export async function finishStoredRun(store: RunStore, runId: string, opts: StoredSummaryOptions = {}): Promise<RunSummary> {
  for (let attempt = 0; attempt < FINISH_ATTEMPTS; attempt++) {
    const summary = await summarizeStoredRun(store, runId, opts);
    if (await store.finishRun(runId, summary, { rows: summary.rows })) return summary;
  }
  throw new EvalError("STORE_FAILED", `finishStoredRun: run ${runId} took more rows each of the ${FINISH_ATTEMPTS} times it was summarized; stop appending to it, then finish it`);
}

/** Throws, naming the argument, unless the arguments are of their kinds. */
function checkArguments(store: unknown, runId: unknown, opts: unknown): void {
  const bad = (code: "INPUT_INVALID" | "CONFIG_INVALID", arg: string, expected: string, value: unknown) => argumentError(code, "summarizeStoredRun", arg, expected, value);
  if (typeof store !== "object" || store === null) throw bad("CONFIG_INVALID", "store", "a RunStore (such as openSqliteStore(path))", store);
  for (const method of ["findRun", "rows"]) {
    const m = (store as Record<string, unknown>)[method];
    if (typeof m !== "function") throw bad("CONFIG_INVALID", `store.${method}`, "a function (the store is no RunStore)", m);
  }
  if (typeof runId !== "string" || runId === "") throw bad("INPUT_INVALID", "runId", "a run's id (a non-empty string)", runId);
  if (!isPlainObject(opts)) throw bad("CONFIG_INVALID", "opts", "an object ({ countSkippedAsZero?, scoreSet? }) or nothing", opts);
  if (opts["countSkippedAsZero"] !== undefined && typeof opts["countSkippedAsZero"] !== "boolean") {
    throw bad("CONFIG_INVALID", "opts.countSkippedAsZero", "a boolean or nothing", opts["countSkippedAsZero"]);
  }
}
