/** The stop reason that `simeval abort` records when no `--reason` is given (in a file of its own: `--help` says it without loading the command). */
export const ABORT_REASON = "aborted with simeval abort";
