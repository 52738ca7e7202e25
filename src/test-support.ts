/** Helpers shared by the tests (not shipped: excluded from the build). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import type { EmbeddingProvider } from "./embeddings/provider.js";
import { EvalError } from "./errors.js";

/** A temp folder for the calling test file: made at once, removed after its tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `body` with a temp folder of its own (`prefix` names it), removed afterwards whatever `body` does. */
export async function inTempDir<T>(prefix: string, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `content` to `dir/name` and returns the path. */
export function writeIn(dir: string, name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The EvalError that `fn` throws (synchronously); fails the test when it throws nothing or something else. */
export function thrownEvalError(fn: () => unknown): EvalError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(EvalError);
    return error as EvalError;
  }
  throw new Error("expected an EvalError");
}

/** The EvalError `p` rejects with; the test fails if it resolves or rejects with anything else. */
export async function evalErrorOf(p: Promise<unknown>): Promise<EvalError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EvalError);
  return err as EvalError;
}

/** Everything an async iterable yields, in order (`Array.fromAsync` needs Node 22). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** A hashing bag-of-words embedding provider ("hashing", 64 dimensions): deterministic, needs no network. */
export const hashingProvider: EmbeddingProvider = {
  name: "hashing",
  model: "hash-64",
  async embed(texts) {
    return {
      vectors: texts.map((t) => {
        const v = new Float64Array(64);
        for (const w of t.toLowerCase().split(/\s+/u)) {
          let h = 0;
          for (const c of w) h = (h * 31 + (c.codePointAt(0) ?? 0)) >>> 0;
          v[h % 64] = (v[h % 64] ?? 0) + 1;
        }
        return v;
      }),
    };
  },
};
