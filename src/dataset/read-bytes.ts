/**
 * Byte-level helpers shared by the readers: opening a dataset file with clear whole-file errors, reading it,
 * and finding invalid UTF-8 without slowing down the common all-valid case.
 */
import { isUtf8 } from "node:buffer";
import { statSync, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { datasetInvalid, fileProblem, notRegularFile } from "./errors.js";

/** The UTF-8 byte order mark, skipped at the start of a file. */
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Bytes per read: 256 KiB. On 1M short JSONL rows it read as fast as 1 MiB with ~40 MB less RSS (items of a
 * smaller batch die young), and faster than the 64 KiB default (fewer reads and carried line tails).
 */
export const CHUNK_BYTES = 256 * 1024;

/** Whether `bytes` starts with the UTF-8 byte order mark. */
export function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
}

/**
 * Checks, without opening it, that `path` is a regular file (following symlinks), or throws DATASET_INVALID
 * naming it: missing, a directory, or a pipe, socket or device (see {@link notRegularFile}). Call it before
 * anything opens a dataset path: opening a FIFO for reading waits for a writer, and a pipe cannot be read twice.
 * Synchronous (one `stat`), so that the async readers and the synchronous format sniffing share it.
 * Returns the file's stats.
 */
export function checkDatasetFile(path: string): Stats {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (err) {
    throw fileProblem(path, err);
  }
  const problem = notRegularFile(path, stats);
  if (problem !== undefined) throw problem;
  return stats;
}

/** How many leading bytes {@link notText} looks at. */
export const MAGIC_BYTES = 6;

/**
 * What a file with bytes that are not UTF-8 nearly always was, and how to convert it, to follow "the file was" (a CSV
 * header's refusal, `run`'s warning on such rows).
 */
export const SAVED_IN_LEGACY_ENCODING =
  "saved in another encoding (Windows-1252 or Latin-1, as older Excel versions save CSV); convert it to UTF-8, e.g. iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8, or save it again from the spreadsheet as CSV UTF-8";

/** Leading bytes of files that are not text, what each is, and what to do instead. */
const NOT_TEXT: readonly { magic: readonly number[]; what: string; fix: string }[] = [
  { magic: [0x1f, 0x8b], what: "is gzip-compressed", fix: "decompress it first, e.g. gunzip -k FILE" },
  { magic: [0x50, 0x4b, 0x03, 0x04], what: "is a ZIP archive (an Excel .xlsx, LibreOffice .ods or Numbers file is one)", fix: "extract it, or save the sheet as CSV UTF-8" },
  { magic: [0xd0, 0xcf, 0x11, 0xe0], what: "is an Excel .xls (or other Office) file", fix: "save the sheet as CSV UTF-8" },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: "is xz-compressed", fix: "decompress it first, e.g. xz -dk FILE" },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], what: "is zstd-compressed", fix: "decompress it first, e.g. zstd -d FILE" },
];

/**
 * Why a file starting with `head` (up to {@link MAGIC_BYTES} bytes) cannot be a UTF-8 dataset, or undefined:
 * UTF-16 (a byte order mark, or a NUL as one of the first two bytes, which UTF-8 text does not start with),
 * a compressed file or an archive (by its magic number). `formats` names what the file should be.
 */
export function notText(head: Uint8Array, formats = "JSONL, JSON or CSV"): string | undefined {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) {
    return `is UTF-16 text (it starts with a UTF-16 byte order mark); expected UTF-8: convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8`;
  }
  if (head.length >= 2 && (head[0] === 0) !== (head[1] === 0)) {
    const order = head[1] === 0 ? "LE" : "BE";
    return `looks like UTF-16${order} text without a byte order mark (its ${head[1] === 0 ? "second" : "first"} byte is NUL); expected UTF-8: convert it first, e.g. iconv -f UTF-16${order} -t UTF-8 FILE > FILE-utf8`;
  }
  const found = NOT_TEXT.find(({ magic }) => head.length >= magic.length && magic.every((b, i) => head[i] === b));
  return found === undefined ? undefined : `${found.what}; expected a UTF-8 text file (${formats}): ${found.fix}`;
}

/**
 * Opens `path` for reading, or throws DATASET_INVALID naming the file: missing, unreadable, or not a regular
 * file (refused before it is opened: {@link checkDatasetFile}).
 */
export async function openRegularFile(path: string): Promise<FileHandle> {
  checkDatasetFile(path);
  try {
    return await open(path, "r");
  } catch (err) {
    throw fileProblem(path, err);
  }
}

/**
 * Opens `path` for reading, or throws DATASET_INVALID naming the file: missing, a directory, a pipe, socket
 * or device (refused before it is opened: {@link checkDatasetFile}), unreadable, an empty file or one holding only a
 * UTF-8 byte order mark (`emptyHint` says what a non-empty file should hold), UTF-16 text, or a compressed or binary file ({@link notText}).
 */
export async function openDatasetFile(path: string, emptyHint: string): Promise<FileHandle> {
  const handle = await openRegularFile(path);
  try {
    const stat = await handle.stat();
    // Again on what was opened, in case the path changed since the check.
    const problem = notRegularFile(path, stat);
    if (problem !== undefined) throw problem;
    if (stat.size === 0) throw datasetInvalid(path, `the file is empty; expected ${emptyHint}`);
    // Every row of a UTF-16, compressed or binary file would be an error of its own (or one garbage
    // header): one message for the file says why.
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(MAGIC_BYTES), 0, MAGIC_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    // A byte order mark alone (an editor's "UTF-8 with BOM" file saved empty) is an empty file: read as one, each
    // reader said "only blank lines", and a file of no known extension was taken for a CSV with no header.
    if (stat.size === BOM.length && hasBom(head)) throw datasetInvalid(path, `the file is empty (but for a UTF-8 byte order mark); expected ${emptyHint}`);
    const why = notText(head);
    if (why !== undefined) throw datasetInvalid(path, why);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/**
 * The bytes of `handle`'s file from its current position, read into one buffer of {@link CHUNK_BYTES} that every
 * read writes over: a chunk holds until the next one is asked for, and a caller copies what it keeps longer.
 * A stream (`createReadStream`) allocates each chunk anew: reading 100 MB took about 180 ms that way, and 35 ms so.
 * Closes nothing; a read error is thrown as it comes.
 */
export async function* reusedChunks(handle: FileHandle): AsyncGenerator<Buffer, void, undefined> {
  const buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * The file's bytes as {@link reusedChunks} (each valid until the next is asked for), closing the handle at the end,
 * without a leading UTF-8 byte order mark: every dataset reader's, each keeping only copies. An abort is thrown (its
 * reason) before the next read; a read error names the file as the open errors do.
 * An abort also closes the file as it comes (after a pending read): a consumer that stops on it need not end this
 * generator. `readJsonl`'s rows, which throw the abort's reason at the next row, left it suspended, and the file open until garbage collection closed it (Node.js warns, DEP0137).
 */
export async function* readReusedChunks(path: string, handle: FileHandle, signal?: AbortSignal): AsyncGenerator<Buffer, void, undefined> {
  const closeOnAbort = (): void => void handle.close().catch(() => undefined);
  signal?.addEventListener("abort", closeOnAbort, { once: true });
  try {
    let first = true;
    for await (const chunk of reusedChunks(handle)) {
      yield first && hasBom(chunk) ? chunk.subarray(3) : chunk;
      first = false;
      if (signal?.aborted === true) throw signal.reason;
    }
  } catch (err) {
    if (signal?.aborted === true) throw signal.reason;
    throw fileProblem(path, err);
  } finally {
    signal?.removeEventListener("abort", closeOnAbort);
    await handle.close().catch(() => undefined);
  }
}

/**
 * Index of the first byte of the first invalid UTF-8 sequence in `bytes[start, end)`, or -1 if all valid.
 * Rejects what `TextDecoder("utf-8", { fatal: true })` rejects: stray continuation bytes, overlong forms,
 * surrogates (U+D800–U+DFFF), code points above U+10FFFF, and a sequence cut off by `end`.
 */
export function firstInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0; // overlong
      else if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90; // overlong
      else if (c === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i;
    if (i + need >= end) return i;
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const b = bytes[i + k]!;
      if (b < 0x80 || b > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** How many bytes the UTF-8 sequence a lead byte (0xC0 and above) starts takes: 2, 3 or 4. */
export function utf8SequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
}

/** How many bytes at the end of `bytes` start a multi-byte sequence that the next chunk may complete (0–3). */
function incompleteTail(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const b = bytes[n - k]!;
    if (b < 0x80) return 0;
    if (b >= 0xc0) {
      return utf8SequenceLength(b) > k ? k : 0;
    }
  }
  return 0;
}

/**
 * Checks a byte stream for invalid UTF-8 chunk by chunk, for parsers that would stop on, or silently
 * replace, a bad byte. `push` returns the bytes to parse, with each invalid byte replaced by `replacement`
 * (default `?`: one byte for one, so that offsets hold), and the absolute offsets of those bytes in the
 * input; a sequence cut by the chunk's end waits for the next chunk. The all-valid case costs one native
 * `isUtf8` call per chunk and no copy.
 */
export class Utf8Sanitizer {
  private carry: Buffer | undefined;
  private offset = 0;

  constructor(private readonly replacement: Uint8Array = Buffer.from("?")) {}

  push(chunk: Buffer): { bytes: Buffer; bad: number[] } {
    const data = this.carry === undefined ? chunk : Buffer.concat([this.carry, chunk]);
    const keep = incompleteTail(data);
    this.carry = keep === 0 ? undefined : Buffer.from(data.subarray(data.length - keep));
    return this.clean(keep === 0 ? data : data.subarray(0, data.length - keep));
  }

  /** Bytes still carried at the end of the stream are a cut-off sequence. */
  end(): { bytes: Buffer; bad: number[] } {
    const data = this.carry ?? Buffer.alloc(0);
    this.carry = undefined;
    return this.clean(data);
  }

  private clean(data: Buffer): { bytes: Buffer; bad: number[] } {
    const base = this.offset;
    this.offset += data.length;
    if (isUtf8(data)) return { bytes: data, bad: [] };
    const parts: Uint8Array[] = [];
    const bad: number[] = [];
    let from = 0;
    let i = firstInvalidUtf8(data);
    while (i !== -1) {
      bad.push(base + i);
      parts.push(data.subarray(from, i), this.replacement);
      from = i + 1;
      i = firstInvalidUtf8(data, from);
    }
    parts.push(data.subarray(from));
    return { bytes: Buffer.concat(parts), bad };
  }
}
