import { accessSync, constants, createWriteStream, statSync, writeFileSync, type WriteStream } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { once } from "node:events";
import { EvalError } from "../errors.js";
import { makeFolder } from "../make-folder.js";

/**
 * Error codes that say the path itself cannot be written (missing or file parent, a folder, no permission, a
 * read-only file system, a bad name): the user's argument, to be given again (`USAGE`, exit 2).
 */
const PATH_ERRORS = new Set(["ENOENT", "ENOTDIR", "EISDIR", "EEXIST", "EACCES", "EPERM", "EROFS", "ENAMETOOLONG", "ELOOP", "EINVAL"]);

/**
 * A failure to write the output file `path` (given by `flag`) as an EvalError naming both: `USAGE` when
 * the path is wrong (see {@link PATH_ERRORS}), else `OUTPUT_FAILED` (exit 3): a full disk (ENOSPC), a quota
 * (EDQUOT), an I/O error (EIO) happen to a right path, and the same command may succeed once they are fixed.
 */
export function writeFailure(flag: string, path: string, error: unknown): EvalError {
  if (error instanceof EvalError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new EvalError(code !== undefined && PATH_ERRORS.has(code) ? "USAGE" : "OUTPUT_FAILED", `${flag} ${path}: cannot write (${message})`, { cause: error });
}

/** Writes a whole file, creating its folder; a failure names the path and the flag it came from ({@link writeFailure}). */
export function writeOutput(flag: string, path: string, text: string): void {
  try {
    makeFolder(dirname(path));
    writeFileSync(path, text);
  } catch (error) {
    throw writeFailure(flag, path, error);
  }
}

/**
 * A file written as a stream that honours back-pressure, so that a million rows never pile up in memory.
 * A failure to open, write or close it is thrown as {@link writeFailure} says.
 */
export interface TextFile {
  write(chunk: string | Uint8Array): void | Promise<void>;
  /**
   * Flushes the last writes and closes the file; it settles once the file is closed, rejecting when the
   * file is not whole (a write failed, the last ones or the close itself). Called again, it gives the same outcome.
   */
  close(): Promise<void>;
}

export async function openTextFile(flag: string, path: string): Promise<TextFile> {
  let stream: WriteStream;
  try {
    makeFolder(dirname(path));
    stream = createWriteStream(path);
    await once(stream, "open");
  } catch (error) {
    throw writeFailure(flag, path, error);
  }
  // A write fails later than the call that made it (a disk that fills): the error is kept, from a listener
  // that is always there (without one it would crash the process), and given to the next write or close.
  // A stream that failed is destroyed and never emits "drain" or "finish": waiting races the failure.
  let failure: EvalError | undefined;
  const fail = (error: unknown) => (failure ??= writeFailure(flag, path, error));
  const failed = new Promise<never>((_, reject) => stream.on("error", (error) => reject(fail(error))));
  failed.catch(() => undefined);
  const until = (event: string) =>
    Promise.race([once(stream, event), failed]).then(
      () => undefined,
      (error: unknown) => {
        throw fail(error);
      },
    );
  let closed: Promise<void> | undefined;
  return {
    write(chunk) {
      if (failure) throw failure;
      if (!stream.write(chunk)) return until("drain");
    },
    close() {
      // Until "close", not "finish": the descriptor is closed after "finish", and a failure to close it (as NFS
      // reports a full disk or a lost server) leaves a file not whole, as a failed write does.
      return (closed ??= (async () => {
        if (failure) throw failure;
        stream.end();
        await until("close");
      })());
    },
  };
}

/** A file the command reads or writes, and the flag (or argument) that named it. */
export interface NamedPath {
  flag: string;
  path: string;
}

/**
 * Refuses, before anything is opened, an output that is one of the inputs (writing it would destroy
 * the input) or that two flags share (one would overwrite the other). Existing files are compared by
 * identity (device and inode), so a symlink or another spelling of the same path is caught too. An
 * output that is a folder is refused too.
 */
export function checkOutputPaths(inputs: readonly NamedPath[], outputs: readonly NamedPath[]): void {
  const identity = (path: string) => {
    try {
      const st = statSync(path);
      return `${st.dev}:${st.ino}`;
    } catch {
      return resolve(path);
    }
  };
  const seen = new Map<string, NamedPath>(inputs.map((p) => [identity(p.path), p]));
  for (const out of outputs) {
    // A folder would be found only once the run is over, when the file is written.
    if (isFolder(out.path)) throw new EvalError("USAGE", `${out.flag} ${out.path} is a folder; give the path of a file to write, such as ${join(out.path, defaultName(out.flag))}`);
    // --summary, --report and --junit are written once the run is over: a path that cannot be, found now.
    const unwritable = cannotWrite(out.path);
    if (unwritable !== undefined) throw new EvalError("USAGE", `${out.flag} ${out.path}: cannot write (${unwritable}); give a path where a file can be written`);
    const key = identity(out.path);
    const earlier = seen.get(key);
    if (earlier) {
      const why = inputs.includes(earlier) ? "an input, which writing would destroy" : "one output would overwrite the other";
      throw new EvalError("USAGE", `${out.flag} ${out.path} is the same file as ${earlier.flag} (${why}); give each output a file of its own`);
    }
    seen.set(key, out);
  }
}

/**
 * Why `path` could not be written, or undefined when it seems it could: it must be a writable file, or
 * not exist under folders that do or can (the nearest one that exists writable, and no parent a file).
 */
function cannotWrite(path: string): string | undefined {
  let at = resolve(path);
  for (;;) {
    let st;
    try {
      st = statSync(at);
    } catch {
      const parent = dirname(at);
      if (parent === at) return undefined;
      at = parent;
      continue;
    }
    if (at !== resolve(path) && !st.isDirectory()) return `${at} is a file, not a folder`;
    try {
      accessSync(at, constants.W_OK);
    } catch (error) {
      return (error as Error).message;
    }
    return undefined;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A file name to suggest for an output flag: `--report` → report.html. */
function defaultName(flag: string): string {
  const name = flag.replace(/^-+/, "");
  return `${name}${{ out: ".jsonl", summary: ".json", report: ".html", junit: ".xml" }[name] ?? ""}`;
}
