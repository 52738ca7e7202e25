/** Helpers shared by the dataset readers' tests (not shipped: excluded from the build). */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { EvalError } from "../errors.js";
import type { DatasetItem } from "./rows.js";

/** A temp folder for the calling test file (made before its tests, removed after); returns a file writer. */
export function tempFiles(prefix: string): { file(name: string, content: string | Uint8Array): Promise<string>; dir(): string } {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    async file(name, content) {
      const path = join(dir, name);
      await writeFile(path, content);
      return path;
    },
  };
}

export async function collect(items: AsyncIterable<DatasetItem>): Promise<DatasetItem[]> {
  const out: DatasetItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** `[row, line, record or error message]` per item: compact to compare. */
export const brief = (items: DatasetItem[]): [number, number, unknown][] => items.map((i) => [i.row, i.line, "record" in i ? i.record : i.error.message]);

/** Reads `items` to the end and returns the DATASET_INVALID error it must fail with. */
export async function datasetFailure(items: AsyncIterable<DatasetItem>): Promise<EvalError> {
  const err = await collect(items).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EvalError);
  expect((err as EvalError).code).toBe("DATASET_INVALID");
  return err as EvalError;
}
