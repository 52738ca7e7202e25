import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { EvalError, type ErrorCode } from "../errors.js";
import { openSqliteStore } from "../storage/sqlite.js";

/**
 * {@link SqliteRunStore.vacuum} on the database at `path`, in a child process: VACUUM rewrites the whole
 * file in one call that blocks its thread to the end (56 s for a 7.5 GB file), and neither a signal handler
 * nor a worker thread can stop it there. Out of process, this one stays free to show that it is working,
 * and `signal` (Ctrl-C) kills the child: its VACUUM is one transaction, never committed, so the file is as
 * it was. Resolves to `shrunk` (false when another process was reading: see {@link SqliteRunStore.vacuum}),
 * or `abandoned` once the child is gone after `signal` (unless it had finished: then what it did). The child's failure is thrown as the EvalError it was.
 * Abandoned, the database is opened and closed once more: the killed child left its write-ahead log
 * (`PATH-wal`, as large as the part of the file it had rewritten, up to the whole file), which closing the
 * last connection removes (checkpointing it first when the child was killed after its VACUUM committed: the
 * file is then vacuumed after all).
 */
export async function vacuumInChild(path: string, signal: AbortSignal): Promise<{ shrunk: boolean } | "abandoned"> {
  if (signal.aborted) return "abandoned";
  // From dist the child is plain JavaScript; from source (tests, `tsx`) it is TypeScript, run through tsx.
  const own = import.meta.url;
  const script = fileURLToPath(new URL(own.endsWith(".ts") ? "./vacuum-child.ts" : "./vacuum-child.js", own));
  const child = spawn(process.execPath, [...(own.endsWith(".ts") ? ["--import", "tsx"] : []), script, path], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const kill = () => void child.kill("SIGKILL");
  signal.addEventListener("abort", kill, { once: true });
  try {
    const ended = await new Promise<{ code: number | null; killedBy: NodeJS.Signals | null }>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code, killedBy) => resolve({ code, killedBy }));
    });
    // The child's answer first: a signal that came as it finished found the file vacuumed.
    const answer = lastJsonLine(out);
    if (answer && typeof answer.shrunk === "boolean") return { shrunk: answer.shrunk };
    if (signal.aborted) {
      dropLeftLog(path);
      return "abandoned";
    }
    if (answer?.error) throw new EvalError(answer.error.code, answer.error.message);
    const how = ended.killedBy ? `was killed (${ended.killedBy})` : `exited with code ${ended.code}`;
    throw new EvalError("STORE_FAILED", `${path}: could not vacuum the database: the process vacuuming it ${how} before it finished (the file is as it was)${err.trim() ? `: ${err.trim().split("\n").slice(-3).join(" ")}` : ""}`);
  } catch (error) {
    if (error instanceof EvalError) throw error;
    throw new EvalError("STORE_FAILED", `${path}: could not vacuum the database: could not start a process for it (${(error as Error).message})`, { cause: error });
  } finally {
    signal.removeEventListener("abort", kill);
  }
}

/**
 * Opens and closes the database at `path`, so that SQLite removes the write-ahead log a killed process left
 * (not while another process has the file open). Best effort: Ctrl-C was pressed, and the next command to
 * open the file would do it too.
 */
function dropLeftLog(path: string): void {
  if (!existsSync(path)) return; // opening would make a database there
  try {
    openSqliteStore(path).closeNow();
  } catch {
    // Left for the next command that opens the file.
  }
}

function lastJsonLine(text: string): { shrunk?: unknown; error?: { code: ErrorCode; message: string } } | undefined {
  const line = text.trim().split("\n").pop();
  if (!line) return undefined;
  try {
    return JSON.parse(line) as { shrunk?: unknown; error?: { code: ErrorCode; message: string } };
  } catch {
    return undefined;
  }
}
