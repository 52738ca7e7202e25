/**
 * Counting a text's overlapping character n-grams without a string per n-gram: on a 50 MB text,
 * making (and hashing) 50 million short strings costs minutes and gigabytes. Each n-gram is coded
 * as a number instead, its code points numbered in first-seen order and read as digits in base
 * "alphabet size"; the codes are counted in a typed-array hash table, and a string is made once per
 * distinct n-gram. Same tokens, counts and first-seen order as counting `charNgrams`.
 */

/** The distinct code points of a text, numbered 0, 1, 2… in first-seen order. */
class Alphabet {
  /** Latin-1 code points (most text) by table, symbol + 1 (0: not seen yet); the others by Map. */
  private readonly latin1 = new Int32Array(256);
  private readonly others = new Map<number, number>();
  size = 0;

  /** The symbol of code point `cp`, numbering it if new. */
  symbol(cp: number): number {
    if (cp < 256) {
      const s = this.latin1[cp]!;
      if (s > 0) return s - 1;
      this.latin1[cp] = ++this.size;
      return this.size - 1;
    }
    let s = this.others.get(cp);
    if (s === undefined) this.others.set(cp, (s = this.size++));
    return s;
  }
}

/**
 * Token -> count of the overlapping n-grams of code points of `text` (already prepared: case rule
 * applied, white space collapsed), in first-seen order. A text of at most `n` code points is one token,
 * an empty one none, as `charNgrams` says.
 */
export function countCharNgrams(text: string, n: number): Map<string, number> {
  const alphabet = new Alphabet();
  let points = 0;
  for (let i = 0; i < text.length; i += unitsAt(text, i)) {
    alphabet.symbol(text.codePointAt(i)!);
    points++;
  }
  if (points === 0) return new Map();
  if (points <= n) return new Map([[text, 1]]);
  return codesFit(alphabet.size, n) ? countByCode(text, n, alphabet) : countBySlice(text, n);
}

/** Whether every n-gram code (< size^n) is an integer a double holds exactly. */
function codesFit(size: number, n: number): boolean {
  let power = 1;
  for (let k = 0; k < n; k++) if ((power *= size) > Number.MAX_SAFE_INTEGER) return false;
  return true;
}

/** 2 for a surrogate pair at `i`, else 1: the code units of the code point there (as the string iterator reads them). */
function unitsAt(text: string, i: number): number {
  return text.codePointAt(i)! > 0xffff ? 2 : 1;
}

/** Where the n-gram starting at code unit `start` ends. */
function ngramEnd(text: string, start: number, n: number): number {
  let end = start;
  for (let k = 0; k < n; k++) end += unitsAt(text, end);
  return end;
}

/**
 * {@link countCharNgrams} by rolling code: the window's code drops its first digit and takes the next
 * code point's symbol as its last. `ring` holds the window's symbols and start offsets.
 */
function countByCode(text: string, n: number, alphabet: Alphabet): Map<string, number> {
  const base = alphabet.size;
  const first = base ** (n - 1); // exact: below size^n, which fits
  const symbols = new Float64Array(n);
  const starts = new Int32Array(n);
  const counter = new CodeCounter();
  let code = 0;
  for (let i = 0, p = 0, slot = 0; i < text.length; p++) {
    const cp = text.codePointAt(i)!;
    const s = alphabet.symbol(cp);
    if (p >= n) code -= symbols[slot]! * first;
    code = code * base + s;
    symbols[slot] = s;
    starts[slot] = i;
    i += cp > 0xffff ? 2 : 1;
    if (++slot === n) slot = 0;
    if (p >= n - 1) counter.add(code, starts[slot]!); // the oldest start: the window's
  }
  return counter.toMap(text, n);
}

/** {@link countCharNgrams} by one slice per n-gram, for alphabets too large to code n-grams exactly. */
function countBySlice(text: string, n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let start = 0, end = ngramEnd(text, 0, n); ; ) {
    const gram = text.slice(start, end);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
    if (end >= text.length) return counts;
    start += unitsAt(text, start);
    end += unitsAt(text, end);
  }
}

/**
 * Code -> count, open addressing over typed arrays (no allocation per add), each code with its first
 * start offset, and the slots in first-seen order.
 */
class CodeCounter {
  private codes = new Float64Array(64);
  /** 0: a free slot. */
  private counts = new Int32Array(64);
  private starts = new Int32Array(64);
  /** The slot of each code, in first-seen order (the table is at most half full: it fits). */
  private order = new Int32Array(64);
  private size = 0;
  /** 32 - log2(slots): a hash's top bits pick its slot. */
  private shift = 32 - 6;

  add(code: number, start: number): void {
    const mask = this.counts.length - 1;
    for (let h = this.hash(code); ; h = (h + 1) & mask) {
      const count = this.counts[h]!;
      if (count === 0) return this.insert(h, code, start);
      if (this.codes[h] === code) {
        this.counts[h] = count + 1;
        return;
      }
    }
  }

  /** Token -> count in first-seen order, a string made once per distinct n-gram (at its first start). */
  toMap(text: string, n: number): Map<string, number> {
    const map = new Map<string, number>();
    for (let e = 0; e < this.size; e++) {
      const h = this.order[e]!;
      const start = this.starts[h]!;
      map.set(text.slice(start, ngramEnd(text, start, n)), this.counts[h]!);
    }
    return map;
  }

  /** Fibonacci hashing of the code's low and high 32 bits. */
  private hash(code: number): number {
    const mixed = (code >>> 0) ^ Math.imul((code / 0x100000000) >>> 0, 0x27d4eb2d);
    return Math.imul(mixed, 0x9e3779b1) >>> this.shift;
  }

  private insert(slot: number, code: number, start: number): void {
    this.codes[slot] = code;
    this.counts[slot] = 1;
    this.starts[slot] = start;
    this.order[this.size] = slot;
    if (++this.size * 2 > this.counts.length) this.grow();
  }

  /** Doubles the table (kept at most half full) and places every entry again, in first-seen order. */
  private grow(): void {
    const { codes, counts, starts } = this;
    const length = counts.length * 2;
    this.codes = new Float64Array(length);
    this.counts = new Int32Array(length);
    this.starts = new Int32Array(length);
    const order = this.order;
    this.order = new Int32Array(length);
    this.shift--;
    for (let e = 0; e < this.size; e++) {
      const old = order[e]!;
      let h = this.hash(codes[old]!);
      while (this.counts[h] !== 0) h = (h + 1) & (length - 1);
      this.codes[h] = codes[old]!;
      this.counts[h] = counts[old]!;
      this.starts[h] = starts[old]!;
      this.order[e] = h;
    }
  }
}
