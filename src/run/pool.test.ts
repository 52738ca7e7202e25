import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { evalErrorOf } from "../test-support.js";
import { workerPool } from "./pool.js";
import type { ScorerInit } from "./scorer-init.js";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-pool-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A run's scorer init whose threads open the embedding cache at `db` as they start (an embedding evaluator's). */
function initWithCache(db: string): ScorerInit {
  const vectors = join(dir, "vectors.txt");
  writeFileSync(vectors, "hello 0.1 0.2\nworld 0.3 0.1\n");
  return { specs: [{ type: "semantic_similarity", config: { provider: "word_vectors", path: vectors } }], worst: 0, explain: false, db };
}

describe("workerPool", () => {
  it("gives a thread's failure to start as simeval's EvalError, its code and transient kept, as scoring on this thread does", async () => {
    // Not a database: USAGE, at once.
    const notDb = join(dir, "not-a-database.db");
    writeFileSync(notDb, "plain text, not SQLite\n");
    const usage = workerPool(initWithCache(notDb), 1);
    try {
      const e = await evalErrorOf(usage.ready());
      expect(e).toMatchObject({ code: "USAGE", transient: false, message: expect.stringContaining(`${notDb}: could not open the run store: file is not a database`) });
      // Requests sent after the thread died reject with what it died of: the first was rejected as the thread
      // exited, saying only its exit code, and one sent after that waited for an answer forever.
      const answer = (p: Promise<void>) => p.then(() => "answered", (err: unknown) => err);
      expect(await answer(usage.setIdf({}))).toBe(e);
      const never = new Promise<string>((resolve) => setTimeout(() => resolve("no answer in 5 s"), 5_000).unref());
      expect(await Promise.race([answer(usage.setIdf({})), never])).toBe(e);
      // And so after the thread has exited, where its exit ("exited with code 1") is a failure too: the first is kept.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await answer(usage.setIdf({}))).toBe(e);
    } finally {
      await usage.close();
    }
    // Locked by another connection for longer than the store waits (5 s): STORE_FAILED, transient, to try again later.
    const locked = join(dir, "locked.db");
    const other = new Database(locked);
    other.pragma("locking_mode = EXCLUSIVE");
    other.exec("CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);");
    const pool = workerPool(initWithCache(locked), 1);
    try {
      const e = await evalErrorOf(pool.ready());
      expect(e).toMatchObject({ code: "STORE_FAILED", transient: true, message: expect.stringContaining(`${locked}: could not open the run store: database is locked`) });
    } finally {
      await pool.close();
      other.close();
    }
  }, 30_000);

  it("keeps the issues of a thread's EvalError, naming what was wrong where", async () => {
    const pool = workerPool({ specs: [{ type: "levenshtein", config: { threshold: 7 } }], worst: 0, explain: false }, 1);
    try {
      const e = await evalErrorOf(pool.ready());
      expect(e).toMatchObject({ code: "CONFIG_INVALID", issues: [{ path: ["evaluators", 0, "config", "threshold"], expected: "a number in [0, 1]" }] });
    } finally {
      await pool.close();
    }
  }, 30_000);
  it("gives a request's failure in a thread as simeval's EvalError with its code and issues, as scoring on this thread does", async () => {
    // A vectors file that is not there: the thread starts, and its ready() fails, naming the config field.
    const pool = workerPool({ specs: [{ type: "semantic_similarity", config: { provider: "word_vectors", path: join(dir, "none.txt") } }], worst: 0, explain: false }, 1);
    try {
      const e = await evalErrorOf(pool.ready());
      // The issues were dropped on the way, leaving a CLI or a service the message alone.
      expect(e).toMatchObject({ code: "CONFIG_INVALID", transient: false, issues: [{ path: ["config", "path"], message: expect.stringContaining("does not exist") }] });
    } finally {
      await pool.close();
    }
  });
});
