/** The dataset fingerprint stored with a run, so that a comparison can tell whether two runs read the same bytes. */
import { createHash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { fileProblem } from "./errors.js";
import { CHUNK_BYTES } from "./read-bytes.js";

/** sha256 of the file's bytes, lowercase hex, read as a stream. A missing or unreadable file throws DATASET_INVALID. */
export async function hashFile(path: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    throw fileProblem(path, err);
  }
  const hash = createHash("sha256");
  try {
    for await (const chunk of handle.createReadStream({ highWaterMark: CHUNK_BYTES })) hash.update(chunk as Buffer);
  } catch (err) {
    throw fileProblem(path, err);
  } finally {
    await handle.close().catch(() => undefined); // the stream usually closed it already
  }
  return hash.digest("hex");
}
