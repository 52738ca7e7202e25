/** The dataset fingerprint stored with a run, so that a comparison can tell whether two runs read the same bytes. */
import { createHash } from "node:crypto";
import { fileProblem } from "./errors.js";
import { openRegularFile, reusedChunks } from "./read-bytes.js";

/**
 * sha256 of the file's bytes, lowercase hex, read a chunk at a time. A missing or unreadable file, or one that is
 * not a regular file (a pipe, refused before it is opened), throws DATASET_INVALID.
 */
export async function hashFile(path: string): Promise<string> {
  return (await scanFile(path)).sha256;
}

/** What one read of a file tells before a run: its fingerprint and how many lines it has that are not blank (for progress). */
export interface FileScan {
  sha256: string;
  bytes: number;
  /**
   * Lines that hold something other than JSON's whitespace (space, tab, CR), a last line without a newline
   * included: a JSONL file's rows, which skips blank lines.
   */
  filledLines: number;
  /** The file's size and modification time when the scan began: a later stat that differs means it changed since. */
  stat: { size: number; mtimeMs: number };
}

/**
 * Hashes a file and counts its lines in one read through it (into one reused buffer, see `reusedChunks`). A missing
 * or unreadable file, or one that is not a regular file (a pipe, a device: refused before it is opened, see
 * `checkDatasetFile`), throws DATASET_INVALID.
 * `onRead` is told the bytes read so far after each read (for progress on a large file).
 */
export async function scanFile(path: string, onRead?: (bytes: number) => void): Promise<FileScan> {
  const handle = await openRegularFile(path);
  const hash = createHash("sha256");
  let bytes = 0;
  let filledLines = 0;
  // Whether the line read so far holds a byte other than whitespace: such a line is counted at its newline.
  let filled = false;
  let stat: FileScan["stat"];
  try {
    const st = await handle.stat();
    stat = { size: st.size, mtimeMs: st.mtimeMs };
    for await (const buf of reusedChunks(handle)) {
      hash.update(buf);
      bytes += buf.length;
      onRead?.(bytes);
      // A line's first byte (nearly always `{`) tells it is filled; only blank ones are read to their end byte by byte.
      let i = 0;
      while (i < buf.length) {
        if (!filled) {
          let b = buf[i] as number;
          while (b === 32 || b === 9 || b === 13) b = buf[++i] ?? 10;
          if (i >= buf.length) break;
          i++;
          if (b === 10) continue;
          filled = true;
        }
        const newline = buf.indexOf(10, i);
        if (newline === -1) break;
        filledLines++;
        filled = false;
        i = newline + 1;
      }
    }
  } catch (err) {
    throw fileProblem(path, err);
  } finally {
    await handle.close().catch(() => undefined);
  }
  return { sha256: hash.digest("hex"), bytes, filledLines: filled ? filledLines + 1 : filledLines, stat };
}
