import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readOnlyHint, storeError as toStoreError } from "./open-database.js";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-open-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("readOnlyHint and storeError", () => {
  it("names the file that keeps a write from happening: the database, a -wal or -shm file left read-only, or the directory", () => {
    const db = join(dir, "runs.db");
    const hint = (...readOnly: string[]) => readOnlyHint(db, (p) => readOnly.includes(p));
    expect(hint(db)).toBe(`${db} is read-only`);
    expect(hint(`${db}-shm`)).toBe(`${db}-shm is read-only, as SQLite leaves it after reading the database while that was read-only; make it writable too: chmod u+w ${db}-shm`);
    expect(hint(`${db}-wal`, `${db}-shm`)).toContain(`${db}-wal and ${db}-shm are read-only, as SQLite leaves them`);
    expect(hint(dir)).toBe(`its directory ${dir} is read-only, and SQLite must create runs.db-wal and runs.db-shm in it, even to read`);
    expect(hint()).toBeNull();
    expect(readOnlyHint(":memory:", () => true)).toBeNull();
  });

  it("names the read-only directory a symbolic link leads to, and says so where SQLite cannot open the file (a read-only mount)", () => {
    const sub = join(dir, "ro");
    mkdirSync(sub);
    const link = join(dir, "link.db");
    symlinkSync(join("ro", "runs.db"), link); // to a file not made yet, as a first run's
    expect(readOnlyHint(link, (p) => p === sub)).toBe(
      `its directory ${sub} is read-only, and SQLite must create runs.db-wal and runs.db-shm in it, even to read; ${link} leads to ${join(sub, "runs.db")}`,
    );
    const cantOpen = Object.assign(new Error("unable to open database file"), { code: "SQLITE_CANTOPEN" });
    expect(toStoreError(link, "open the run store", cantOpen, (p) => p === sub).message).toBe(
      `${link}: could not open the run store: unable to open database file (${readOnlyHint(link, (p) => p === sub)})`,
    );
    expect(toStoreError(link, "open the run store", cantOpen, () => false).message).toContain("(check that the path names a file in a directory you can write to)");
  });
});
