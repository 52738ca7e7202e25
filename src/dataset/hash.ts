/** The dataset fingerprint stored with a run, so that a comparison can tell whether two runs read the same bytes. */
import { createHash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { fileProblem } from "./errors.js";
import { checkDatasetFile, CHUNK_BYTES } from "./read-bytes.js";

/**
 * sha256 of the file's bytes, lowercase hex, read as a stream. A missing or unreadable file, or one that is not
 * a regular file (a pipe, refused before it is opened), throws DATASET_INVALID.
 */
export async function hashFile(path: string): Promise<string> {
  return (await scanFile(path)).sha256;
}

/** What one read of a file tells before a run: its fingerprint and how many lines it has (for progress). */
export interface FileScan {
  sha256: string;
  bytes: number;
  /** Newline characters, plus one for a last line without a newline. */
  lines: number;
  /** The file's size and modification time when the scan began: a later stat that differs means it changed since. */
  stat: { size: number; mtimeMs: number };
}

/**
 * Hashes a file and counts its lines in one streamed read. A missing or unreadable file, or one that is not a
 * regular file (a pipe, a device: refused before it is opened, see `checkDatasetFile`), throws DATASET_INVALID.
 */
export async function scanFile(path: string): Promise<FileScan> {
  checkDatasetFile(path);
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    throw fileProblem(path, err);
  }
  const hash = createHash("sha256");
  let bytes = 0;
  let lines = 0;
  let last = 10;
  let stat: FileScan["stat"];
  try {
    const st = await handle.stat();
    stat = { size: st.size, mtimeMs: st.mtimeMs };
    for await (const chunk of handle.createReadStream({ highWaterMark: CHUNK_BYTES })) {
      const buf = chunk as Buffer;
      hash.update(buf);
      bytes += buf.length;
      for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
      if (buf.length) last = buf[buf.length - 1] as number;
    }
  } catch (err) {
    throw fileProblem(path, err);
  } finally {
    await handle.close().catch(() => undefined); // the stream usually closed it already
  }
  return { sha256: hash.digest("hex"), bytes, lines: last === 10 ? lines : lines + 1, stat };
}
