/** Helpers shared by the command tests (not shipped: excluded from the build). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, expect, vi } from "vitest";
import { openSqliteStore, SqliteRunStore } from "../storage/sqlite.js";
import { main } from "./main.js";

/**
 * Runs `call` in a real child process that sends itself `signal` at its first write to a descriptor past stderr
 * (the report's file): a real signal while a report is written. `call` awaits `command`, exported by the module at
 * `moduleUrl`, with `db` and `report` as `process.argv[1]` and `[2]` and `io` (stdout dropped, stderr printed).
 * Then checks that the command let the report be finished and said so, exited `exit`, and left no temporary file
 * beside it: only the report and the database's files are in its folder. `ignored` drops stderr lines that hold it.
 */
export function expectReportWrittenWholeOnSignal(opts: {
  signal: "SIGINT" | "SIGTERM";
  exit: number;
  moduleUrl: URL;
  command: string;
  call: string;
  db: string;
  report: string;
  ignored?: string;
}): void {
  const { signal, db, report } = opts;
  const script = [
    `import fs from "node:fs";`,
    `import { syncBuiltinESMExports } from "node:module";`,
    `const writeSync = fs.writeSync;`,
    `let sent = false;`,
    `fs.writeSync = function (fd, ...rest) {`,
    `  if (!sent && fd > 2) { sent = true; process.kill(process.pid, "${signal}"); }`,
    `  return writeSync.call(this, fd, ...rest);`,
    `};`,
    `syncBuiltinESMExports();`,
    `const { ${opts.command} } = await import(${JSON.stringify(opts.moduleUrl.href)});`,
    `const io = { stdout: () => {}, stderr: (l) => console.error(l) };`,
    `process.exitCode = await ${opts.call};`,
    `if (!sent) console.error("no signal sent");`,
  ].join("\n");
  const p = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, db, report], { encoding: "utf8" });
  expect(p.signal).toBe(null);
  const stderr = p.stderr.split("\n").filter((line) => opts.ignored === undefined || !line.includes(opts.ignored));
  expect(stderr).toEqual([`simeval: interrupted (${signal}); ${report} was written whole all the same (the signal came while it was written)`, ""]);
  expect(p.status).toBe(opts.exit);
  expect(readdirSync(dirname(report)).filter((f) => !f.startsWith(basename(db)))).toEqual([basename(report)]);
  expect(readFileSync(report, "utf8")).toMatch(/<\/html>\s*$/);
}

/**
 * Runs the command line in process, on a terminal `columns` wide (none: stdout is not a terminal): its exit
 * code and what it printed on stdout and stderr, each's lines joined by "\n".
 */
export async function cliOutput(argv: readonly string[], columns?: number): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s), columns });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/**
 * Makes every `SqliteRunStore.prototype[method]` read (`rows` or `scores`, called as it was) send this process `signal`
 * with its first row, as a Ctrl-C while a command reads a run; the returned counter holds the rows read since.
 * The caller restores the method (`vi.restoreAllMocks()`).
 */
export function signalOnFirstRowRead(method: "rows" | "scores", signal: NodeJS.Signals): { rows: number } {
  const read = { rows: 0 };
  const original = SqliteRunStore.prototype[method] as (this: SqliteRunStore, ...args: unknown[]) => AsyncIterable<unknown>;
  vi.spyOn(SqliteRunStore.prototype, method).mockImplementation(async function* (this: SqliteRunStore, ...args: unknown[]) {
    for await (const row of original.apply(this, args)) {
      if (++read.rows === 1) process.emit(signal);
      yield row;
    }
  } as never);
  return read;
}

/**
 * For each test of the file that calls it (at its top level): a new temporary folder, `dir` (named from `prefix`),
 * and `open()`, which opens the run database `simeval.db` in it. After each test, the stores opened are closed and
 * the folder is removed.
 */
export function storesInTempDir(prefix: string): { readonly dir: string; open(): SqliteRunStore } {
  let dir = "";
  const opened: SqliteRunStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    open() {
      const store = openSqliteStore(join(dir, "simeval.db"));
      opened.push(store);
      return store;
    },
  };
}
