/** Where the CLI keeps its runs, relative to the working directory (a module of its own: `--help` gives it without loading SQLite). */
export const DEFAULT_STORE_PATH = ".simeval/simeval.db";
