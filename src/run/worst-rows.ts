import type { Evaluator } from "../evaluators/create.js";
import type { EvalRecord } from "../types.js";
import { explained } from "./evaluate-row.js";
import { isResultError, type RowOutcome, type RowVerdict, type StoredResult } from "./types.js";

/** A row that scored among the worst for one evaluator, with the texts it compared. */
export interface WorstRow {
  row: number;
  id: unknown;
  score: number;
  passed: boolean | null;
  reasoning: string;
  details: Record<string, unknown>;
  output: string | null;
  expected: string | null;
}

/**
 * Keeps, per evaluator, the `k` rows with the worst scores (lowest for "maximize", highest for
 * "minimize"; skipped rows and errors never count), ties broken by row number (lowest first): the
 * first `k` rows in {@link compareWorst} order, whatever order the rows are offered in. Rows do come
 * out of order — rows awaiting embeddings finish after later batches' rows, and each scoring thread
 * sees only some batches — so the result, merged with {@link WorstRows.merge}, is the same with any
 * number of threads. O(k) per offer: k is small (tens), and only rows before the current k-th are inserted.
 */
export class WorstRows {
  private readonly lists = new Map<string, WorstRow[]>();

  constructor(
    private readonly evaluators: readonly Evaluator[],
    private readonly k: number,
  ) {
    for (const e of evaluators) this.lists.set(e.name, []);
  }

  /** Offers a scored row; a verdict without its explanation is explained again here, when the row is kept. */
  offer(outcome: RowOutcome<RowVerdict>, record: EvalRecord): void {
    if (this.k <= 0) return;
    for (const e of this.evaluators) {
      const r = outcome.results[e.name];
      if (!r || isResultError(r) || r.skipped || r.score === null) continue;
      const list = this.lists.get(e.name) as WorstRow[];
      const candidate = { row: outcome.row, score: r.score };
      // Not before the k-th: kept out, also when it ties on score with a later row.
      if (list.length === this.k && compareWorst(candidate, list[list.length - 1] as WorstRow, e.direction) >= 0) continue;
      const { reasoning, details } = "reasoning" in r ? (r as StoredResult) : explainNow(e, record);
      const entry: WorstRow = { row: outcome.row, id: outcome.id, score: r.score, passed: r.passed, reasoning, details, ...e.texts(record) };
      insertSorted(list, entry, e.direction);
      if (list.length > this.k) list.pop();
    }
  }

  result(): Record<string, WorstRow[]> {
    return Object.fromEntries(this.lists);
  }

  /** Merges per-worker lists into the global worst `k` per evaluator. */
  static merge(parts: readonly Record<string, WorstRow[]>[], evaluators: readonly Pick<Evaluator, "name" | "direction">[], k: number): Record<string, WorstRow[]> {
    const out: Record<string, WorstRow[]> = {};
    for (const e of evaluators) {
      const all = parts.flatMap((p) => p[e.name] ?? []);
      all.sort((x, y) => compareWorst(x, y, e.direction));
      out[e.name] = all.slice(0, k);
    }
    return out;
  }
}

/** The whole result of an evaluator that gave a verdict alone (`verdictNow`, so synchronous). */
function explainNow(e: Evaluator, record: EvalRecord): StoredResult {
  const r = explained(e, record);
  if (r instanceof Promise) throw new Error(`evaluator "${e.name}" has verdictNow but is asynchronous`);
  return r;
}

/**
 * The worst-rows order: negative when `x` comes first. The worse score first (the lower for
 * "maximize", the higher for "minimize"); on equal scores, the lower row number first.
 */
export function compareWorst(x: Pick<WorstRow, "row" | "score">, y: Pick<WorstRow, "row" | "score">, direction: Evaluator["direction"]): number {
  if (x.score !== y.score) return (x.score < y.score) === (direction === "maximize") ? -1 : 1;
  return x.row - y.row;
}

/** Inserts `entry` into `list`, which is in {@link compareWorst} order, keeping it so. */
function insertSorted(list: WorstRow[], entry: WorstRow, direction: Evaluator["direction"]): void {
  let i = list.length;
  while (i > 0 && compareWorst(list[i - 1] as WorstRow, entry, direction) > 0) i--;
  list.splice(i, 0, entry);
}
