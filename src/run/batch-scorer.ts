import type { DatasetItem, UnparsedRow } from "../dataset/rows.js";
import type { Evaluator } from "../evaluators/create.js";
import { evaluateItem, parsedItem, serializeErrors, serializeOutcome, verdictItem } from "./evaluate-row.js";
import { emptyPacked, packRow, type PackedScores } from "../stats/packed-scores.js";
import { BatchWriter, type SerializedBatch } from "./serialized-batch.js";
import type { RowOutcome, RowVerdict, SerializedRow } from "./types.js";
import { WorstRows, type WorstRow } from "./worst-rows.js";

/**
 * What scoring a batch gives back, in row order: the rows serialised (results.jsonl text, also what
 * the store keeps), and the outcomes packed for the summary — all that crosses back from a worker thread.
 * When the scorer does not explain, only rows with errors have a line, whose results hold only the
 * errors (see {@link serializeErrors}); the other rows are left out of the bytes ({@link BatchWriter.skip}).
 */
export interface ScoredBatch extends SerializedBatch {
  scores: PackedScores;
}

/** Spare buffers a scorer keeps: as many as its batches in flight (four a thread, see runDataset). */
const SPARES = 4;
/**
 * The largest spare kept: a batch's first guess is at most 1 MiB (512 rows of 2 KB), and one grown for a
 * row of many megabytes is let go rather than kept for the rest of the run.
 */
const SPARE_BYTES = 1 << 22;

/** A row left out of the batch's bytes. */
type Unwritten = Pick<SerializedRow, "row" | "line">;

/**
 * Scores batches of dataset items with a fixed set of evaluators and remembers, per evaluator, the
 * worst-scoring rows with their texts (for reports). Runs the same on a worker thread or inline.
 * With `explain` false (a run that keeps only its summary), rows are scored by verdict alone, several
 * times faster, and only the worst rows kept are explained.
 */
export class BatchScorer {
  private readonly worstRows: WorstRows;
  private readonly names: string[];
  /** Earlier batches' bytes, handed back ({@link recycle}) to be written over. */
  private readonly spares: ArrayBuffer[] = [];

  constructor(
    private readonly evaluators: readonly Evaluator[],
    worstPerEvaluator: number,
    private readonly explain = true,
  ) {
    this.worstRows = new WorstRows(evaluators, worstPerEvaluator);
    this.names = evaluators.map((e) => e.name);
  }

  /** Loads what the evaluators need (word vectors, a model), so that a failure stops a run before its first row. */
  async ready(): Promise<void> {
    await Promise.all(this.evaluators.map((e) => e.ready()));
  }

  async score(items: readonly (DatasetItem | UnparsedRow)[]): Promise<ScoredBatch> {
    const scores = emptyPacked(items.length, this.names.length);
    // Without explanations, only rows with errors are written: few bytes.
    const writer = new BatchWriter(items.length, this.explain ? 2048 : 0, this.spares.pop());
    // Rows are written in order: a row scored before an earlier one waits here until that one is done.
    const done: (SerializedRow | Unwritten | undefined)[] = new Array<SerializedRow | Unwritten | undefined>(items.length);
    let next = 0;
    const finish = (i: number, item: DatasetItem, outcome: RowOutcome<RowVerdict>) => {
      packRow(scores, i, outcome, this.names);
      if ("record" in item) this.worstRows.offer(outcome, item.record);
      done[i] = this.explain ? serializeOutcome(outcome as RowOutcome) : (serializeErrors(outcome) ?? { row: outcome.row, line: outcome.line ?? null });
      for (let row = done[next]; row !== undefined; row = done[next]) {
        if ("results" in row) writer.add(row);
        else writer.skip(row.row, row.line);
        done[next++] = undefined;
      }
    };
    // Start every row before awaiting any, so that embedding calls of the whole batch coalesce; a row
    // scored at once is written at once, so that its objects die young (cheap to collect).
    const waiting: [number, DatasetItem, Promise<RowOutcome<RowVerdict>>][] = [];
    for (let i = 0; i < items.length; i++) {
      const item = parsedItem(items[i] as DatasetItem | UnparsedRow);
      const r = this.explain ? evaluateItem(item, this.evaluators) : verdictItem(item, this.evaluators);
      if (r instanceof Promise) waiting.push([i, item, r]);
      else finish(i, item, r);
    }
    for (const [i, item, r] of waiting) finish(i, item, await r);
    return { ...writer.finish(), scores };
  }

  /**
   * Takes back a batch's bytes once nothing reads them (written, stored), for a later batch to be written
   * into: a million rows otherwise leave a megabyte of garbage a batch, which the main thread, where they
   * end, collects only every 64 MB or so (V8's external memory limit). Up to {@link SPARES} are kept, of at
   * most {@link SPARE_BYTES} each.
   */
  recycle(bytes: ArrayBuffer): void {
    if (this.spares.length < SPARES && bytes.byteLength <= SPARE_BYTES) this.spares.push(bytes);
  }

  worst(): Record<string, WorstRow[]> {
    return this.worstRows.result();
  }
}
