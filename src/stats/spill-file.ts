/**
 * One temporary file that score sets append their spilled scores to, chunk by chunk: the sets of a run
 * share it, so that a run holds one file descriptor whatever its evaluator count (one file per set hit
 * the limit of open files, 256 by default on macOS, at a config of about 250 evaluators).
 */
import { closeSync, openSync, readSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { EvalError } from "../errors.js";
import { writeFully } from "../write-fully.js";

export class SpillFile {
  private fd: number | null = null;
  private path = "";
  /** False once the file was unlinked while open (POSIX), so nothing is left behind even on a crash. */
  private linked = false;
  private size = 0;

  /** The file is made in `dir` when the first chunk is appended, and not at all when nothing is. */
  constructor(private readonly dir: string) {}

  /** Appends `bytes` at the end of the file and returns the byte offset they start at. */
  append(bytes: Uint8Array): number {
    const offset = this.size;
    writeFully(this.open(), bytes, offset);
    this.size += bytes.length;
    return offset;
  }

  /** Fills `bytes` from the file, from byte `offset` on. */
  read(offset: number, bytes: Uint8Array): void {
    if (this.fd === null) throw new EvalError("STORE_FAILED", "The run's temporary score file was read after it was closed");
    let read = 0;
    while (read < bytes.length) {
      const r = readSync(this.fd, bytes, read, bytes.length - read, offset + read);
      if (r === 0) throw new EvalError("STORE_FAILED", `The run's temporary score file ${this.path} ended early`);
      read += r;
    }
  }

  /** Closes and deletes the file, if it was made; appending afterwards makes a new one. */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null; // closed once, even if the unlink below throws
    this.size = 0;
    closeSync(fd);
    if (this.linked) unlinkSync(this.path);
  }

  private open(): number {
    if (this.fd !== null) return this.fd;
    const path = join(this.dir, `simeval-scores-${process.pid}-${randomBytes(6).toString("hex")}.f64`);
    let fd: number;
    try {
      fd = openSync(path, "w+", 0o600);
    } catch (error) {
      throw new EvalError("STORE_FAILED", `Cannot keep the run's scores in a temporary file at ${path}: ${(error as Error).message}`);
    }
    this.path = path;
    this.linked = true;
    try {
      unlinkSync(path);
      this.linked = false;
    } catch {
      // Windows cannot unlink an open file; close() does it.
    }
    this.fd = fd;
    return fd;
  }
}
