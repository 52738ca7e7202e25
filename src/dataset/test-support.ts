/** Helpers shared by the dataset readers' tests (not shipped: excluded from the build). */
import { expect } from "vitest";
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
