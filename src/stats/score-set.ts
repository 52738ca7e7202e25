/**
 * The scores of one evaluator over a run, in bounded memory and with exact figures. Up to
 * `memoryValues` scores (default 65,536, i.e. 512 KiB) are kept in memory; past that they are appended
 * to a temporary file (see {@link SpillFile}; the sets of a run may share one), 8 bytes a score, in
 * chunks of `memoryValues`, and the quantiles are found by radix selection over it (at most
 * three sequential reads of the file, whatever the number of quantiles), so that memory stays flat
 * whatever the row count while the median and percentiles stay exact.
 *
 * The first radix digit (the top 16 bits) is counted as scores go to the file, with the one score a digit
 * holds while it holds one distinct score. Scores of a run often take few values (0 and 1, the fractions
 * of short texts' edit distances) with a digit each: then every quantile and the histogram come from
 * those counts, and the file is not read at all.
 */
import { endianness, tmpdir } from "node:os";
import { histogramOf, histogramOfCounts, type Histogram } from "./histogram.js";
import { checkProbability, CompensatedSum, quantileRank, quantileSorted } from "./quantiles.js";
import { SpillFile } from "./spill-file.js";

export interface ScoreSetOptions {
  /** Scores kept in memory before the set spills to a temporary file. Default 65,536 (512 KiB). */
  memoryValues?: number;
  /** Folder of the temporary file. Default: the OS's temp folder. */
  dir?: string;
}

/** Scores read back from the file per read: 512 KiB. */
const READ_VALUES = 65_536;
/** A radix digit is 16 bits of the 64-bit key: 4 passes. */
const DIGIT_VALUES = 65_536;
/** Index of the high 32 bits of a double in a Uint32Array view. */
const HI = endianness() === "LE" ? 1 : 0;
const LO = 1 - HI;

/**
 * The first radix digit of scores, sparse: each digit seen, with how many scores have it and, while they
 * are all one score, that score's key (`hi`, `lo`), else marked mixed. Sparse because a run's scores take
 * few first digits (scores in [0, 1] of a few decimals take a few dozen) and a config may have hundreds of
 * evaluators: dense tables of all 65,536 digits took 832 KB per evaluator, 166 MB at 200.
 */
class FirstDigits {
  /** Slot of each digit seen. */
  private readonly slots = new Map<number, number>();
  private counts = new Uint32Array(8);
  private hi = new Uint32Array(8);
  private lo = new Uint32Array(8);
  private mixed = new Uint8Array(8);
  /** Digits whose scores differ. */
  mixedDigits = 0;

  /** Counts the first digits of the scores whose order-preserving keys are `keysHi[i]`, `keysLo[i]` (i < n). */
  count(keysHi: Uint32Array, keysLo: Uint32Array, n: number): void {
    let lastDigit = -1;
    let slot = 0;
    for (let i = 0; i < n; i++) {
      const d = keysHi[i]! >>> 16;
      if (d !== lastDigit) {
        lastDigit = d;
        const known = this.slots.get(d);
        slot = known ?? this.open(d, keysHi[i]!, keysLo[i]!);
      }
      this.counts[slot]!++;
      if (this.mixed[slot] === 0 && (this.hi[slot] !== keysHi[i] || this.lo[slot] !== keysLo[i])) {
        this.mixed[slot] = 1;
        this.mixedDigits++;
      }
    }
  }

  /** The digits seen, ascending: each with its count, and its one score while it holds one (else null). */
  entries(): { digit: number; count: number; value: number | null }[] {
    return [...this.slots]
      .sort((a, b) => a[0] - b[0])
      .map(([digit, slot]) => ({ digit, count: this.counts[slot]!, value: this.mixed[slot] === 0 ? fromKey(this.hi[slot]!, this.lo[slot]!) : null }));
  }

  clone(): FirstDigits {
    const copy = new FirstDigits();
    for (const [digit, slot] of this.slots) copy.slots.set(digit, slot);
    copy.counts = this.counts.slice();
    copy.hi = this.hi.slice();
    copy.lo = this.lo.slice();
    copy.mixed = this.mixed.slice();
    copy.mixedDigits = this.mixedDigits;
    return copy;
  }

  /** A slot for digit `d`, first seen with the key (`hi`, `lo`), its count 0. */
  private open(d: number, hi: number, lo: number): number {
    const slot = this.slots.size;
    if (slot === this.counts.length) {
      const grow = <T extends Uint32Array | Uint8Array>(a: T): T => {
        const bigger = new (a.constructor as new (n: number) => T)(a.length * 2);
        bigger.set(a);
        return bigger;
      };
      this.counts = grow(this.counts);
      this.hi = grow(this.hi);
      this.lo = grow(this.lo);
      this.mixed = grow(this.mixed);
    }
    this.slots.set(d, slot);
    this.hi[slot] = hi;
    this.lo[slot] = lo;
    return slot;
  }
}

interface Spill {
  /** Byte offset in the file of each chunk of `memoryValues` scores, in the order they were added. */
  chunks: number[];
  /** The first digits of the scores in the file. */
  digits: FirstDigits;
}

export class ScoreSet {
  private readonly memory: Float64Array;
  private size = 0;
  private sorted = true;
  private spill: Spill | null = null;
  private readonly file: SpillFile;
  private readonly ownsFile: boolean;
  private n = 0;
  private readonly sum = new CompensatedSum();
  private lo = Number.POSITIVE_INFINITY;
  private hi = Number.NEGATIVE_INFINITY;

  /**
   * `file`: a temporary file to share with other sets (`opts.dir` is then unused), which its owner
   * closes. Default: a file of this set's own, which {@link ScoreSet.close} deletes.
   */
  constructor(opts: ScoreSetOptions = {}, file?: SpillFile) {
    this.memory = new Float64Array(Math.max(1, opts.memoryValues ?? 65_536));
    this.ownsFile = file === undefined;
    this.file = file ?? new SpillFile(opts.dir ?? tmpdir());
  }

  /** How many scores were added. */
  get length(): number {
    return this.n;
  }

  /** True once the scores no longer fit in memory and some live in the temporary file. */
  get spilled(): boolean {
    return this.spill !== null;
  }

  /** Adds a finite score (the summary counts NaN and ±Infinity as errors before they get here). */
  add(x: number): void {
    this.n++;
    this.sum.add(x);
    if (x < this.lo) this.lo = x;
    if (x > this.hi) this.hi = x;
    if (this.size === this.memory.length) this.flush();
    this.memory[this.size++] = x;
    this.sorted = false;
  }

  /** The arithmetic mean Σxᵢ / n; `null` when empty. */
  mean(): number | null {
    return this.n ? this.sum.value / this.n : null;
  }

  min(): number | null {
    return this.n ? this.lo : null;
  }

  max(): number | null {
    return this.n ? this.hi : null;
  }

  /**
   * The exact p-quantile, Hyndman & Fan's definition 7 (see {@link quantileSorted}): with
   * h = (n − 1)·p, the order statistics x₍⌊h⌋₎ and x₍⌊h⌋+1₎ interpolated. `null` when empty.
   */
  quantile(p: number): number | null {
    return this.quantiles([p])[0] ?? null;
  }

  /** Several quantiles at once: once spilled, every order statistic they need comes from the same (at most 3) reads. */
  quantiles(ps: readonly number[]): (number | null)[] {
    ps.forEach(checkProbability);
    if (!this.spill) {
      if (!this.sorted) {
        this.memory.subarray(0, this.size).sort();
        this.sorted = true;
      }
      const sorted = this.memory.subarray(0, this.size);
      return ps.map((p) => quantileSorted(sorted, p));
    }
    const n = this.n;
    const ranks = ps.flatMap((p) => {
      const [k] = quantileRank(n, p);
      return k >= n - 1 ? [k] : [k, k + 1];
    });
    const needed = [...new Set(ranks)];
    const found = this.select(needed);
    const values = new Map(needed.map((k, i) => [k, found[i]!]));
    return ps.map((p) => {
      // The rank as quantileSorted takes it, so that a spilled set gives the figures an in-memory one does.
      const [k, frac] = quantileRank(n, p);
      const x = values.get(k)!;
      return k >= n - 1 || frac === 0 ? x : quantileSorted([x, values.get(k + 1)!], frac);
    });
  }

  /** Equal-width bins over the scores; see {@link histogramOf}. */
  histogram(opts: { bins: number; min: number; max: number }): Histogram {
    const digits = this.spill && this.allDigits();
    if (!digits || digits.mixedDigits > 0) return histogramOf(this.chunks(), opts);
    const entries = digits.entries();
    return histogramOfCounts(
      entries.map((e) => e.value!),
      entries.map((e) => e.count),
      opts,
    );
  }

  /** Deletes its own temporary file, if any (a shared one is its owner's to close); the set must not be used afterwards. */
  close(): void {
    if (this.ownsFile) this.file.close();
    this.spill = null;
  }

  /** Moves the in-memory scores (a full chunk) to the end of the temporary file. */
  private flush(): void {
    this.spill ??= { chunks: [], digits: new FirstDigits() };
    countFirstDigits(this.memory.subarray(0, this.size), this.spill.digits);
    this.spill.chunks.push(this.file.append(new Uint8Array(this.memory.buffer, 0, this.size * 8)));
    this.size = 0;
  }

  /** Every score, in chunks: the file's (read into one reused buffer), then memory's. */
  private *chunks(): Generator<Float64Array> {
    if (this.spill) {
      const chunk = this.memory.length;
      const buffer = new Float64Array(Math.min(READ_VALUES, chunk));
      for (const offset of this.spill.chunks) {
        for (let start = 0; start < chunk; start += buffer.length) {
          const count = Math.min(buffer.length, chunk - start);
          this.file.read(offset + start * 8, new Uint8Array(buffer.buffer, 0, count * 8));
          yield buffer.subarray(0, count);
        }
      }
    }
    yield this.memory.subarray(0, this.size);
  }

  /**
   * The k-th smallest scores (0-based) for each k of `ranks`, by radix selection on the scores' 64-bit
   * order-preserving keys. The first 16 bits come from the counts kept as scores were written (see
   * {@link FirstDigits}); a rank whose first digit holds one distinct score is done. For the others, pass d
   * (1..3) over the scores counts the d-th 16 bits of the keys that share the digits chosen so far for a
   * rank, which fixes that rank's next digit. After the third pass the whole key, and so the score, is
   * known: nothing is collected, whatever the number of equal scores.
   */
  private select(ranks: readonly number[]): number[] {
    const digits = this.allDigits().entries();
    const state = ranks.map((k) => {
      let i = 0;
      while (k >= digits[i]!.count) k -= digits[i++]!.count;
      // A digit that holds one distinct score gives it at once.
      return { k, hi: (digits[i]!.digit << 16) >>> 0, lo: 0, known: digits[i]!.value };
    });
    const open = state.filter((s) => s.known === null);
    let keysHi = new Uint32Array(0);
    let keysLo = new Uint32Array(0);
    for (let level = 1; level < 4 && open.length; level++) {
      // Ranks that share a prefix share a count table.
      const groups = new Map<string, { hi: number; lo: number; counts: Uint32Array }>();
      for (const s of open) {
        const id = `${s.hi}:${s.lo}`;
        if (!groups.has(id)) groups.set(id, { hi: s.hi, lo: s.lo, counts: new Uint32Array(DIGIT_VALUES) });
      }
      const tables = [...groups.values()];
      for (const chunk of this.chunks()) {
        const n = chunk.length;
        if (keysHi.length < n) {
          keysHi = new Uint32Array(n);
          keysLo = new Uint32Array(n);
        }
        orderKeys(new Uint32Array(chunk.buffer, chunk.byteOffset, n * 2), n, keysHi, keysLo);
        for (const t of tables) countDigits(level, keysHi, keysLo, n, t.hi, t.lo, t.counts);
      }
      for (const s of open) {
        const counts = groups.get(`${s.hi}:${s.lo}`)!.counts;
        let digit = 0;
        while (s.k >= counts[digit]!) s.k -= counts[digit++]!;
        if (level === 1) s.hi = (s.hi | digit) >>> 0;
        else if (level === 2) s.lo = (digit << 16) >>> 0;
        else s.lo = (s.lo | digit) >>> 0;
      }
    }
    return state.map((s) => s.known ?? fromKey(s.hi, s.lo));
  }

  /** The first digits of every score: the file's, counted as it was written, and memory's, counted now. */
  private allDigits(): FirstDigits {
    const digits = this.spill!.digits.clone();
    countFirstDigits(this.memory.subarray(0, this.size), digits);
    return digits;
  }
}

/** Counts the first digits of `scores` into `digits`. */
function countFirstDigits(scores: Float64Array, digits: FirstDigits): void {
  const n = scores.length;
  const keysHi = new Uint32Array(n);
  const keysLo = new Uint32Array(n);
  orderKeys(new Uint32Array(scores.buffer, scores.byteOffset, n * 2), n, keysHi, keysLo);
  digits.count(keysHi, keysLo, n);
}

/**
 * The order-preserving keys of n doubles given as 2n 32-bit words: every bit of a negative double
 * flipped, only the sign bit of a positive one, so that keys compare as unsigned integers as the
 * doubles compare. Small separate loops, so that they are optimised once and stay so across calls.
 */
function orderKeys(words: Uint32Array, n: number, keysHi: Uint32Array, keysLo: Uint32Array): void {
  for (let i = 0; i < n; i++) {
    const hi = words[2 * i + HI]!;
    const lo = words[2 * i + LO]!;
    const negative = hi >>> 31;
    keysHi[i] = negative ? ~hi : hi | 0x80000000;
    keysLo[i] = negative ? ~lo : lo;
  }
}

/**
 * Counts digit `level` (1 to 3; 16 bits each, from the top) of the keys whose higher digits equal the
 * prefix's. The first digit is counted as scores are written ({@link countFirstDigits}).
 */
function countDigits(level: number, keysHi: Uint32Array, keysLo: Uint32Array, n: number, prefixHi: number, prefixLo: number, counts: Uint32Array): void {
  if (level === 1) {
    const top = prefixHi >>> 16;
    for (let i = 0; i < n; i++) if (keysHi[i]! >>> 16 === top) counts[keysHi[i]! & 0xffff]!++;
  } else if (level === 2) {
    for (let i = 0; i < n; i++) if (keysHi[i] === prefixHi) counts[keysLo[i]! >>> 16]!++;
  } else {
    const top = prefixLo >>> 16;
    for (let i = 0; i < n; i++) if (keysHi[i] === prefixHi && keysLo[i]! >>> 16 === top) counts[keysLo[i]! & 0xffff]!++;
  }
}

/** The double whose order-preserving key is (hi, lo): the inverse of {@link orderKeys}. */
function fromKey(hi: number, lo: number): number {
  const words = new Uint32Array(2);
  if (hi & 0x80000000) {
    words[HI] = (hi & 0x7fffffff) >>> 0;
    words[LO] = lo;
  } else {
    words[HI] = ~hi >>> 0;
    words[LO] = ~lo >>> 0;
  }
  return new Float64Array(words.buffer)[0]!;
}
