import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { evalErrorOf } from "../../test-support.js";
import { openSqliteStore, SqliteRunStore } from "../../storage/sqlite.js";
import type { CliIO } from "../io.js";
import { storesInTempDir } from "../test-support.js";
import { deleteCommand } from "./delete.js";

// `killedAfterCommit`: the vacuuming child is killed once its VACUUM has committed (the file vacuumed, its answer not given).
// `unshrunk`: the child's vacuuming left the copy in the log, as when another process has the file open.
const vacuuming = vi.hoisted(() => ({ killedAfterCommit: false, unshrunk: false }));
vi.mock("../vacuum.js", async (original) => {
  const real = await original<typeof import("../vacuum.js")>();
  return {
    vacuumInChild: async (path: string, signal: AbortSignal) => {
      if (vacuuming.unshrunk) return { shrunk: false };
      if (!vacuuming.killedAfterCommit) return real.vacuumInChild(path, signal);
      const store = openSqliteStore(path);
      await store.vacuum();
      await store.close();
      process.emit("SIGINT");
      return "abandoned" as const;
    },
  };
});

afterEach(() => {
  vacuuming.killedAfterCommit = false;
  vacuuming.unshrunk = false;
});

const temp = storesInTempDir("simeval-delete-");
const { open } = temp;

describe("deleteCommand interrupted", () => {
  async function finished(store: SqliteRunStore, name: string, rows: number) {
    const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    for (let from = 1; from <= rows; from += 5_000) {
      await store.addRows(id, Array.from({ length: Math.min(5_000, rows - from + 1) }, (_, i) => ({ row: from + i, id: from + i, results: {} })));
    }
    await store.finishRun(id, { rows, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
    return id;
  }

  /** The database, holding finished runs of these names and row counts. */
  async function recorded(runs: Record<string, number>): Promise<string> {
    const store = open();
    for (const [name, rows] of Object.entries(runs)) await finished(store, name, rows);
    await store.close();
    return join(temp.dir, "simeval.db");
  }

  /** An io whose lines are kept in `out` and `err`; `onOut` and `onErr` see each line as it comes. */
  function captured(on: { onOut?: (line: string) => void; onErr?: (line: string) => void } = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: (line: string) => (out.push(line), on.onOut?.(line)),
      stderr: (line: string) => (err.push(line), on.onErr?.(line)),
    } as unknown as CliIO;
    return { out, err, io };
  }

  it("stops between runs on Ctrl-C, names what is not deleted, and exits 130", async () => {
    const db = await recorded({ first: 3, second: 3 });
    const { out, err, io } = captured({ onOut: (line) => void (line.startsWith("deleted") && process.emit("SIGINT")) });
    expect(await deleteCommand(["first", "second"], { db, vacuum: true }, io)).toBe(130);
    expect(out.filter((l) => l.startsWith("deleted"))).toEqual([expect.stringContaining("(first): 3 rows")]);
    expect(err).toEqual([expect.stringMatching(/^simeval: interrupted \(SIGINT\); \S+ \(second\) not deleted, the file not vacuumed$/)]);
    expect((await open().listRuns()).map((r) => r.name)).toEqual(["second"]);
    expect(process.listenerCount("SIGINT")).toBe(0);
  });

  it("stopped among a run's rows, does not say that they were all deleted", async () => {
    const db = await recorded({ big: 25_000 });
    const { out, err, io } = captured();
    const emit = setImmediate(() => process.emit("SIGINT")); // heard at the first chunk's end
    expect(await deleteCommand(["big"], { db }, io)).toBe(130);
    clearImmediate(emit);
    expect(out).toEqual([expect.stringMatching(/^deleted \S+ \(big\), but not all of its 25,000 rows \(interrupted\)$/)]);
    expect(err).toEqual([expect.stringMatching(/^simeval: interrupted \(SIGINT\); 15,000 of the rows of deleted runs are still in the file/)]);
  });

  it("--vacuum does not vacuum when a run began while the runs were deleted: the rewrite would make it fail (exit 2, the runs deleted, the run left running)", async () => {
    const db = await recorded({ old: 10 });
    const other = open();
    let live = "";
    // Another process's `simeval run`, begun after the check for running runs, as the runs are deleted.
    const { out, err, io } = captured({
      onOut: (line) => {
        if (line.startsWith("deleted")) void other.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] }).then((id) => (live = id));
      },
    });
    const e = await evalErrorOf(deleteCommand(["old"], { db, vacuum: true }, io));
    expect(e.code).toBe("USAGE");
    expect(e.message).toMatch(new RegExp(`^--vacuum: ${live} \\(live\\) began being recorded while the runs were deleted, .*; the runs above are deleted, the file not vacuumed: vacuum once it has finished`));
    expect(out[0]).toMatch(/^deleted \w+ \(old\): 10 rows$/);
    expect(err.some((line) => line.startsWith("vacuuming"))).toBe(false);
    expect((await other.findRun(live))?.status).toBe("running");
  });

  it("--vacuum says on stderr that it vacuums the file, with its size, before it does, and the sizes before and after on stdout", async () => {
    const db = await recorded({ first: 12_000 });
    const said: string[] = [];
    const io = { stdout: (line: string) => void said.push(`out: ${line}`), stderr: (line: string) => void said.push(`err: ${line}`) } as unknown as CliIO;
    expect(await deleteCommand(["first"], { db, vacuum: true }, io)).toBe(0);
    expect(said).toEqual([
      expect.stringMatching(/^out: deleted \S+ \(first\): 12,000 rows$/),
      expect.stringMatching(new RegExp(`^err: vacuuming ${db} \\([\\d.]+ [kM]B\\): the whole file is rewritten; Ctrl-C abandons it, leaving the file as it was$`)),
      expect.stringMatching(new RegExp(`^out: vacuumed ${db}: [\\d.]+ [kM]B -> [\\d.]+ kB$`)),
    ]);
    expect(process.listenerCount("SIGINT")).toBe(0);
  });

  it("--vacuum that left the file unshrunk says another process is using it (a writer past the busy timeout leaves it so too, not only a reader), and its size now", async () => {
    const db = await recorded({ first: 12_000 });
    const { out, io } = captured();
    vacuuming.unshrunk = true;
    expect(await deleteCommand(["first"], { db, vacuum: true }, io)).toBe(0);
    expect(out).toEqual([
      expect.stringMatching(/^deleted \S+ \(first\): 12,000 rows$/),
      expect.stringMatching(new RegExp(`^vacuumed ${db}, but another process is using it: the file \\([\\d.]+ [kM]B now\\) shrinks once no process has it open$`)),
    ]);
  });

  it("Ctrl-C once vacuuming is said abandons it: the file is as it was, the deletion done, exit 130", async () => {
    const db = await recorded({ first: 12_000 });
    let size = 0;
    const { out, err, io } = captured({
      onErr: (line) => {
        if (!line.startsWith("vacuuming")) return;
        size = statSync(db).size;
        process.emit("SIGINT");
      },
    });
    expect(await deleteCommand(["first"], { db, vacuum: true }, io)).toBe(130);
    expect(out).toEqual([expect.stringMatching(/^deleted \S+ \(first\): 12,000 rows$/)]);
    expect(err[1]).toBe(`simeval: interrupted (SIGINT); vacuuming abandoned: ${db} is as it was before vacuuming (the runs above are deleted)`);
    expect(statSync(db).size).toBe(size);
    const reopened = open();
    expect(await reopened.listRuns()).toEqual([]);
    expect(reopened.freeBytes()).toBeGreaterThan(0); // the deleted run's pages, not given back
    expect(process.listenerCount("SIGINT")).toBe(0);
  });

  it("Ctrl-C as vacuuming ended does not say that the file is as it was: it says that it was vacuumed", async () => {
    const db = await recorded({ first: 12_000 });
    const { out, err, io } = captured();
    vacuuming.killedAfterCommit = true;
    expect(await deleteCommand(["first"], { db, vacuum: true }, io)).toBe(130);
    expect(out).toEqual([expect.stringMatching(/^deleted \S+ \(first\): 12,000 rows$/), expect.stringMatching(new RegExp(`^vacuumed ${db}: [\\d.]+ [kM]B -> [\\d.]+ kB$`))]);
    expect(err[1]).toBe("simeval: interrupted (SIGINT); vacuuming had finished when it was stopped");
    expect(process.listenerCount("SIGINT")).toBe(0);
  });
});

describe("deleteCommand", () => {
  const io = () => {
    const out: string[] = [];
    return { out, io: { stdout: (line: string) => void out.push(line), stderr: () => undefined } as unknown as CliIO };
  };

  it("takes an id prefix of 4 characters or more, refuses one of 3 (nothing deleted), and says \"1 row\"", async () => {
    const store = open();
    const id = await store.beginRun({ name: null, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    await store.addRows(id, [{ row: 1, id: 1, results: {} }]);
    await store.finishRun(id, { rows: 1, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
    const db = join(temp.dir, "simeval.db");
    const short = await evalErrorOf(deleteCommand([id.slice(0, 3)], { db }, io().io));
    expect(short.code).toBe("USAGE");
    expect(short.message).toContain("give at least 4 characters of the id");
    const { out, io: ok } = io();
    expect(await deleteCommand([id.slice(0, 4)], { db }, ok)).toBe(0);
    expect(out[0]).toBe(`deleted ${id}: 1 row`);
    expect(await store.listRuns()).toEqual([]);
  });

  it("says how much free space the deletion left only when there is some: a small run's pages stay in use, a large run's are freed", async () => {
    const store = open();
    const record = async (name: string, rows: number) => {
      const id = await store.beginRun({ name, dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
      for (let from = 1; from <= rows; from += 5_000) {
        await store.addRows(id, Array.from({ length: Math.min(5_000, rows - from + 1) }, (_, i) => ({ row: from + i, id: from + i, results: {} })));
      }
      await store.finishRun(id, { rows, row_errors: 0, skipped_as_zero: false, evaluators: [] } as never);
      return id;
    };
    const small = await record("small", 3);
    await record("kept", 3);
    const db = join(temp.dir, "simeval.db");
    // The 3 rows shared their pages with the kept run's: no page is freed, and no "0 B of free space" is said.
    const none = io();
    expect(await deleteCommand(["small"], { db }, none.io)).toBe(0);
    expect(store.freeBytes()).toBe(0);
    expect(none.out).toEqual([`deleted ${small} (small): 3 rows`]);
    const large = await record("large", 12_000);
    const some = io();
    expect(await deleteCommand(["large"], { db }, some.io)).toBe(0);
    expect(store.freeBytes()).toBeGreaterThan(0);
    expect(some.out).toEqual([`deleted ${large} (large): 12,000 rows`, expect.stringMatching(new RegExp(`^[\\d.]+ [kM]B of ${db} is free space that new runs reuse; \`simeval delete --vacuum\` gives it back to the file system$`))]);
  });

  it("refusing a running run that no process owns, does not send the user looking for a killed process", async () => {
    const store = open();
    const id = await store.beginRun({ name: "svc", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    const e = await evalErrorOf(deleteCommand(["svc"], { db: join(temp.dir, "simeval.db") }, io().io));
    expect(e.message).toContain(`run ${id} (svc) is still being recorded; finish or abort it before deleting it (nothing was deleted); ${id} (svc) is owned by no process`);
    expect(e.message).not.toContain("killed on another host");
  });

  it("--vacuum refused by a run whose process is alive here and a service's run gives each its own hint, not the one for a process killed elsewhere", async () => {
    const store = open();
    const live = await store.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    const svc = await store.beginRun({ name: "svc", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    const e = await evalErrorOf(deleteCommand([], { db: join(temp.dir, "simeval.db"), vacuum: true }, io().io));
    expect(e.message).toContain(
      `(nothing was deleted); process ${process.pid} on this host (recording ${live} (live)) is alive: the run ends when it does (Ctrl-C there, or \`kill ${process.pid}\`, marks it incomplete keeping its rows); ${svc} (svc) is owned by no process`,
    );
    expect(e.message).toContain(`${live} (live)`);
    expect(e.message).not.toContain("killed on another host");
  });

  it("--vacuum refuses while one run is being recorded, saying \"is\" and \"it has\" of one", async () => {
    const store = open();
    const id = await store.beginRun({ name: "live", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: [{ type: "exact_match" }] });
    const e = await evalErrorOf(deleteCommand([], { db: join(temp.dir, "simeval.db"), vacuum: true }, io().io));
    expect(e.code).toBe("USAGE");
    expect(e.message).toMatch(new RegExp(`^--vacuum: ${id} \\(live\\) is still being recorded, .*; vacuum once it has finished \\(nothing was deleted\\)`));
    // The run named, not its process: the process is named once, without the run again.
    expect(e.message).toMatch(new RegExp(`\\(nothing was deleted\\); process ${process.pid} on this host is alive: the run ends when it does \\(Ctrl-C there, or \`kill ${process.pid}\`, marks it incomplete keeping its rows\\)$`));
  });
});
