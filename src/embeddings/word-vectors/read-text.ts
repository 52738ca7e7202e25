import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { EvalError } from "../../errors.js";
import type { WordTable } from "./table.js";
import { cutText } from "../../cut-text.js";

/**
 * Reads a word-vector text file, streaming (GloVe 840B is 5.6 GB):
 * - GloVe: one `word v1 … vd` line per word;
 * - fastText `.vec`: the same after a header line `count dim`, which is then checked against the file.
 * Fields are separated by spaces (tabs too); trailing spaces (fastText writes one) are ignored. The
 * dimension is the header's, or the first line's field count minus one. A line with more fields than
 * `d + 1` keeps its last `d` as the vector and the rest as the word, because GloVe 840B has words
 * containing spaces (". . .", "to name@domain.com"; also with the header gensim's glove2word2vec adds),
 * none of whose parts is a number: so when the field just before the last `d` is a number too, the
 * line has more numbers than the dimension, and that is an error, as too few are. Blank lines are
 * skipped. Anything else (too few or too many numbers, a non-number) is an error naming `file:line`,
 * the numbers expected (and whether the header or line 1 set that dimension) and those found. A
 * malformed, empty or unreadable file is CONFIG_INVALID (exit 2, as for a missing one: the config names
 * it, and only its owner can fix it); an I/O failure while reading is PROVIDER_FAILED. Words
 * keep file order: these files list the most frequent words first.
 */
export async function readTextVectors(file: string): Promise<WordTable> {
  const fail = (line: number, what: string) => unusableVectorsFile(file, `${file}:${line}: ${what}`);
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  const words: string[] = [];
  const chunks: Float32Array[] = [];
  // Vectors go into fixed-size chunks, concatenated once at the end, so memory is never copied twice.
  const CHUNK_ROWS = 16_384;
  let chunk: Float32Array | null = null;
  let inChunk = 0;
  let dim = 0;
  let declared: number | null = null;
  let lineNo = 0;
  try {
    for await (const raw of lines) {
      lineNo++;
      // A UTF-8 byte order mark (Windows editors write one), as the dataset and config readers drop it:
      // kept, it hid the first word ("\uFEFFthe") or a fastText header, which made every line misread.
      const line = (lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw).trimEnd();
      if (line === "") continue;
      const fields = line.split(/[ \t]+/);
      if (dim === 0) {
        if (lineNo === 1 && fields.length === 2 && fields.every((f) => /^\d+$/.test(f))) {
          declared = Number(fields[0]);
          dim = Number(fields[1]);
          if (dim < 1) throw fail(lineNo, `the fastText header "${line}" declares ${dim} dimensions; expected "count dim" with dim >= 1`);
          continue;
        }
        dim = fields.length - 1;
        if (dim < 1) throw fail(lineNo, `expected a word followed by its vector ("word v1 v2 …"), found one field "${shorten(line)}"`);
      }
      if (fields.length < dim + 1) {
        throw fail(lineNo, `expected ${dim + 1} fields (a word and ${dim} numbers${dimFrom(declared)}), found ${fields.length}: "${shorten(line)}"`);
      }
      const first = fields.length - dim;
      if (first > 1 && isNumber(fields[first - 1] as string)) {
        // The numbers at the end of the line, after the word (its first field, whatever it is).
        let start = first - 1;
        while (start > 1 && isNumber(fields[start - 1] as string)) start--;
        const numbers = fields.length - start;
        throw fail(lineNo, `expected ${dim + 1} fields (a word and ${dim} numbers${dimFrom(declared)}), found ${fields.length} (a word and ${numbers} numbers): "${shorten(line)}"`);
      }
      if (chunk === null || inChunk === CHUNK_ROWS) {
        chunk = new Float32Array(CHUNK_ROWS * dim);
        chunks.push(chunk);
        inChunk = 0;
      }
      const base = inChunk * dim;
      for (let j = 0; j < dim; j++) {
        const field = fields[first + j] as string;
        const x = Number(field);
        if (field === "" || !Number.isFinite(x)) throw fail(lineNo, `component ${j + 1} of "${shorten(fields.slice(0, first).join(" "))}" is "${shorten(field)}", expected a finite number`);
        chunk[base + j] = x;
      }
      inChunk++;
      words.push(fields.slice(0, first).join(" "));
    }
  } catch (cause) {
    if (cause instanceof EvalError) throw cause;
    const why = `could not read ${file}: ${(cause as Error).message}`;
    // Gone or not readable: the named file is the user's to fix, as a missing one is; anything else (EIO) is a failure.
    if (USER_ERRNOS.has((cause as NodeJS.ErrnoException).code ?? "")) throw unusableVectorsFile(file, why, cause);
    throw new EvalError("PROVIDER_FAILED", `word_vectors: ${why}`, { cause });
  } finally {
    lines.close();
  }
  if (words.length === 0) throw unusableVectorsFile(file, `${file} holds no word vectors; expected GloVe lines "word v1 … vd" or a fastText .vec file`);
  if (declared !== null && declared !== words.length) {
    throw unusableVectorsFile(file, `${file}: the fastText header declares ${declared} words but the file has ${words.length}; is it truncated?`);
  }
  const data = new Float32Array(words.length * dim);
  let at = 0;
  for (const c of chunks) {
    const take = Math.min(c.length, data.length - at);
    data.set(c.subarray(0, take), at);
    at += take;
  }
  return { words, dim, data, scales: null };
}

const USER_ERRNOS = new Set(["ENOENT", "EACCES", "EPERM", "EISDIR"]);

/**
 * The file the config names (`path`) cannot be used: CONFIG_INVALID (exit 2), as a missing file is in
 * `resolveVectorSource`, since only the user can fix it. `what` names the file (and the line).
 */
export function unusableVectorsFile(file: string, what: string, cause?: unknown): EvalError {
  return new EvalError("CONFIG_INVALID", `word_vectors: ${what}`, {
    issues: [{ path: ["config", "path"], message: `vectors file: ${what}`, received: file }],
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A field that reads as a finite number (what a vector component must be). */
function isNumber(field: string): boolean {
  return field !== "" && Number.isFinite(Number(field));
}

/** Where the dimension came from, for messages: the fastText header, or the first line's field count. */
function dimFrom(declared: number | null): string {
  return declared === null ? ", the dimension of the first line" : ", the dimension the fastText header declares";
}

function shorten(s: string): string {
  return cutText(s, 40);
}
