/** Writing bytes whole with synchronous writes. */
import { writeSync } from "node:fs";

/**
 * Writes all of `data` to `fd`: at byte `position` of the file, or at the descriptor's own place when null.
 * A write may take only part of what it is given (a disk that fills takes what fits, and the next write
 * fails with ENOSPC, which is thrown), so it writes the rest until all is written.
 */
export function writeFully(fd: number, data: string | Uint8Array, position: number | null = null): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written, position === null ? null : position + written);
}
