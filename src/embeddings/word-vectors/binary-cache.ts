import { randomBytes } from "node:crypto";
import { open, readFile, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { EvalError } from "../../errors.js";
import { makeFolder } from "../../make-folder.js";
import type { WordTable } from "./table.js";

/**
 * The binary cache of a vectors file, so that a 300 MB JSON or a multi-GB text file is parsed once.
 * Layout (little-endian):
 *
 * | bytes | content |
 * |---|---|
 * | 8 | magic `SEWVEC01` |
 * | 4 | uint32 length H of the JSON header |
 * | H | header `{ count, dim, precision: "float32" \| "int8", wordsBytes, source }` |
 * | wordsBytes | the words in file order, UTF-8, separated by `\n` |
 * | 0–3 | zero padding to a multiple of 4 |
 * | 4 × count | (int8 only) Float32 per-row scales |
 * | count × dim × (4 or 1) | the vectors, row-major |
 */
const MAGIC = "SEWVEC01";

/** What the cache remembers about the file it was built from (shown in errors and details). */
interface CacheSource {
  path: string;
  size: number;
  mtimeMs: number;
}

interface Header {
  count: number;
  dim: number;
  precision: "float32" | "int8";
  wordsBytes: number;
  source: CacheSource;
}

/**
 * Writes `table` to `file` atomically (a temporary file renamed into place), creating the folder, so
 * that two processes converting the same vectors at once never leave a half-written cache.
 */
export async function writeVectorCache(file: string, table: WordTable, source: CacheSource): Promise<void> {
  const words = Buffer.from(table.words.join("\n"), "utf8");
  const precision = table.scales === null ? "float32" : "int8";
  const header: Header = { count: table.words.length, dim: table.dim, precision, wordsBytes: words.length, source };
  const headerBytes = Buffer.from(JSON.stringify(header), "utf8");
  const prefix = Buffer.alloc(12);
  prefix.write(MAGIC, 0, "latin1");
  prefix.writeUInt32LE(headerBytes.length, 8);
  const used = prefix.length + headerBytes.length + words.length;
  const padding = Buffer.alloc((4 - (used % 4)) % 4);
  const parts: Uint8Array[] = [prefix, headerBytes, words, padding];
  if (table.scales !== null) parts.push(new Uint8Array(table.scales.buffer, table.scales.byteOffset, table.scales.byteLength));
  parts.push(new Uint8Array(table.data.buffer, table.data.byteOffset, table.data.byteLength));

  makeFolder(dirname(file));
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(tmp, "w");
  try {
    for (const part of parts) await handle.write(part);
  } catch (cause) {
    await handle.close();
    await rm(tmp, { force: true });
    throw new EvalError("PROVIDER_FAILED", `word_vectors: could not write the vectors cache ${file}: ${(cause as Error).message}`, { cause });
  }
  await handle.close();
  await rename(tmp, file);
}

/**
 * Reads a cache written by {@link writeVectorCache}: one read of the file, then typed-array views on
 * it (no per-number parsing). Throws PROVIDER_FAILED naming the file when it is not a valid cache.
 */
export async function readVectorCache(file: string): Promise<{ table: WordTable; source: CacheSource }> {
  const bytes = await readFile(file);
  const bad = (what: string) => new EvalError("PROVIDER_FAILED", `word_vectors: ${file} is not a valid vectors cache (${what}); delete it to rebuild it`);
  if (bytes.length < 12 || bytes.toString("latin1", 0, 8) !== MAGIC) throw bad(`no "${MAGIC}" signature`);
  const headerLength = bytes.readUInt32LE(8);
  let header: Header;
  try {
    header = JSON.parse(bytes.toString("utf8", 12, 12 + headerLength)) as Header;
  } catch {
    throw bad("unreadable header");
  }
  const { count, dim, precision, wordsBytes } = header;
  const wordsStart = 12 + headerLength;
  let at = wordsStart + wordsBytes;
  at += (4 - (at % 4)) % 4;
  const width = precision === "int8" ? 1 : 4;
  const expected = at + (precision === "int8" ? 4 * count : 0) + count * dim * width;
  if (bytes.length !== expected) throw bad(`${bytes.length} bytes where the header implies ${expected}`);

  const words = count === 0 ? [] : bytes.toString("utf8", wordsStart, wordsStart + wordsBytes).split("\n");
  if (words.length !== count) throw bad(`${words.length} words where the header says ${count}`);
  // Copy into fresh, aligned storage: a Buffer may sit at any offset of a shared pool.
  const view = (start: number, length: number) => bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + length);
  let scales: Float32Array | null = null;
  if (precision === "int8") {
    scales = new Float32Array(view(at, 4 * count));
    at += 4 * count;
  }
  const data = precision === "int8" ? new Int8Array(view(at, count * dim)) : new Float32Array(view(at, count * dim * 4));
  return { table: { words, dim, data, scales }, source: header.source };
}
