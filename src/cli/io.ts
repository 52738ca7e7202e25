/** Where commands write; injected so that tests can run commands in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIO: CliIO = {
  stdout: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  stderr: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
};
