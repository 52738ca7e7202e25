/**
 * The scores of one evaluator over a run, in bounded memory and with exact figures. Up to
 * `memoryValues` scores (default 262,144, i.e. 2 MiB) are kept in memory; past that they are appended
 * to a temporary file, 8 bytes a score, and the quantiles are found by radix selection over it (a few
 * sequential reads of the file per quantile), so that memory stays flat whatever the row count while
 * the median and percentiles stay exact.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { endianness, tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { EvalError } from "../errors.js";
import { histogramOf, type Histogram } from "./histogram.js";
import { checkProbability, quantileSorted } from "./quantiles.js";

export interface ScoreSetOptions {
  /** Scores kept in memory before the set spills to a temporary file. Default 262,144 (2 MiB). */
  memoryValues?: number;
  /** Folder of the temporary file. Default: the OS's temp folder. */
  dir?: string;
}

/** Scores read back from the file per read: 512 KiB. */
const READ_VALUES = 65_536;
/** A radix digit is 16 bits of the 64-bit key: 4 levels at most. */
const DIGIT_VALUES = 65_536;
/** Index of the high 32 bits of a double in a Uint32Array view. */
const HI = endianness() === "LE" ? 1 : 0;
const LO = 1 - HI;

interface Spill {
  fd: number;
  path: string;
  /** Scores written to the file. */
  count: number;
  /** False once the file was unlinked while open (POSIX), so nothing is left behind even on a crash. */
  linked: boolean;
}

export class ScoreSet {
  private readonly memory: Float64Array;
  private size = 0;
  private sorted = true;
  private spill: Spill | null = null;
  private readonly dir: string;
  private n = 0;
  private sum = 0;
  private compensation = 0;
  private lo = Number.POSITIVE_INFINITY;
  private hi = Number.NEGATIVE_INFINITY;

  constructor(opts: ScoreSetOptions = {}) {
    this.memory = new Float64Array(Math.max(1, opts.memoryValues ?? 262_144));
    this.dir = opts.dir ?? tmpdir();
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
    // Neumaier's compensated summation, so that millions of scores lose no precision.
    const t = this.sum + x;
    this.compensation += Math.abs(this.sum) >= Math.abs(x) ? this.sum - t + x : x - t + this.sum;
    this.sum = t;
    if (x < this.lo) this.lo = x;
    if (x > this.hi) this.hi = x;
    if (this.size === this.memory.length) this.flush();
    this.memory[this.size++] = x;
    this.sorted = false;
  }

  /** The arithmetic mean Σxᵢ / n; `null` when empty. */
  mean(): number | null {
    return this.n ? (this.sum + this.compensation) / this.n : null;
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
    checkProbability(p);
    if (!this.spill) {
      if (!this.sorted) {
        this.memory.subarray(0, this.size).sort();
        this.sorted = true;
      }
      return quantileSorted(this.memory.subarray(0, this.size), p);
    }
    const n = this.n;
    const h = (n - 1) * p;
    const k = Math.floor(h);
    const x = this.select(k);
    if (k >= n - 1 || h === k) return x;
    const y = this.select(k + 1);
    return quantileSorted([x, y], h - k);
  }

  /** Equal-width bins over the scores; see {@link histogramOf}. */
  histogram(opts: { bins: number; min: number; max: number }): Histogram {
    return histogramOf(this.chunks(), opts);
  }

  /** Deletes the temporary file, if any; the set must not be used afterwards. */
  close(): void {
    if (!this.spill) return;
    closeSync(this.spill.fd);
    if (this.spill.linked) unlinkSync(this.spill.path);
    this.spill = null;
  }

  /** Moves the in-memory scores to the end of the temporary file, opening it on first use. */
  private flush(): void {
    if (!this.spill) {
      const path = join(this.dir, `simeval-scores-${process.pid}-${randomBytes(6).toString("hex")}.f64`);
      let fd: number;
      try {
        fd = openSync(path, "w+", 0o600);
      } catch (error) {
        throw new EvalError("STORE_FAILED", `Cannot keep the run's scores in a temporary file at ${path}: ${(error as Error).message}`);
      }
      let linked = true;
      try {
        unlinkSync(path);
        linked = false;
      } catch {
        // Windows cannot unlink an open file; close() does it.
      }
      this.spill = { fd, path, count: 0, linked };
    }
    const bytes = new Uint8Array(this.memory.buffer, 0, this.size * 8);
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(this.spill.fd, bytes, written, bytes.length - written, this.spill.count * 8 + written);
    }
    this.spill.count += this.size;
    this.size = 0;
  }

  /** Every score, in chunks: the file's (read into one reused buffer), then memory's. */
  private *chunks(): Generator<Float64Array> {
    if (this.spill) {
      const buffer = new Float64Array(READ_VALUES);
      const bytes = new Uint8Array(buffer.buffer);
      for (let start = 0; start < this.spill.count; start += READ_VALUES) {
        const count = Math.min(READ_VALUES, this.spill.count - start);
        let read = 0;
        while (read < count * 8) {
          const r = readSync(this.spill.fd, bytes, read, count * 8 - read, start * 8 + read);
          if (r === 0) throw new EvalError("STORE_FAILED", `The run's temporary score file ${this.spill.path} ended early`);
          read += r;
        }
        yield buffer.subarray(0, count);
      }
    }
    yield this.memory.subarray(0, this.size);
  }

  /**
   * The k-th smallest score (0-based), by radix selection on the scores' 64-bit order-preserving keys:
   * each pass counts the next 16 bits of the keys that share the digits chosen so far, until the
   * chosen digit holds few enough scores to collect and sort.
   */
  private select(k: number): number {
    let prefixHi = 0;
    let prefixLo = 0;
    for (let level = 0; level < 4; level++) {
      const counts = new Float64Array(DIGIT_VALUES);
      this.forEachKey(level, prefixHi, prefixLo, (d) => {
        counts[d]!++;
      });
      let digit = 0;
      while (k >= counts[digit]!) k -= counts[digit++]!;
      if (level === 0) prefixHi = digit << 16;
      else if (level === 1) prefixHi = (prefixHi | digit) >>> 0;
      else if (level === 2) prefixLo = digit << 16;
      else prefixLo = (prefixLo | digit) >>> 0;
      if (counts[digit]! <= DIGIT_VALUES || level === 3) {
        const matches = new Float64Array(counts[digit]!);
        let m = 0;
        this.forEachKey(level + 1, prefixHi, prefixLo, (_d, x) => {
          matches[m++] = x;
        });
        return matches.sort()[k]!;
      }
    }
    throw new Error("unreachable: the last level always collects");
  }

  /**
   * Calls `fn(digit, score)` for every score whose key's first `level` digits equal the prefix's, with
   * the key's digit at `level` (0..3; 4 = all digits fixed).
   */
  private forEachKey(level: number, prefixHi: number, prefixLo: number, fn: (digit: number, x: number) => void): void {
    for (const chunk of this.chunks()) {
      const words = new Uint32Array(chunk.buffer, chunk.byteOffset, chunk.length * 2);
      for (let i = 0; i < chunk.length; i++) {
        let hi = words[2 * i + HI]!;
        let lo = words[2 * i + LO]!;
        // Order-preserving key: flip every bit of a negative double, only the sign bit of a positive one.
        if (hi & 0x80000000) {
          hi = ~hi >>> 0;
          lo = ~lo >>> 0;
        } else hi = (hi | 0x80000000) >>> 0;
        let digit: number;
        if (level === 0) digit = hi >>> 16;
        else if (level === 1) {
          if (hi >>> 16 !== prefixHi >>> 16) continue;
          digit = hi & 0xffff;
        } else if (level === 2) {
          if (hi !== prefixHi) continue;
          digit = lo >>> 16;
        } else if (level === 3) {
          if (hi !== prefixHi || lo >>> 16 !== prefixLo >>> 16) continue;
          digit = lo & 0xffff;
        } else {
          if (hi !== prefixHi || lo !== prefixLo) continue;
          digit = 0;
        }
        fn(digit, chunk[i]!);
      }
    }
  }
}
