import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { openSqliteStore } from "../storage/sqlite.js";
import { vacuumInChild } from "./vacuum.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-vacuum-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("vacuumInChild", () => {
  it("passes on the child's failure as the EvalError it was", async () => {
    const notes = join(dir, "notes.db");
    writeFileSync(notes, "# notes, not a database\n".repeat(100));
    const failure = await vacuumInChild(notes, new AbortController().signal).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EvalError);
    expect(failure).toMatchObject({ code: "USAGE", message: expect.stringContaining(`${notes}: could not open the run store`) });
  });

  it("starts nothing once the signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort("SIGINT");
    expect(await vacuumInChild(join(dir, "missing", "x.db"), controller.signal)).toBe("abandoned");
    expect(existsSync(join(dir, "missing"))).toBe(false); // a child would have made the database there
  });

  it("abandoned, leaves no write-ahead log behind (a killed child's was as large as what it had rewritten)", async () => {
    const db = join(dir, "simeval.db");
    await openSqliteStore(db).close();
    // A process killed while it wrote, as the vacuuming child is: its write-ahead log stays beside the file.
    const killed = spawnSync(process.execPath, ["-e", `const d = new (require("better-sqlite3"))(${JSON.stringify(db)}); d.exec("CREATE TABLE t(a); INSERT INTO t VALUES (1)"); process.kill(process.pid, "SIGKILL");`]);
    expect(killed.signal).toBe("SIGKILL");
    expect(existsSync(`${db}-wal`)).toBe(true);
    const controller = new AbortController();
    const vacuumed = vacuumInChild(db, controller.signal); // the child is started at once
    controller.abort("SIGINT");
    expect(await vacuumed).toBe("abandoned");
    expect(existsSync(`${db}-wal`)).toBe(false);
  });
});
