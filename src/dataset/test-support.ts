/** Helpers shared by the dataset readers' tests (not shipped: excluded from the build). */
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { collect, evalErrorOf, tempDir, writeIn } from "../test-support.js";
import type { EvalError } from "../errors.js";
import type { DatasetItem } from "./rows.js";

/** A temp folder for the calling test file (removed after its tests), with a file writer. */
export function tempFiles(prefix: string): { file(name: string, content: string | Uint8Array): Promise<string>; dir(): string } {
  const dir = tempDir(prefix);
  return { dir: () => dir, file: async (name, content) => writeIn(dir, name, content) };
}

export { collect };

/** `[row, line, record or error message]` per item: compact to compare. */
export const brief = (items: DatasetItem[]): [number, number, unknown][] => items.map((i) => [i.row, i.line, "record" in i ? i.record : i.error.message]);

/** Reads `items` to the end and returns the DATASET_INVALID error it must fail with. */
export async function datasetFailure(items: AsyncIterable<DatasetItem>): Promise<EvalError> {
  const err = await evalErrorOf(collect(items));
  expect(err.code).toBe("DATASET_INVALID");
  return err;
}

/** The message a dataset path that is a pipe is refused with (see `notRegularFile`). */
export const PIPE_REFUSED = "is a pipe, not a regular file; a dataset is read more than once, so save it to a file first and give its path";

/**
 * Makes a FIFO `dir/name` with mkfifo and returns its path, or undefined where mkfifo is not available (the
 * caller skips). Code that wrongly opens it for reading would block for good (a synchronous open even blocks
 * the test thread, beyond any timeout), so a helper process opens it for writing after a second and closes
 * it at once: such code reads an empty stream and the test fails instead of hanging. The helper is killed
 * after the tests.
 */
export function makeFifo(dir: string, name: string): string | undefined {
  const path = join(dir, name);
  try {
    execFileSync("mkfifo", [path], { stdio: "ignore" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const release = "setTimeout(() => { const fs = require('node:fs'); fs.closeSync(fs.openSync(process.argv[1], 'w')); }, 1000)";
  const helper = spawn(process.execPath, ["-e", release, path], { stdio: "ignore" });
  afterAll(() => {
    helper.kill();
  });
  return path;
}
