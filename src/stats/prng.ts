/**
 * A small, seeded pseudo-random generator for resampling (bootstrap, permutation tests), so that a
 * comparison gives the same figures every time it is run with the same seed.
 *
 * Why not `Math.random`: it cannot be seeded. Why not mulberry32: its period is 2^32, and one
 * 1,000,000-pair × 10,000-resample bootstrap draws 10^10 numbers, so it would wrap around and repeat
 * whole resamples. xoshiro128** has period 2^128 − 1, passes BigCrush, and needs only 32-bit integer
 * operations, which V8 runs fast.
 */

/** splitmix32's output function: a bijective 32-bit mixer, used to spread a seed over the state. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * 32-bit FNV-1a hash of a string's UTF-16 units. Used to derive independent streams per evaluator name,
 * so that one evaluator's figures do not change when another evaluator is added to a comparison.
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * xoshiro128** 1.0 (Blackman & Vigna, 2018, https://prng.di.unimi.it/xoshiro128starstar.c):
 * 128 bits of state, 32-bit outputs, period 2^128 − 1.
 *
 * `Xoshiro128.fromSeed(seed)` fills the state with splitmix32 (Vigna's recommended seeding) from a
 * 32-bit integer seed (any number is reduced to its low 32 bits), so seeds 0, 1, 2… give unrelated
 * streams and the all-zero state cannot occur.
 */
export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** Raw state; at least one word must be non-zero. Prefer {@link Xoshiro128.fromSeed}. */
  constructor(s0: number, s1: number, s2: number, s3: number) {
    this.s0 = s0 | 0;
    this.s1 = s1 | 0;
    this.s2 = s2 | 0;
    this.s3 = s3 | 0;
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1; // the one state that never leaves 0
  }

  /** A generator seeded from `seed` (and optional extra words, e.g. a hash of a name) via splitmix32. */
  static fromSeed(seed: number, ...salt: number[]): Xoshiro128 {
    let x = seed >>> 0;
    for (const s of salt) x = mix32((x ^ (s >>> 0)) + 0x9e3779b9);
    const words: number[] = [];
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      words.push(mix32(x));
    }
    return new Xoshiro128(words[0] ?? 1, words[1] ?? 0, words[2] ?? 0, words[3] ?? 0);
  }

  /** The next 32-bit output, as an unsigned integer in [0, 2^32). */
  nextUint32(): number {
    const s1 = this.s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /** A uniform double in [0, 1) with 53 random bits (two outputs), as numpy's `next_double`. */
  nextDouble(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /**
   * A uniform integer in [0, n), for an integer 1 ≤ n < 2^32, without modulo bias: Lemire's
   * multiply-shift with rejection ("Fast random integer generation in an interval", 2019):
   * with x·n = hi·2^32 + lo, return hi unless lo < 2^32 mod n. The 64-bit product is split into
   * pieces below 2^53 so that every step is exact in doubles.
   */
  nextBelow(n: number): number {
    const reject = 4294967296 % n;
    for (;;) {
      const x = this.nextUint32();
      const lo = Math.imul(x, n) >>> 0;
      if (lo < reject) continue;
      const a = (x >>> 16) * n; // x·n = a·2^16 + b, both below 2^48
      const b = (x & 0xffff) * n;
      const aHigh = Math.floor(a / 65536);
      return aHigh + Math.floor(((a - aHigh * 65536) * 65536 + b) / 4294967296);
    }
  }

  /**
   * Σ values[start + jₜ] over `count` positions jₜ drawn uniformly and independently from [0, size),
   * 1 ≤ size ≤ 2^16. Each 32-bit output gives two 16-bit halves (xoshiro128**'s low bits are as good as
   * its high ones); a half, cut to the bits of the next power of two ≥ size, is used when below size and
   * skipped otherwise (rejection: exact, and at most half are skipped). This is the inner loop of a
   * bootstrap, with the state in local variables: a method call per draw costs twice as much in V8.
   */
  sumOfPicks(values: Float64Array, start: number, size: number, count: number): number {
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    let bits = 0;
    while (1 << bits < size) bits++;
    const shift = 16 - bits;
    // Two accumulators: one long chain of dependent additions would make the adder's latency the limit.
    let sumHigh = 0;
    let sumLow = 0;
    let left = count;
    while (left > 0) {
      const x = Math.imul(s1, 5);
      const out = Math.imul((x << 7) | (x >>> 25), 9);
      const u = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= u;
      s3 = (s3 << 11) | (s3 >>> 21);
      const j = out >>> (16 + shift);
      if (j < size) {
        sumHigh += values[start + j] as number;
        left--;
      }
      const k = (out & 0xffff) >>> shift;
      if (k < size && left > 0) {
        sumLow += values[start + k] as number;
        left--;
      }
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
    return sumHigh + sumLow;
  }
}

/**
 * mulberry32: a tiny seeded generator of numbers in [0, 1) for fixtures, examples and benchmark corpora.
 * Its period is 2^32, too short for resampling (use {@link Xoshiro128} there), plenty for test data.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
