import { accessSync, closeSync, fstatSync, constants, createWriteStream, fchmodSync, ftruncateSync, lstatSync, open, mkdtempSync, openSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, type Stats, type WriteStream } from "node:fs";
import { statIfAny } from "./stat-if-any.js";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import { once } from "node:events";
import { isatty } from "node:tty";
import { EvalError } from "../errors.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import { makeFolder } from "../make-folder.js";
import { systemPath } from "../system-path.js";
import { writeFully } from "../write-fully.js";
import { forTerminalLine } from "./format.js";
import type { CliIO } from "./io.js";
import type { Progress } from "./progress.js";
import { removedIfStoppedAtOnce, sayInterrupted, type Interrupts } from "./stop-signals.js";

/**
 * Error codes that say the path itself cannot be written (missing or file parent, a folder, no permission, a
 * read-only file system, a bad name): the user's argument, to be given again (`USAGE`, exit 2).
 */
const PATH_ERRORS = new Set(["ENOENT", "ENOTDIR", "EISDIR", "EEXIST", "EACCES", "EPERM", "EROFS", "ENAMETOOLONG", "ELOOP", "EINVAL"]);

/**
 * A failure to write the output file `path` (given by `flag`) as an EvalError naming both: `USAGE` when
 * the path is wrong (see {@link PATH_ERRORS}), else `OUTPUT_FAILED` (exit 3): a full disk (ENOSPC), a quota
 * (EDQUOT), an I/O error (EIO) happen to a right path, and the same command may succeed once they are fixed.
 * With `earlier`, the path still holds a file written before, which the message says, so that it is not
 * taken for this command's (a CI system reading an earlier junit.xml).
 */
function writeFailure(flag: string, path: string, error: unknown, earlier = false): EvalError {
  const note = earlier ? earlierFileNote(path) : "";
  if (error instanceof EvalError) return earlier ? new EvalError(error.code, `${error.message}${note}`, { issues: error.issues, cause: error }) : error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new EvalError(code !== undefined && PATH_ERRORS.has(code) ? "USAGE" : "OUTPUT_FAILED", `${flag} ${path}: cannot write (${message})${note}`, { cause: error });
}

/** Said of an output path that was not written and holds a file written before, so that the file is not taken for this command's. */
function earlierFileNote(path: string): string {
  return `; the file at ${path} is from an earlier run, left as it was`;
}

/**
 * `error` with {@link earlierFileNote} added for each of `paths` (outputs not written) that holds an earlier file
 * ({@link holdsEarlierFile}, as writeWhole says of a file it failed to replace), when it is a runtime failure (exit 3: a full disk under --out, the run database failing): the run stopped before
 * writing them, and an earlier run's --summary or --junit left there reads as this run's to a CI system that reads
 * only the file. Any other error is given back as it is.
 */
export function notingEarlierFiles(error: unknown, paths: readonly (string | undefined)[]): unknown {
  if (!(error instanceof EvalError) || exitCodeFor(error.code) !== EXIT.runtime) return error;
  const notes = paths.filter((p): p is string => p !== undefined && holdsEarlierFile(p)).map(earlierFileNote);
  return notes.length ? new EvalError(error.code, `${error.message}${notes.join("")}`, { issues: error.issues, cause: error }) : error;
}

/** Paths that name a descriptor of this process: `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N`, `/proc/self/fd/N`. */
const OWN_DESCRIPTOR = /^\/(?:dev\/(?:(stdout)|(stderr)|fd\/(\d+))|proc\/self\/fd\/(\d+))$/;

/**
 * Whether `path` names one of this process's descriptors ({@link OWN_DESCRIPTOR}): a file written there goes to
 * standard output or error, among what is printed, so that a line naming it (`Report: /dev/stdout`) says nothing.
 */
export function namesOwnDescriptor(path: string): boolean {
  return ownDescriptorMatch(path) !== null;
}

/** {@link OWN_DESCRIPTOR}'s match of `path` resolved (null on Windows, which has no such paths). */
function ownDescriptorMatch(path: string): RegExpExecArray | null {
  return process.platform === "win32" ? null : OWN_DESCRIPTOR.exec(resolve(path));
}

/**
 * The descriptor that `path` names when it is one of this process's ({@link OWN_DESCRIPTOR}) open on a regular
 * file, as standard output is in `simeval run … --out /dev/stdout > all.txt`; else undefined. Such a file is
 * written through that descriptor: opened anew, it would be written from its start, over what was printed
 * before (the summary table), and what is printed later would be written over it, from the descriptor's own
 * place in the file. Pipes and terminals have no place: they are opened anew.
 */
function sharedDescriptor(path: string): number | undefined {
  const m = ownDescriptorMatch(path);
  if (!m) return undefined;
  const fd = m[1] ? 1 : m[2] ? 2 : Number(m[3] ?? m[4]);
  try {
    return fstatSync(fd).isFile() ? fd : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a whole file ({@link writeWhole}), creating its folder; a failure names the path and the flag it came from ({@link writeFailure}). */
export function writeOutput(flag: string, path: string, text: string): Promise<void> {
  return writeWhole(flag, path, (file) => {
    writeFully(file.open(), text);
  });
}

/**
 * Writes a command's `--report` (`html`, drawn already) to `path` and says "Report: PATH" (not of `/dev/stdout`
 * and the like, {@link namesOwnDescriptor}), while `stop` hears
 * Ctrl-C and SIGTERM: a signal that came while the report was drawn (the loop did not turn meanwhile) leaves the
 * path as it was; one that came while it was written is heard once the file is whole and in place, so that no
 * temporary file is left beside it. Either is said ({@link sayInterrupted}) and its exit code returned; undefined
 * when no signal came. "Report: PATH" goes on stdout, or on stderr when `stdoutIsJson` (a command's `--json`, whose
 * stdout holds one JSON document and nothing else).
 */
export async function writeReportHearingStops(path: string, html: string, stop: Interrupts, progress: Progress, io: CliIO, stdoutIsJson = false): Promise<number | undefined> {
  await new Promise(setImmediate);
  if (stop.signal.aborted) return sayInterrupted(stop, progress, `${forTerminalLine(path)} not written`);
  await writeOutput("--report", path, html);
  if (!namesOwnDescriptor(path)) (stdoutIsJson ? io.stderr : io.stdout)(`Report: ${forTerminalLine(path)}`);
  await new Promise(setImmediate);
  if (stop.signal.aborted) return sayInterrupted(stop, progress, `${forTerminalLine(path)} was written whole all the same (the signal came while it was written)`);
  return undefined;
}

/** What {@link writeWhole} gives the function that writes the file. */
interface WholeFile {
  /** Opens the file to write (once: later calls give the same descriptor), which writeWhole closes. */
  open(): number;
  /**
   * A path for a scratch file of the writer's own (`name` tells them apart), on the file's disk: beside it, named after
   * it; in the system's temporary folder when it is written in place. writeWhole removes it, if the writer has not.
   */
  scratch(name: string): string;
}

/**
 * Writes the output file `path` whole or not at all, so that a failure (a disk that fills, rows that cannot be read
 * back) leaves neither a file cut short nor, unsaid, an earlier run's file there: `write` writes a temporary file beside
 * it, opened when `write` calls `open()` (after its slow part, so that a process killed meanwhile leaves nothing),
 * renamed onto the path once `write` returns; a second Ctrl-C, which stops the process at once, removes the temporary and
 * scratch files first ({@link removedIfStoppedAtOnce}), where a process killed outright (SIGKILL) while `write` writes leaves them. A symlink's file is the one replaced (a rename onto the link would
 * replace the link); a path that is there and is not a regular file (a FIFO, a device) is written in place: a
 * rename would replace the pipe or device with a file; so is /dev/stdout on a file, through that descriptor
 * ({@link sharedDescriptor}). A failure is {@link writeFailure}'s, and says when
 * the path still holds an earlier file; the temporary and scratch files are removed whatever happens.
 */
export async function writeWhole(flag: string, path: string, write: (file: WholeFile) => void | Promise<void>): Promise<void> {
  const { target, inPlace, shared } = outputTarget(path);
  // Unique (two runs may write the same path at once), and short enough beside a name of 255 bytes.
  const stem = join(dirname(target), `.${basename(target).slice(0, 64)}.${randomBytes(4).toString("hex")}`);
  const temp = `${stem}.tmp`;
  const scratches = new Set<string>();
  let scratchFolder: string | undefined;
  let fd: number | undefined;
  // A second Ctrl-C stops the process at once: the files not finished are removed first.
  const unregister = inPlace ? [] : [removedIfStoppedAtOnce(temp)];
  const open = () => (fd ??= shared ?? openSync(inPlace ? path : temp, inPlace ? "w" : "wx"));
  try {
    if (!inPlace) makeFolder(dirname(target));
    await write({
      open,
      scratch(name) {
        if (inPlace && scratchFolder === undefined) unregister.push(removedIfStoppedAtOnce((scratchFolder = mkdtempSync(join(tmpdir(), "simeval-")))));
        const file = inPlace ? join(scratchFolder as string, name) : `${stem}.${name}`;
        if (!inPlace) unregister.push(removedIfStoppedAtOnce(file));
        scratches.add(file);
        return file;
      },
    });
    const opened = open();
    // The file replaced keeps its permissions (a summary.json readable by its owner only stays so).
    const earlier = inPlace ? undefined : fileStat(target);
    if (earlier) fchmodSync(opened, earlier.mode & 0o7777);
    // Closed before the rename: a close that fails (NFS reports a full disk there) is a file not whole.
    fd = undefined;
    // A shared descriptor (standard output) stays open for what is printed after.
    if (opened !== shared) closeSync(opened);
    if (!inPlace) renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined && fd !== shared) closeQuietly(fd);
    if (!inPlace) removeQuietly(temp);
    throw writeFailure(flag, path, error, holdsEarlierFile(path));
  } finally {
    for (const file of scratches) removeQuietly(file);
    if (scratchFolder) removeQuietly(scratchFolder);
    for (const done of unregister) done();
  }
}

/**
 * Where {@link writeWhole} writes `path`: `target`, the file a symlink names (or the path itself), and
 * `inPlace` when the path is there and is not a regular file, or is `shared`, a descriptor of this process
 * open on a file ({@link sharedDescriptor}).
 */
function outputTarget(path: string): { target: string; inPlace: boolean; shared: number | undefined } {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // Not there yet, or a link to a file not there yet.
    try {
      if (lstatSync(path).isSymbolicLink()) target = resolve(dirname(path), readlinkSync(path));
    } catch {
      // not there
    }
  }
  // Asked of `path`, not of `target`: /dev/stdout on a pipe is a link to "pipe:[N]", which realpath
  // gives as a path that does not exist, where `path` opens the pipe itself.
  const shared = sharedDescriptor(path);
  let inPlace = shared !== undefined;
  try {
    inPlace ||= !statSync(path).isFile();
  } catch {
    // not there yet: written beside, then renamed
  }
  return { target, inPlace, shared };
}

/**
 * Whether `path` holds a regular file that {@link writeWhole} would replace, hence one from an earlier run while it
 * has not: not a descriptor of this process (`/dev/stdout > s.json`, the shell's file), a FIFO or a device, which are
 * written in place.
 */
function holdsEarlierFile(path: string): boolean {
  const { target, inPlace } = outputTarget(path);
  return !inPlace && fileStat(target) !== undefined;
}

/** Cleaning up after a failure that is being reported, or after the file is in place: a failure here must not hide that. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // left behind; the outcome stands
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // the failure being reported stands
  }
}

function fileStat(path: string): Stats | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A file written as a stream that honours back-pressure, so that a million rows never pile up in memory.
 * A failure to open, write or close it is thrown as {@link writeFailure} says.
 */
interface TextFile {
  /**
   * Writes `chunk`, settling once it is written (the stream's write callback), so that the caller may then
   * write over its bytes (runDataset hands them back to be reused) and nothing piles up.
   */
  write(chunk: string | Uint8Array): Promise<void>;
  /**
   * Flushes the last writes and closes the file; it settles once the file is closed, rejecting when the
   * file is not whole (a write failed, the last ones or the close itself). Called again, it gives the same outcome.
   */
  close(): Promise<void>;
  /**
   * Empties the file, once (the first write does it too): a file that is there is opened as it is, so that a run
   * refused before its first row (a dataset missing, empty or not in the format its name says) leaves the
   * earlier run's results in it. A run that ends without a row written calls it, so that the file is this run's.
   */
  begin(): void;
  /**
   * The file still holds what was there before it was opened (not empty, and not emptied yet): said of it by a run
   * that stops with an error before its first row ({@link notingEarlierFiles}), as of an earlier --summary.
   */
  readonly earlier: boolean;
  /** The file is a terminal (`--out /dev/stdout` or `/dev/tty` on one): what is written shows on screen. */
  readonly terminal: boolean;
}

/**
 * Opens `path` to write as a {@link TextFile}, creating it and its folder, but emptying a file that is there only
 * once the first write comes ({@link TextFile.begin}); a failure to open it is {@link writeFailure}'s.
 */
export async function openTextFile(flag: string, path: string): Promise<TextFile> {
  let stream: WriteStream;
  let shared = false;
  let terminal = false;
  // A regular file opened anew that holds something, to be emptied before its first write.
  let toEmpty: number | undefined;
  try {
    makeFolder(dirname(path));
    const own = sharedDescriptor(path);
    shared = own !== undefined;
    // Not "w", whose O_TRUNC would empty the file before the dataset is known to be one that can be run.
    const fd =
      own ??
      (await new Promise<number>((resolve, reject) => open(path, constants.O_WRONLY | constants.O_CREAT, 0o666, (error, fd) => (error ? reject(error) : resolve(fd)))));
    stream = createWriteStream("", { fd, autoClose: !shared });
    if (!shared) {
      terminal = isatty(fd);
      const st = fstatSync(fd);
      if (st.isFile() && st.size > 0) toEmpty = fd;
    }
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
  const begin = () => {
    if (toEmpty !== undefined && !failure) {
      try {
        ftruncateSync(toEmpty, 0);
      } catch (error) {
        fail(error);
      }
      toEmpty = undefined;
    }
    if (failure) throw failure;
  };
  return {
    terminal,
    get earlier() {
      return toEmpty !== undefined;
    },
    begin,
    async write(chunk) {
      begin();
      const written = new Promise<void>((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve())));
      await Promise.race([written, failed]).catch((error: unknown) => {
        throw fail(error);
      });
    },
    close() {
      // Until "close", not "finish": the descriptor is closed after "finish", and a failure to close it (as NFS
      // reports a full disk or a lost server) leaves a file not whole, as a failed write does. A shared
      // descriptor (standard output) stays open: until "finish".
      return (closed ??= (async () => {
        if (failure) throw failure;
        stream.end();
        await until(shared ? "finish" : "close");
      })());
    },
  };
}

/** A file the command reads or writes, and the flag (or argument) that named it. */
interface NamedPath {
  flag: string;
  path: string;
  /** Written as a stream into the file itself (`--out`), rather than whole ({@link writeWhole}); an output only. */
  streamed?: boolean;
}

/** The files SQLite keeps beside a database, by suffix, with what each is, for a message. */
const DATABASE_SIDE_FILES = [
  ["-wal", "write-ahead log"],
  ["-shm", "shared-memory index"],
  ["-journal", "rollback journal"],
] as const;

/**
 * The run database `--db` and the files SQLite keeps beside it, as inputs for {@link checkOutputPaths}:
 * an output written over `DB-wal` truncates the changes not yet copied into the database, and SQLite then
 * copies the output's bytes into it as pages, so that every recorded run is lost. Beside the file a
 * symbolic link leads to as well, where SQLite keeps them.
 */
export function databaseInputs(db: string): NamedPath[] {
  const files = [db];
  try {
    const real = realpathSync(db);
    if (real !== resolve(db)) files.push(real);
  } catch {
    // Not made yet: its side files, if any come, are beside the path given.
  }
  return [{ flag: "--db", path: db }, ...files.flatMap((file) => DATABASE_SIDE_FILES.map(([suffix, what]) => ({ flag: `--db's ${what}`, path: `${file}${suffix}` })))];
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
    if (statIfAny(out.path)?.isDirectory()) throw new EvalError("USAGE", `${out.flag} ${out.path} is a folder; give the path of a file to write, such as ${join(out.path, defaultName(out.flag))}`);
    // --summary, --report and --junit are written once the run is over: a path that cannot be, found now.
    const unwritable = cannotWrite(out.path, out.streamed !== true);
    if (unwritable !== undefined) throw new EvalError("USAGE", `${out.flag} ${out.path}: cannot write (${unwritable}); give a path where a file can be written`);
    const key = identity(out.path);
    const earlier = seen.get(key);
    if (earlier) {
      const why = inputs.includes(earlier) ? "an input, which writing would destroy" : "one output would overwrite the other";
      throw new EvalError("USAGE", `${out.flag} ${out.path} is the same file as ${earlier.flag} (${why}); give each output a file of its own`);
    }
    seen.set(key, out);
  }
  refuseNested([...inputs, ...outputs], outputs);
}

/**
 * Refuses an output under another path the command names, or a path under an output (`--out r.jsonl
 * --summary r.jsonl/s.json`, `--db runs.db --out runs.db/r.jsonl`): one is written as a file, so the other
 * cannot be in it as in a folder. When neither exists yet, this was found only once written: after the run,
 * which went on to the end (or after the database was made) to fail then.
 */
function refuseNested(paths: readonly NamedPath[], outputs: readonly NamedPath[]): void {
  for (const inner of paths) {
    for (const outer of paths) {
      if (!outputs.includes(inner) && !outputs.includes(outer)) continue;
      if (!resolve(inner.path).startsWith(`${resolve(outer.path)}${sep}`)) continue;
      throw new EvalError("USAGE", `${inner.flag} ${inner.path} is under ${outer.flag} ${outer.path}, which is a file, not a folder; give each a path of its own`);
    }
  }
}

/**
 * Why `path` could not be written, or undefined when it seems it could: it must be a writable file, or
 * not exist under folders that do or can (the nearest one that exists writable, and no parent a file).
 * A regular file written `whole` is replaced by one written beside it: its folder must be writable too.
 */
function cannotWrite(path: string, whole: boolean): string | undefined {
  const target = systemPath(path);
  if (typeof target !== "string") return target.error;
  let at = target;
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
    if (at !== target && !st.isDirectory()) return `${at} is a file, not a folder`;
    try {
      accessSync(at, constants.W_OK);
    } catch (error) {
      return (error as Error).message;
    }
    if (whole && at === target && st.isFile()) {
      try {
        accessSync(dirname(realpathSync(at)), constants.W_OK);
      } catch (error) {
        return `${(error as Error).message}: the file is replaced by one written beside it, in a folder that must be writable`;
      }
    }
    return undefined;
  }
}

/** A file name to suggest for an output flag: `--report` → report.html. */
function defaultName(flag: string): string {
  const name = flag.replace(/^-+/, "");
  return `${name}${{ out: ".jsonl", summary: ".json", report: ".html", junit: ".xml" }[name] ?? ""}`;
}
