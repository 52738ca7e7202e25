/** Where commands write; injected so that tests can run commands in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Writes a line to `stream` until its reader goes away. When it does (`simeval runs | head -1`), the
 * command goes on without printing, so that a run is still recorded whole and its exit code still
 * says whether its gates passed, instead of dying on an EPIPE stack trace.
 */
function lineWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text.endsWith("\n") ? text : `${text}\n`);
  };
}

export const processIO: CliIO = { stdout: lineWriter(process.stdout), stderr: lineWriter(process.stderr) };
