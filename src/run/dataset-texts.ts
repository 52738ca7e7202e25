import { EvalError, type Issue } from "../errors.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import { hashFile } from "../dataset/hash.js";
import { readDataset } from "../dataset/read-dataset.js";
import { compileInputs } from "../mapping/inputs.js";
import { toText } from "../mapping/to-text.js";
import type { RowOutcome } from "./types.js";

export type RowTexts = Map<number, { output: string | null; expected: string | null }>;

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
    if (rows.size === 0) return new Map();
    if (this.stored && this.#fromRecords()) {
      if (!spec) return new Map();
      const texts = await readRecordTexts(this.stored, spec, rows);
      if (texts === null) {
        this.verdict = Promise.resolve(`the rows of ${this.who} were not read from a dataset file, and those shown without texts were stored without their records (by a service that kept none, or a simeval before schema version 5), so nothing holds their texts`);
      }
      return texts;
    }
    if ((await this.unavailable()) !== null) return null;
    if (this.dataset?.path == null) return null;
    return spec ? readRowTexts(this.dataset.path, spec, rows) : new Map();
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

/**
 * Reads `rows`' texts from the (checked) file. Returns what it could read: should the file change while it
 * is read, or a row's mapping fail, those rows are left out.
 */
async function readRowTexts(datasetPath: string, spec: EvaluatorSpec, rows: ReadonlySet<number>): Promise<RowTexts> {
  const out: RowTexts = new Map();
  const textsOf = mapping(spec);
  if (!textsOf) return out;
  const last = Math.max(...rows);
  try {
    for await (const item of readDataset(datasetPath)) {
      if (item.row > last) break;
      if (!rows.has(item.row) || !("record" in item)) continue;
      const texts = textsOf(item.record);
      if (texts) out.set(item.row, texts);
    }
  } catch {
    // the file changed after it was checked: show what was read
  }
  return out;
}

/**
 * Reads `rows`' texts from the records they were stored with, reading the stored rows up to the last one asked
 * for (as {@link readRowTexts} reads a file). Null when none of `rows` was stored with a record; otherwise the
 * texts of those that were, less any whose mapping fails. A failure to read the store is thrown: the run is there.
 */
async function readRecordTexts(stored: StoredRowReader, spec: EvaluatorSpec, rows: ReadonlySet<number>): Promise<RowTexts | null> {
  const out: RowTexts = new Map();
  const textsOf = mapping(spec);
  const last = Math.max(...rows);
  let records = 0;
  for await (const r of stored()) {
    if (r.row > last) break;
    if (!rows.has(r.row) || r.record === undefined) continue;
    records++;
    const texts = textsOf?.(r.record);
    if (texts) out.set(r.row, texts);
  }
  return records === 0 ? null : out;
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
