import { EXIT } from "./exit-codes.js";

/** Where commands write; injected so that tests can run commands in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The width of the terminal that stdout is, in columns; undefined when stdout is not a terminal, 0 when it does not say. */
  readonly columns?: number | undefined;
}

/** Why standard output or error could not be written (other than its reader going away), once one could not. */
let failure: string | undefined;

/** Set when standard output or error failed (a full disk, an I/O error): the command's exit code is then 3. */
export function outputFailure(): string | undefined {
  return failure;
}

/**
 * Writes a line to `stream` until its reader goes away. When it does (`simeval runs | head -1`), the
 * command goes on without printing, so that a run is still recorded whole and its exit code still
 * says whether its gates passed, instead of dying on an EPIPE stack trace. Any other failure (`> file`
 * on a full disk) stops the printing too, is said on `report` when that is another stream, and makes the
 * exit code 3 (a runtime failure), rather than a stack trace and exit code 1 (which says a gate failed).
 */
export function lineWriter(stream: NodeJS.WritableStream, name: string, report?: NodeJS.WritableStream): (text: string) => void {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code === "EPIPE") return;
    if (failure === undefined) {
      failure = `cannot write to standard ${name} (${error.message})`;
      if (report !== undefined && report !== stream) report.write(`simeval: ${failure}\n`);
    }
    process.exitCode = EXIT.runtime;
  });
  return (text) => {
    if (!closed) stream.write(text.endsWith("\n") ? text : `${text}\n`);
  };
}

/**
 * The prefix of every warning a command prints on standard error: something the user should know that does not make
 * the command fail (errors are `simeval: MESSAGE`; `compare`'s text prints its warnings among its lines on stdout as
 * `warning: MESSAGE`), so that a search of a CI log for "warning" finds every one.
 */
const WARNING_PREFIX = "simeval: warning: ";

/** Prints `text` on `io`'s standard error as a warning (see {@link WARNING_PREFIX}). */
export function warn(io: Pick<CliIO, "stderr">, text: string): void {
  io.stderr(`${WARNING_PREFIX}${text}`);
}

export const processIO: CliIO = {
  stdout: lineWriter(process.stdout, "output", process.stderr),
  stderr: lineWriter(process.stderr, "error"),
  get columns() {
    return process.stdout.isTTY ? process.stdout.columns : undefined;
  },
};
