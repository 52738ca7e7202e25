/**
 * A table of word vectors as loaded from a GloVe / fastText text file, the wink JSON or the binary
 * cache: the words in file order and their vectors, row-major. Files of this kind list their words
 * from the most to the least frequent, and that order is all we know about frequency (see `sif.ts`).
 */
import { lowerCase } from "../../metrics/lower-case.js";
import { wordTokens } from "../../metrics/tokens.js";

export interface WordTable {
  /** Words in file order (row `i` of `data` is `words[i]`), most frequent first. */
  readonly words: readonly string[];
  /** Components per vector. */
  readonly dim: number;
  /**
   * `words.length × dim` components, row-major: Float32, or int8 codes that {@link scales} turns back
   * into numbers (`value = code × scales[row]`).
   */
  readonly data: Float32Array | Int8Array;
  /** Per-row scale of int8 `data`; null for Float32. */
  readonly scales: Float32Array | null;
}

/**
 * Lower-cased word -> row, keeping the first (most frequent) row when a cased vocabulary (GloVe 840B,
 * fastText) has several spellings of one lower-cased word, because `wordTokens` lower-cases the text
 * (by {@link lowerCase}, as here: a final "ς" is "σ", as the text's words have it).
 */
export function indexWords(words: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < words.length; i++) {
    const key = lowerCase(words[i] as string);
    if (!index.has(key)) index.set(key, i);
  }
  return index;
}

/** `out += factor × row(i)` in float64, dequantising int8 rows on the way. */
export function addRow(table: WordTable, i: number, factor: number, out: Float64Array): void {
  const { dim, data, scales } = table;
  const f = scales === null ? factor : factor * (scales[i] as number);
  const base = i * dim;
  for (let j = 0; j < dim; j++) out[j] = (out[j] as number) + f * (data[base + j] as number);
}

/** The Euclidean norm of row `i` (dequantised when int8). */
export function rowNorm(table: WordTable, i: number): number {
  const { dim, data, scales } = table;
  const base = i * dim;
  let sum = 0;
  for (let j = 0; j < dim; j++) sum += (data[base + j] as number) ** 2;
  return Math.sqrt(sum) * (scales === null ? 1 : Math.abs(scales[i] as number));
}

/** Row `i` as float64 numbers (dequantised when int8). */
export function rowOf(table: WordTable, i: number): Float64Array {
  const out = new Float64Array(table.dim);
  addRow(table, i, 1, out);
  return out;
}

/**
 * Int8 quantisation with one scale per row: `scale = max|x| / 127`, `code = round(x / scale)`, so each
 * component is off by at most `scale / 2` (0.4% of the row's largest component). A zero row keeps scale 0.
 */
export function quantizeRows(data: Float32Array, dim: number): { data: Int8Array; scales: Float32Array } {
  const rows = dim === 0 ? 0 : data.length / dim;
  const codes = new Int8Array(data.length);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    const base = r * dim;
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(data[base + j] as number));
    if (max === 0) continue;
    const scale = Math.fround(max / 127);
    scales[r] = scale;
    for (let j = 0; j < dim; j++) codes[base + j] = Math.max(-127, Math.min(127, Math.round((data[base + j] as number) / scale)));
  }
  return { data: codes, scales };
}

/**
 * The rows whose (lower-cased) word is one whole `wordTokens` token, i.e. the words a text can
 * actually produce: punctuation and multi-token entries ("n't", "e-mail") are never looked up.
 */
export function tokenRows(index: ReadonlyMap<string, number>): number[] {
  const rows: number[] = [];
  for (const [word, row] of index) {
    if (isPlainAsciiWord(word)) rows.push(row);
    else {
      const tokens = wordTokens(word);
      if (tokens.length === 1 && tokens[0] === word) rows.push(row);
    }
  }
  return rows;
}

/** `[a-z0-9]+`: a whole word token for certain, checked without a regex (most of a vocabulary). */
function isPlainAsciiWord(word: string): boolean {
  if (word.length === 0) return false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return false;
  }
  return true;
}
