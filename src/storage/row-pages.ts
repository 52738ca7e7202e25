/**
 * The size of the pages in which the run store reads a run's rows: fewer rows a page as they grow wider, so that a
 * run of many evaluators, or of large records, is read without holding hundreds of MB at once.
 */

/** Most rows read per query by {@link SqliteRunStore.rows} and {@link SqliteRunStore.scores}. */
export const PAGE_ROWS = 1_000;

/** Rows of the first page, whose width is not known yet: 100 rows of 200 evaluators' results are about 40 MB. */
export const FIRST_PAGE_ROWS = 100;

/**
 * Characters of stored text a page aims at (2 Mi: 2 MiB as V8 holds Latin-1 text, twice that when a string
 * holds any other character), and several times that once parsed. A row's results grow with the evaluators:
 * 1,000 rows of a 200-evaluator config are about 97 million characters, which held the read of `--junit` at
 * 400 MB of heap where 20 evaluators took 40 MB. Short rows (4 evaluators, about 1,700 characters) still come
 * {@link PAGE_ROWS} at a time; 8 Mi held about 60 MB more at 200 evaluators and was no faster.
 */
const PAGE_CHARS = 2 * 2 ** 20;

/**
 * Results (rows × evaluators) a page of whole rows holds at most, whatever the last page's width: a run
 * whose first rows are narrow (failed, say) and later ones wide would otherwise read 1,000 wide rows at once,
 * about 400 MB of heap at 200 evaluators.
 */
const PAGE_RESULTS = 4_000;

/** The most rows a page of a run with `evaluators` evaluators holds: {@link PAGE_ROWS} up to 4, 20 at 200. */
export function rowsForResults(evaluators: number): number {
  return Math.max(1, Math.min(PAGE_ROWS, Math.floor(PAGE_RESULTS / Math.max(1, evaluators))));
}

/**
 * The rows to ask for in the next page, given the rows and the characters of stored text the last page
 * held: as many as {@link PAGE_CHARS} holds at that width, from 1 to {@link PAGE_ROWS}.
 */
export function nextPageRows(rows: number, chars: number): number {
  if (rows <= 0 || chars <= 0) return PAGE_ROWS;
  return Math.max(1, Math.min(PAGE_ROWS, Math.floor((rows * PAGE_CHARS) / chars)));
}
