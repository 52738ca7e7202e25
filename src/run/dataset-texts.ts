import { EvalError, type Issue } from "../errors.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import { hashFile } from "../dataset/hash.js";
import { readDataset } from "../dataset/read-dataset.js";
import { compileInputs } from "../mapping/inputs.js";
import { toText } from "../mapping/to-text.js";
import type { RowOutcome } from "./types.js";

type RowTexts = Map<number, { output: string | null; expected: string | null }>;

/**
 * A run's dataset as recorded: the file's path and the sha256 of the bytes the run read (see `scanFile`); both
 * null for a stored run not read from a dataset file (such as a service's, scoring traces: see `RunInfo.dataset_path`).
 */
export interface RecordedDataset {
  path: string | null;
  sha256: string | null;
}

/**
 * A stored run's rows in row order, as `RunStore.rows` gives them, read afresh at each call: where a run not read
 * from a dataset file (a service's) keeps each row's record (`RowOutcome.record`, schema version 5).
 */
export type StoredRowReader = () => AsyncIterable<Pick<RowOutcome, "row" | "record">>;

/**
 * The texts a run's evaluators compared, read back from its dataset file (results keep scores, not texts),
 * but only while the file still holds the bytes the run read: a file that is missing, unreadable or changed
 * since the run (its sha256 differs from the recorded one) gives no texts, never another dataset's. The
 * file is hashed once, and only when some texts are asked for. A stored run not read from a dataset file
 * gives the texts of the records its rows were stored with, when it has `stored` rows to read them from.
 */
export class DatasetTexts {
  private verdict: Promise<string | null> | undefined;

  /**
   * @param dataset the recorded dataset; null for a run that records none (a results.jsonl file).
   * @param who the run(s) for messages, e.g. `A` or `A and B`.
   * @param stored the run's stored rows, read for their records only when `dataset.path` is null.
   */
  constructor(
    readonly dataset: RecordedDataset | null,
    readonly who: string,
    readonly stored?: StoredRowReader,
  ) {}

  /**
   * Null when the texts can be read; else why not, as a clause for a message
   * (`the dataset of A (/data/x.jsonl) has changed since the run`). Hashes the file at the first call only.
   * Of a run read from its stored records: null until a {@link rowTexts} found none of the rows it asked for
   * stored with a record, then why.
   */
  unavailable(): Promise<string | null> {
    this.verdict ??= this.#fromRecords() ? Promise.resolve(null) : datasetProblem(this.dataset, this.who);
    return this.verdict;
  }

  /**
   * The texts of `rows` through `spec`'s input mapping: null when they are unavailable (see
   * {@link unavailable}); a map without the rows it could not read otherwise (no spec, a row whose mapping
   * fails, a stored row without a record). No rows asked: an empty map, without reading the file.
   * From stored records, null when none of `rows` kept its record, whatever earlier calls found: in a run whose
   * later rows kept theirs (stored since schema version 5), one evaluator's rows may have none and another's all.
   */
  async rowTexts(spec: EvaluatorSpec | undefined, rows: ReadonlySet<number>): Promise<RowTexts | null> {
    return (await this.textsOf([{ spec, rows }]))[0] ?? null;
  }

  /**
   * {@link rowTexts} of each ask, in its order, from one read of the file or of the stored rows (up to the last row
   * any ask wants), where one read per ask would read a wide config's dataset once for each of its evaluators.
   */
  async textsOf(asks: readonly TextsAsk[]): Promise<(RowTexts | null)[]> {
    if (asks.every((a) => a.rows.size === 0)) return asks.map(() => new Map());
    if (this.stored && this.#fromRecords()) {
      const texts = await readRecordTexts(this.stored, asks);
      if (texts.includes(null)) {
        this.verdict = Promise.resolve(`the rows of ${this.who} were not read from a dataset file, and those shown without texts were stored without their records (by a service that kept none, or a simeval before schema version 5), so nothing holds their texts`);
      }
      return texts;
    }
    const path = (await this.unavailable()) === null ? this.dataset?.path : null;
    if (path == null) return asks.map((a) => (a.rows.size ? null : new Map()));
    return readRowTexts(path, asks);
  }

  /** Whether the texts come from the stored rows' records: a stored run not read from a dataset file, whose rows are given. */
  #fromRecords(): boolean {
    return this.stored !== undefined && this.dataset !== null && this.dataset.path === null;
  }
}

/** Why the dataset's texts cannot be shown, or null when the file's sha256 is the recorded one. */
async function datasetProblem(dataset: RecordedDataset | null, who: string): Promise<string | null> {
  if (dataset === null) return `${who} is a results.jsonl file, which records no dataset`;
  if (dataset.path === null) return `the rows of ${who} were not read from a dataset file (such as a service's, scored from traces), so no file holds their texts`;
  const what = `the dataset of ${who} (${dataset.path})`;
  let sha256: string;
  try {
    sha256 = await hashFile(dataset.path);
  } catch (error) {
    if (isMissing(error)) return `${what} is missing`;
    return `${what} cannot be read (${error instanceof Error ? error.message : String(error)})`;
  }
  return sha256 === dataset.sha256 ? null : `${what} has changed since the run`;
}

/** A DATASET_INVALID error from `hashFile` whose cause says the file (or a directory on its path) is gone. */
function isMissing(error: unknown): boolean {
  const cause = error instanceof EvalError ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  return cause?.code === "ENOENT" || cause?.code === "ENOTDIR";
}

/** What {@link DatasetTexts.textsOf} is asked for: the texts of `rows` through `spec`'s input mapping (none without a spec). */
interface TextsAsk {
  spec: EvaluatorSpec | undefined;
  rows: ReadonlySet<number>;
}

/**
 * Reads each ask's texts from the (checked) file, in one pass up to the last row asked for. Returns what it could read:
 * should the file change while it is read, or a row's mapping fail, those rows are left out.
 */
async function readRowTexts(datasetPath: string, asks: readonly TextsAsk[]): Promise<RowTexts[]> {
  const reading = asks.map((ask) => ({ rows: ask.rows, textsOf: ask.spec && mapping(ask.spec), out: new Map() as RowTexts }));
  const live = reading.filter((r) => r.textsOf && r.rows.size);
  const last = lastRow(live);
  try {
    if (live.length) {
      for await (const item of readDataset(datasetPath)) {
        if (item.row > last) break;
        if (!("record" in item)) continue;
        for (const r of live) {
          if (!r.rows.has(item.row)) continue;
          const texts = r.textsOf?.(item.record);
          if (texts) r.out.set(item.row, texts);
        }
      }
    }
  } catch {
    // the file changed after it was checked: show what was read
  }
  return reading.map((r) => r.out);
}

/**
 * Reads each ask's texts from the records its rows were stored with, reading the stored rows once, up to the last
 * row asked for (as {@link readRowTexts} reads a file). An ask is null when none of its rows was stored with a record;
 * otherwise the texts of those that were, less any whose mapping fails; an ask without rows or a spec is an empty
 * map. A failure to read the store is thrown: the run is there.
 */
async function readRecordTexts(stored: StoredRowReader, asks: readonly TextsAsk[]): Promise<(RowTexts | null)[]> {
  const reading = asks.map((ask) => ({ rows: ask.spec ? ask.rows : new Set<number>(), textsOf: ask.spec && mapping(ask.spec), out: new Map() as RowTexts, records: 0 }));
  const live = reading.filter((r) => r.rows.size);
  const last = lastRow(live);
  if (live.length) {
    for await (const row of stored()) {
      if (row.row > last) break;
      if (row.record === undefined) continue;
      for (const r of live) {
        if (!r.rows.has(row.row)) continue;
        r.records++;
        const texts = r.textsOf?.(row.record);
        if (texts) r.out.set(row.row, texts);
      }
    }
  }
  return reading.map((r) => (r.rows.size && r.records === 0 ? null : r.out));
}

/** The highest row any of `asks` wants (-Infinity for none). */
function lastRow(asks: readonly { rows: ReadonlySet<number> }[]): number {
  let last = -Infinity;
  for (const ask of asks) for (const row of ask.rows) if (row > last) last = row;
  return last;
}

/**
 * `spec`'s input mapping as a function from a record to its output and expected texts (undefined where the mapping
 * fails on it: such a row is shown without its texts), or undefined when the mapping does not compile.
 */
function mapping(spec: EvaluatorSpec): ((record: unknown) => { output: string | null; expected: string | null } | undefined) | undefined {
  const issues: Issue[] = [];
  const inputs = compileInputs(spec.inputs, [], issues, spec.name ?? spec.type);
  if (issues.length) return undefined;
  const text = (v: unknown) => (v === undefined || v === null ? null : toText(v));
  return (record) => {
    try {
      return { output: text(inputs.output(record)), expected: text(inputs.expected(record)) };
    } catch {
      return undefined;
    }
  };
}
