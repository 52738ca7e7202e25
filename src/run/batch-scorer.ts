import type { DatasetItem } from "../dataset/rows.js";
import type { Evaluator } from "../evaluators/create.js";
import { evaluateItem, serializeOutcome } from "./evaluate-row.js";
import { isResultError, type OutcomeScores, type RowOutcome, type SerializedRow } from "./types.js";
import { WorstRows, type WorstRow } from "./worst-rows.js";

/**
 * What scoring a batch gives back, in row order: each row serialised (for results.jsonl and the
 * store), and its outcome reduced to what a summary needs (score, verdict, skipped, error) — all
 * that has to cross back from a worker thread besides the text.
 */
export interface ScoredBatch {
  rows: SerializedRow[];
  scores: OutcomeScores[];
}

/**
 * Scores batches of dataset items with a fixed set of evaluators and remembers, per evaluator, the
 * worst-scoring rows with their texts (for reports). Runs the same on a worker thread or inline.
 */
export class BatchScorer {
  private readonly worstRows: WorstRows;

  constructor(
    private readonly evaluators: readonly Evaluator[],
    worstPerEvaluator: number,
  ) {
    this.worstRows = new WorstRows(evaluators, worstPerEvaluator);
  }

  async score(items: readonly DatasetItem[]): Promise<ScoredBatch> {
    const scores: OutcomeScores[] = new Array<OutcomeScores>(items.length);
    const rows: SerializedRow[] = new Array<SerializedRow>(items.length);
    const finish = (i: number, outcome: RowOutcome) => {
      const item = items[i] as DatasetItem;
      scores[i] = scoresOf(outcome);
      rows[i] = serializeOutcome(outcome);
      if ("record" in item) this.worstRows.offer(outcome, item.record);
    };
    // Start every row before awaiting any, so that embedding calls of the whole batch coalesce; a row
    // scored at once is serialised at once, so that its objects die young (cheap to collect).
    const waiting: [number, Promise<RowOutcome>][] = [];
    for (let i = 0; i < items.length; i++) {
      const r = evaluateItem(items[i] as DatasetItem, this.evaluators);
      if (r instanceof Promise) waiting.push([i, r]);
      else finish(i, r);
    }
    for (const [i, r] of waiting) finish(i, await r);
    return { rows, scores };
  }

  worst(): Record<string, WorstRow[]> {
    return this.worstRows.result();
  }
}

function scoresOf(o: RowOutcome): OutcomeScores {
  const results: OutcomeScores["results"] = {};
  for (const [name, r] of Object.entries(o.results)) {
    results[name] = isResultError(r) ? r : { score: r.score, passed: r.passed, skipped: r.skipped };
  }
  return o.error ? { results, error: o.error } : { results };
}
