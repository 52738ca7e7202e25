/**
 * Reading one run's rows for a comparison: the usable rows, one at a time, with warnings for the others,
 * and the event-loop turns that let a comparison be stopped.
 */
import { describeValue } from "../errors.js";
import { scoresOfOutcome, type RowScores } from "../run/row-scores.js";
import type { RowOutcome } from "../run/types.js";
import type { CompareOptions, ComparisonInput } from "./types.js";

/** Row numbers above this are refused: each run marks the rows it gave in a bit per row number (2^28 rows = 32 MiB). */
const MAX_ROW = 2 ** 28;
/** Warnings listed per comparison; past them, how many more. */
const MAX_WARNINGS = 20;
/** How often {@link CompareOptions.onProgress} is called, in rows read. */
const PROGRESS_EVERY = 10_000;

/**
 * Reads one run's rows one at a time: its usable rows, leaving out, with a warning, those that are not
 * objects or have a bad or repeated row number; the evaluators they name, in the order first named.
 */
export class RunReader {
  /** Evaluator names, in the order the rows first name them. */
  readonly names = new Set<string>();
  /** Usable rows read. */
  rows = 0;
  done = false;
  /** This run's warnings, kept apart from the other run's: run a's are listed first, however the rows interleave. */
  readonly warnings = new Warnings();
  private position = 0;
  private readonly seen = new SeenRows();
  private readonly iterator: Iterator<unknown> | AsyncIterator<unknown>;

  constructor(
    private readonly run: ComparisonInput,
    private readonly read: { rows: number },
    private readonly opts: CompareOptions,
  ) {
    const rows = run.rows as Partial<AsyncIterable<unknown> & Iterable<unknown>>;
    this.iterator = rows[Symbol.asyncIterator]?.() ?? (rows[Symbol.iterator] as () => Iterator<unknown>).call(rows);
  }

  /** The next usable row, or null once the run has no more. */
  async next(): Promise<RowScores | null> {
    while (!this.done) {
      let step: IteratorResult<unknown>;
      try {
        step = await this.iterator.next();
      } catch (error) {
        this.done = true; // a source that threw is finished: it is not closed, as `for await` does not
        throw error;
      }
      if (step.done) {
        this.done = true;
        break;
      }
      this.position++;
      if (++this.read.rows % PROGRESS_EVERY === 0) await progressed(this.opts, this.read.rows);
      const outcome = scoresOf(step.value as RowOutcome | RowScores, this.where, this.warnings);
      const row = outcome && checkRow(outcome, this.where, this.seen, this.warnings);
      if (!outcome || row === null) continue;
      this.rows++;
      this.seen.set(row);
      for (const name in outcome.scores) this.names.add(name);
      return outcome;
    }
    return null;
  }

  /** Where the row last read is, for a warning: `NAME:LINE` when the run tells its rows' lines, else its place among the rows. */
  private readonly where = (): string => {
    const line = this.run.line?.();
    return line === undefined ? `Run "${this.run.name}", outcome #${this.position}` : `${this.run.name}:${line}`;
  };

  /** Lets a source not read to its end close (not one that ended, or threw). */
  async close(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.iterator.return?.();
  }
}

/** Tells {@link CompareOptions.onProgress} the rows read, and lets a listener stop the comparison ({@link turned}). */
async function progressed(opts: CompareOptions, rows: number): Promise<void> {
  opts.onProgress?.(rows);
  await turned(opts.signal);
}

/**
 * Lets the event loop turn (rows read from a synchronous source never do, nor do the figures), so that a
 * listener can abort `signal` (a Ctrl-C handler) and a server's other requests are served meanwhile, and
 * throws once `signal` is aborted.
 */
export async function turned(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => nextTurn(resolve));
  signal?.throwIfAborted();
}

/** Runs `f` on a later turn of the event loop (setImmediate where there is one: setTimeout waits a millisecond in Node). */
const nextTurn: (f: () => void) => unknown = typeof setImmediate === "function" ? setImmediate : (f) => setTimeout(f, 0);

/** A row's scores, or null, with a warning, when it is not an object (a `null` in the rows threw a TypeError). */
function scoresOf(row: RowOutcome | RowScores, where: () => string, warnings: Warnings): RowScores | null {
  if (typeof row !== "object" || row === null) {
    warnings.add(`${where()}: expected a row outcome ({ row, id, results } or { row, id, scores }) but received ${describeValue(row)}; this outcome was left out.`);
    return null;
  }
  return "scores" in row ? row : scoresOfOutcome(row);
}

/** The row number, or null (with a warning) when it is not a usable row number or was seen before. */
function checkRow(outcome: RowScores, where: () => string, seen: SeenRows, warnings: Warnings): number | null {
  const row: unknown = outcome.row;
  if (typeof row !== "number" || !Number.isSafeInteger(row) || row < 1 || row > MAX_ROW) {
    warnings.add(`${where()}: the row number must be an integer from 1 to ${MAX_ROW} but is ${describeValue(row)}; this outcome was left out.`);
    return null;
  }
  if (seen.has(row)) {
    warnings.add(`${where()}: row ${row} appears more than once; the first was kept and this one left out.`);
    return null;
  }
  return row;
}

/** One bit of "seen" per row number, growing as needed. */
class SeenRows {
  private bits = new Uint32Array(1024);

  has(row: number): boolean {
    const word = row >>> 5;
    return word < this.bits.length && ((this.bits[word] as number) & (1 << (row & 31))) !== 0;
  }

  set(row: number): void {
    const word = row >>> 5;
    if (word >= this.bits.length) {
      let size = this.bits.length * 2;
      while (size <= word) size *= 2;
      const next = new Uint32Array(size);
      next.set(this.bits);
      this.bits = next;
    }
    this.bits[word] = (this.bits[word] as number) | (1 << (row & 31));
  }
}

export class Warnings {
  private readonly messages: string[] = [];
  private more = 0;

  add(message: string): void {
    if (this.messages.length < MAX_WARNINGS) this.messages.push(message);
    else this.more++;
  }

  /** The warnings of each list in turn: the first {@link MAX_WARNINGS} of them, then how many more there were. */
  static list(...lists: Warnings[]): string[] {
    const all = lists.flatMap((w) => w.messages);
    const more = lists.reduce((n, w) => n + w.more, 0) + Math.max(0, all.length - MAX_WARNINGS);
    const kept = all.slice(0, MAX_WARNINGS);
    return more ? [...kept, `…and ${more} more such warnings.`] : kept;
  }
}
