import { statIfAny } from "./stat-if-any.js";
import { EvalError } from "../errors.js";
import { findEvaluator } from "../evaluators/registry.js";
import { readResultsFile } from "../run/results-file.js";
import { scoresOfOutcome, type RowScores } from "../run/row-scores.js";
import { isResultError, type RowOutcome, type RunInfo } from "../run/types.js";
import type { Direction } from "../types.js";
import type { StoredRowReader } from "../run/dataset-texts.js";
import type { RunStore } from "../storage/store.js";
import type { ComparisonInput } from "../compare/types.js";

/** A run to compare: from the store (with its dataset and specs) or from a results.jsonl file. */
export interface LoadedRun {
  label: string;
  info: RunInfo | null;
  /** Its rows' scores, read afresh at each call. */
  rows: () => Iterable<RowScores> | AsyncIterable<RowScores>;
  /**
   * A recorded run's whole rows, read afresh at each call: where a run not read from a dataset file keeps its
   * records, which a report's texts come from. None for a results.jsonl file.
   */
  stored?: StoredRowReader;
  directions: Record<string, Direction>;
  types: Record<string, string>;
  /** The line of a results.jsonl left out as cut short (see readResultsFile), once its rows have been read. */
  cutShortLine?: () => number | undefined;
  /** A results.jsonl's line of the row last read from `rows` ({@link ComparisonInput.line}). */
  line?: () => number | undefined;
}

/** Whether RUN names a file, read as a results.jsonl, rather than a recorded run. */
export function isResultsFile(ref: string): boolean {
  return statIfAny(ref)?.isFile() === true;
}

/**
 * Whether two loaded runs are one: the same recorded run (a name finds the newest of that name, which may be the
 * run given by its id too), or the same results.jsonl file however its path is spelt (`out/a.jsonl`, `./out/a.jsonl`).
 */
export function sameRun(a: LoadedRun, b: LoadedRun): boolean {
  if (a.info || b.info) return a.info?.id === b.info?.id;
  const [fileA, fileB] = [statIfAny(a.label), statIfAny(b.label)];
  return fileA !== undefined && fileB !== undefined && fileA.dev === fileB.dev && fileA.ino === fileB.ino;
}

/**
 * Resolves RUN as a results.jsonl path, else a run id, name or unique id prefix in the store (see
 * `RunStore.findRun`). A RUN that names both a file and a recorded run is a USAGE error saying how to
 * name either, rather than a silent choice.
 */
export async function loadRun(ref: string, store: RunStore | undefined): Promise<LoadedRun> {
  if (isResultsFile(ref)) {
    const run = await store?.findRun(ref).catch(() => undefined); // an ambiguous prefix is not this run
    if (run) {
      throw new EvalError("USAGE", `${JSON.stringify(ref)} names both a file and the recorded run ${run.id}; for the file, spell its path another way (./name, or the full path); for the run, give its id`);
    }
    return loadResultsFile(ref);
  }
  const info = await store?.findRun(ref);
  if (!info || !store) {
    if (statIfAny(ref)?.isDirectory()) {
      throw new EvalError("USAGE", `${JSON.stringify(ref)} is a folder, and no recorded run is named so; give a results.jsonl file in it, or a recorded run (id, name or id prefix)`);
    }
    throw new EvalError("USAGE", `${JSON.stringify(ref)} is neither a results.jsonl file nor a recorded run (id, name or id prefix); \`simeval runs\` lists the runs`);
  }
  const types = byName(info.evaluators.map((s) => [s.name ?? s.type, s.type]));
  return { label: info.name ? `${info.name} (${info.id})` : info.id, info, rows: () => store.scores(info.id), stored: () => store.rows(info.id), types, directions: directionsOf(types) };
}

/**
 * A results.jsonl as a run. The evaluators' types come from a first pass, which stops at the first row
 * where every evaluator gave a result (simeval writes every evaluator on every readable row), so that
 * the file is parsed about once, not twice. Its lines are checked as the comparison reads them.
 */
function loadResultsFile(path: string): LoadedRun {
  const types = byName<string>([]);
  const errored = new Set<string>();
  let cutShort: number | undefined;
  let line: number | undefined;
  // Each read says anew: the file may have changed since the last (a run still writing it finished the line).
  const read = () => {
    cutShort = undefined;
    line = undefined;
    return readResultsFile(path, undefined, (n) => (cutShort = n), (n) => (line = n));
  };
  for (const r of read()) {
    let untyped = r.error !== undefined;
    for (const [name, res] of Object.entries(r.results)) {
      if (!isResultError(res)) types[name] ??= res.type; // a registered type: readResultsFile checks it
      else if (types[name] === undefined) {
        untyped = true;
        errored.add(name);
      }
    }
    if (!untyped) break;
  }
  // An evaluator with nothing but errors in the file (an embedding provider never reached) has no type, hence no
  // direction; without one the comparison would be refused. It has no score to pair, so any direction will do:
  // compare() lets the other run's direction, from a type, win.
  const untyped = [...errored].filter((name) => types[name] === undefined);
  const directions = { ...Object.fromEntries(untyped.map((name) => [name, "maximize" as const])), ...directionsOf(types) };
  return { label: path, info: null, rows: () => eachRowScores(read()), types, directions, cutShortLine: () => cutShort, line: () => line };
}

/**
 * Evaluators' types by name, in an object with no prototype: an evaluator may be named "constructor" or
 * "toString", which a plain object has already (an inherited function), so that `types[name] ??= type` kept
 * the function, the evaluator of a results.jsonl got no direction and compare refused it, and a run without
 * such an evaluator seemed to have one of another type.
 */
function byName<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, Object.fromEntries(entries));
}

function directionsOf(types: Record<string, string>): Record<string, Direction> {
  return Object.fromEntries(Object.entries(types).map(([name, type]) => [name, findEvaluator(type)?.direction ?? "maximize"]));
}

function* eachRowScores(outcomes: Iterable<RowOutcome>): Generator<RowScores> {
  for (const o of outcomes) yield scoresOfOutcome(o);
}
