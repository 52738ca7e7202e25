/**
 * The process that `simeval delete --vacuum` vacuums in (see {@link vacuumInChild}): `node vacuum-child.js DB`.
 * Writes one JSON line to standard output: `{"shrunk":BOOLEAN}` (see {@link SqliteRunStore.vacuum}), or
 * `{"error":{"code":CODE,"message":TEXT}}` when it failed.
 */
import { EvalError } from "../errors.js";
import { openSqliteStore } from "../storage/sqlite.js";

const path = process.argv[2] ?? "";
try {
  const store = openSqliteStore(path);
  try {
    process.stdout.write(`${JSON.stringify({ shrunk: await store.vacuum() })}\n`);
  } finally {
    await store.close();
  }
} catch (error) {
  const code = error instanceof EvalError ? error.code : "STORE_FAILED";
  process.stdout.write(`${JSON.stringify({ error: { code, message: error instanceof Error ? error.message : String(error) } })}\n`);
  process.exitCode = 1;
}
