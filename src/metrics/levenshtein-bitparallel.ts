/**
 * Bit-parallel Levenshtein distance in plain TypeScript with 32-bit words.
 *
 * This is the engine that works everywhere (no WebAssembly needed) and the one
 * used for short strings, where it beats a WebAssembly call. Algorithms:
 *   - Myers (1999) / Hyyrö (2003) in one machine word when the shorter side
 *     has at most 32 symbols: O(n) word operations.
 *   - Hyyrö's banded "small band" variant (a 32-bit window that slides along
 *     the diagonal) when 2k+1 ≤ 32 for a known bound k: O(n) whatever m is.
 *   - Blocked Hyyrö (one 32-bit block per 32 pattern symbols) restricted to
 *     Ukkonen's band of blocks that can still be within k of the diagonal:
 *     O(⌈m/32⌉·n) without a bound, O(⌈k/32⌉·n) with one.
 *   - Without a bound, bands of 15, 30, 60, … (up to n/16) are tried first,
 *     as rapidfuzz does, so near-duplicates of any length cost O(d·n/32).
 *   - When the band would cover most rows anyway, an unbanded blocked run
 *     that advances two text columns at once (their carry chains are
 *     independent, so the CPU overlaps them).
 *
 * Symbols are compacted to ids 1..σ (σ = distinct symbols of the pattern; 0
 * marks a text symbol absent from the pattern), so the match table (Peq) is
 * (σ+1)·⌈m/32⌉ words — or a 64-slot hash table per block when that would be
 * too large — and memory stays linear in the input.
 *
 * Index reads use `!`: every index is bounded by the loop that produces it and
 * the scratch buffers are grown to fit before use.
 */

const WORD = 32;
/** Bit 31, the sign bit of an int32. */
const TOP = 0x80000000 | 0;
/** Dense Peq tables above this many entries switch to per-block hashing. */
const DENSE_LIMIT_DEFAULT = 1 << 22;
let denseLimit = DENSE_LIMIT_DEFAULT;

/** Symbol (0..0xFFFF) → compact id; all zero between calls. */
const bmpIds = new Int32Array(0x10000);
/** UTF-16 unit → match mask for the short-string path; all zero between calls. */
const unitPeq = new Int32Array(0x10000);

// Scratch buffers, reused: the engine is synchronous and never re-entered.
let patternIds: Int32Array = new Int32Array(256);
let textIds: Int32Array = new Int32Array(256);
let peq: Int32Array = new Int32Array(256);
let hashKeys: Int32Array = new Int32Array(0);
let vpBlocks: Int32Array = new Int32Array(16);
let vnBlocks: Int32Array = new Int32Array(16);
let scores: Int32Array = new Int32Array(16);
let bandPos: Int32Array = new Int32Array(64);
let bandMask: Int32Array = new Int32Array(64);

function grow(buffer: Int32Array, size: number): Int32Array {
  return buffer.length >= size ? buffer : new Int32Array(Math.max(size, buffer.length * 2));
}

/** Logical right shift that yields 0 for shifts ≥ 32 (JS masks the count). */
function shr(x: number, s: number): number {
  return s >= WORD ? 0 : x >>> s;
}

/**
 * For tests: the number of (σ+1)·blocks Peq entries above which blocked runs
 * use per-block hash tables instead of a dense table. Pass `undefined` to
 * restore the default (4M entries, 16 MiB).
 */
export function setDenseLimitForTests(entries: number | undefined): void {
  denseLimit = entries ?? DENSE_LIMIT_DEFAULT;
}

/**
 * Levenshtein distance over integer symbols with 32-bit bit-parallelism.
 *
 * Cost 1 per insertion, deletion or substitution; symbols compare with `===`.
 * Strips the common prefix and suffix (O(m + n)), then, for the remainders
 * m ≤ n: O(n) word steps when m ≤ 32 or 2k+1 ≤ 32; with a bound k about
 * ⌈(2k+1)/32⌉·n; without one about ⌈(2d+1)/32⌉·n when the distance d is below
 * n/16 (band trials), else ⌈n/32⌉·m. With a finite `maxDistance` the result is
 * exact when ≤ maxDistance and maxDistance + 1 otherwise (early stop).
 * Memory O(m + n) plus a Peq table of at most 16 MiB.
 *
 * @param maxDistance non-negative integer or Infinity (no bound); unchecked.
 */
export function bitParallelDistance(a: ArrayLike<number>, b: ArrayLike<number>, maxDistance: number): number {
  let m = a.length;
  let n = b.length;
  const limit = Math.min(m, n);
  let prefix = 0;
  while (prefix < limit && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < limit - prefix && a[m - 1 - suffix] === b[n - 1 - suffix]) suffix++;
  m -= prefix + suffix;
  n -= prefix + suffix;
  if (m > n) return strippedDistance(b, prefix, n, a, prefix, m, maxDistance);
  return strippedDistance(a, prefix, m, b, prefix, n, maxDistance);
}

/**
 * The core once the common affixes are gone and `m ≤ n`: the distance between
 * `a[aStart, aStart+m)` and `b[bStart, bStart+n)`. Also used by the string
 * paths after they stripped affixes themselves.
 */
export function strippedDistance(
  a: ArrayLike<number>,
  aStart: number,
  m: number,
  b: ArrayLike<number>,
  bStart: number,
  n: number,
  maxDistance: number,
): number {
  if (m === 0) return n;
  // At least n - m insertions are needed whatever happens.
  if (n - m > maxDistance) return maxDistance + 1;
  // The distance never exceeds the longer length, so k is finite from here.
  const k = Math.min(maxDistance, n);
  if (m <= WORD) {
    const sigma = compact(a, aStart, m, b, bStart, n);
    return singleWord(m, n, k, sigma);
  }
  // Blocked and banded runs take the longer side as the pattern, so that the
  // band (≈ 2k+1 rows) is scanned once per symbol of the shorter side.
  const sigma = compact(b, bStart, n, a, aStart, m);
  return blockedWithHints(n, m, k, sigma);
}

/**
 * Distance between UTF-16 slices `a[aStart, aStart+m)` and `b[bStart,
 * bStart+n)` (32 < m ≤ n, affixes already stripped) read as code units, i.e.
 * without decoding them to arrays first; -1 when a surrogate is present (then
 * units are not code points and the caller decodes). Same algorithms and
 * bound semantics as {@link strippedDistance}.
 */
export function unitSliceDistance(a: string, aStart: number, m: number, b: string, bStart: number, n: number, maxDistance: number): number {
  // The longer side is the pattern, as in strippedDistance.
  const sigma = compactUnits(b, bStart, n, a, aStart, m);
  if (sigma < 0) return -1;
  if (n - m > maxDistance) return maxDistance + 1;
  return blockedWithHints(n, m, Math.min(maxDistance, n), sigma);
}

/**
 * {@link compact} for UTF-16 slices read with charCodeAt; returns -1 (and
 * leaves `bmpIds` clean) when either slice holds a surrogate.
 */
function compactUnits(p: string, pStart: number, m: number, t: string, tStart: number, n: number): number {
  patternIds = grow(patternIds, m);
  textIds = grow(textIds, n);
  let sigma = 0;
  let seen = 0;
  for (let i = 0; i < m; i++) {
    const c = p.charCodeAt(pStart + i);
    seen |= c;
    let id = bmpIds[c]!;
    if (id === 0) bmpIds[c] = id = ++sigma;
    patternIds[i] = id;
  }
  for (let j = 0; j < n; j++) {
    const c = t.charCodeAt(tStart + j);
    seen |= c;
    textIds[j] = bmpIds[c]!;
  }
  for (let i = 0; i < m; i++) bmpIds[p.charCodeAt(pStart + i)] = 0;
  // `seen` below 0xD800 rules surrogates out without a scan.
  if (seen >= 0xd800 && (hasSurrogate(p, pStart, m) || hasSurrogate(t, tStart, n))) return -1;
  return sigma;
}

/**
 * Maps the pattern's symbols to ids 1..σ into `patternIds` and the text's
 * into `textIds` (0 for symbols the pattern lacks). O(m + n).
 */
function compact(p: ArrayLike<number>, pStart: number, m: number, t: ArrayLike<number>, tStart: number, n: number): number {
  patternIds = grow(patternIds, m);
  textIds = grow(textIds, n);
  let sigma = 0;
  let others: Map<number, number> | undefined;
  for (let i = 0; i < m; i++) {
    const s = p[pStart + i]!;
    let id: number;
    // Integers 0..0xFFFF use the direct table; anything else (astral code
    // points, negative or non-integer symbols) the Map.
    if ((s & 0xffff) === s) {
      id = bmpIds[s]!;
      if (id === 0) bmpIds[s] = id = ++sigma;
    } else {
      others ??= new Map();
      const known = others.get(s);
      if (known === undefined) others.set(s, (id = ++sigma));
      else id = known;
    }
    patternIds[i] = id;
  }
  for (let j = 0; j < n; j++) {
    const s = t[tStart + j]!;
    textIds[j] = (s & 0xffff) === s ? bmpIds[s]! : (others?.get(s) ?? 0);
  }
  for (let i = 0; i < m; i++) {
    const s = p[pStart + i]!;
    if ((s & 0xffff) === s) bmpIds[s] = 0;
  }
  return sigma;
}

/**
 * Hyyrö's formulation of Myers' algorithm, pattern (`patternIds`, m ≤ 32)
 * in one word, text `textIds` of length n. Stops once the last-row score
 * minus the columns left exceeds k (it can fall by at most 1 per column).
 */
function singleWord(m: number, n: number, k: number, sigma: number): number {
  peq = grow(peq, sigma + 1);
  peq.fill(0, 0, sigma + 1);
  for (let i = 0; i < m; i++) peq[patternIds[i]!]! |= 1 << i;
  // Score deltas are read by shifting, not branching: on unrelated text they
  // are unpredictable and mispredicted branches cost more than the shifts.
  const lastShift = m - 1;
  let pv = -1;
  let mv = 0;
  let score = m;
  // score > k + (n - 1 - j) means the final score is > k.
  let slack = k + n - 1;
  for (let j = 0; j < n; j++, slack--) {
    let eq = peq[textIds[j]!]!;
    const xv = eq | mv;
    eq |= ((eq & pv) + pv) ^ pv;
    mv |= ~(eq | pv);
    pv &= eq;
    score += ((mv >>> lastShift) & 1) - ((pv >>> lastShift) & 1);
    mv = (mv << 1) | 1;
    pv = (pv << 1) | ~(xv | mv);
    mv &= xv;
    if (score > slack) return k + 1;
  }
  return score <= k ? score : k + 1;
}

/**
 * Longer side (`patternIds`, length m > 32) against the shorter (`textIds`,
 * length n). Tries bands 15, 30, 60, … while they stay small next to n (a
 * failed narrow band costs little, a successful one saves the full run), then
 * the band of the caller's bound k.
 */
function blockedWithHints(m: number, n: number, k: number, sigma: number): number {
  if (2 * k + 1 <= WORD) return smallBand(m, n, k, sigma);
  let peqReady = false;
  // A band narrower than the length difference cannot hold the answer.
  let hint = Math.max(15, m - n);
  while (hint < k && hint * 16 <= n) {
    let d: number;
    if (2 * hint + 1 <= WORD) {
      d = smallBand(m, n, hint, sigma);
    } else {
      if (!peqReady) peqReady = buildBlockPeq(m, sigma);
      d = blockedBand(m, n, hint);
    }
    if (d <= hint) return d;
    hint = nextHint(hint, n);
  }
  if (!peqReady) buildBlockPeq(m, sigma);
  // A band covering most rows saves little and its bookkeeping costs, so wide
  // bounds take the unbanded interleaved run (dense Peq only).
  if (peqDense && 2 * k >= m) {
    const d = blockedFull(m, n);
    return d <= k ? d : k + 1;
  }
  return blockedBand(m, n, k);
}

/**
 * Unbanded blocked Hyyrö 2003 over all ⌈m/32⌉ blocks (dense Peq), two text
 * columns at a time: block w of column c and block w-1 of column c+1 are
 * independent, so their carry chains overlap in the CPU instead of one chain
 * bounding the speed, and each block's state is read and written once per
 * two columns. Needs m > 32. Returns the exact distance.
 */
function blockedFull(m: number, n: number): number {
  const blocks = peqBlocks;
  const lastBlock = blocks - 1;
  const lastShift = (m - 1) & 31;
  vpBlocks = grow(vpBlocks, blocks);
  vnBlocks = grow(vnBlocks, blocks);
  const vps = vpBlocks;
  const vns = vnBlocks;
  const table = peq;
  const ids = textIds;
  vps.fill(-1, 0, blocks);
  vns.fill(0, 0, blocks);
  let score = m;
  let col = 0;
  for (; col + 1 < n; col += 2) {
    const rowA = ids[col]! * blocks;
    const rowB = ids[col + 1]! * blocks;
    // Column A = col, block 0; carries in: +1 from row 0, no -1.
    let vp = vps[0]!;
    let vn = vns[0]!;
    let x = table[rowA]!;
    let d0 = (((x & vp) + vp) ^ vp) | x | vn;
    let hp = vn | ~(d0 | vp);
    let hn = d0 & vp;
    let hpA = hp >>> 31;
    let hnA = hn >>> 31;
    hp = (hp << 1) | 1;
    hn <<= 1;
    // Block 0 after column A, pending for column B.
    let pvp = hn | ~(d0 | hp);
    let pvn = hp & d0;
    let hpB = 1;
    let hnB = 0;
    for (let w = 1; w < lastBlock; w++) {
      // Column B, block w-1.
      const xb = table[rowB + w - 1]! | hnB;
      const db = (((xb & pvp) + pvp) ^ pvp) | xb | pvn;
      let hpb = pvn | ~(db | pvp);
      let hnb = db & pvp;
      const hpbIn = hpB;
      const hnbIn = hnB;
      hpB = hpb >>> 31;
      hnB = hnb >>> 31;
      hpb = (hpb << 1) | hpbIn;
      hnb = (hnb << 1) | hnbIn;
      vps[w - 1] = hnb | ~(db | hpb);
      vns[w - 1] = hpb & db;
      // Column A, block w.
      vp = vps[w]!;
      vn = vns[w]!;
      x = table[rowA + w]! | hnA;
      d0 = (((x & vp) + vp) ^ vp) | x | vn;
      hp = vn | ~(d0 | vp);
      hn = d0 & vp;
      const hpaIn = hpA;
      const hnaIn = hnA;
      hpA = hp >>> 31;
      hnA = hn >>> 31;
      hp = (hp << 1) | hpaIn;
      hn = (hn << 1) | hnaIn;
      pvp = hn | ~(d0 | hp);
      pvn = hp & d0;
    }
    // Column B, block lastBlock-1.
    const xb = table[rowB + lastBlock - 1]! | hnB;
    const db = (((xb & pvp) + pvp) ^ pvp) | xb | pvn;
    let hpb = pvn | ~(db | pvp);
    let hnb = db & pvp;
    const hpbIn = hpB;
    const hnbIn = hnB;
    hpB = hpb >>> 31;
    hnB = hnb >>> 31;
    hpb = (hpb << 1) | hpbIn;
    hnb = (hnb << 1) | hnbIn;
    vps[lastBlock - 1] = hnb | ~(db | hpb);
    vns[lastBlock - 1] = hpb & db;
    // Column A, last block: its bottom row carries the score.
    vp = vps[lastBlock]!;
    vn = vns[lastBlock]!;
    x = table[rowA + lastBlock]! | hnA;
    d0 = (((x & vp) + vp) ^ vp) | x | vn;
    hp = vn | ~(d0 | vp);
    hn = d0 & vp;
    score += ((hp >>> lastShift) & 1) - ((hn >>> lastShift) & 1);
    hp = (hp << 1) | hpA;
    hn = (hn << 1) | hnA;
    pvp = hn | ~(d0 | hp);
    pvn = hp & d0;
    // Column B, last block.
    const xl = table[rowB + lastBlock]! | hnB;
    const dl = (((xl & pvp) + pvp) ^ pvp) | xl | pvn;
    let hpl = pvn | ~(dl | pvp);
    let hnl = dl & pvp;
    score += ((hpl >>> lastShift) & 1) - ((hnl >>> lastShift) & 1);
    hpl = (hpl << 1) | hpB;
    hnl = (hnl << 1) | hnB;
    vps[lastBlock] = hnl | ~(dl | hpl);
    vns[lastBlock] = hpl & dl;
  }
  if (col < n) {
    // Odd column count: one plain column.
    const row = ids[col]! * blocks;
    let hpc = 1;
    let hnc = 0;
    for (let w = 0; w < blocks; w++) {
      const vp = vps[w]!;
      const vn = vns[w]!;
      const x = table[row + w]! | hnc;
      const d0 = (((x & vp) + vp) ^ vp) | x | vn;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      if (w === lastBlock) score += ((hp >>> lastShift) & 1) - ((hn >>> lastShift) & 1);
      const hpIn = hpc;
      const hnIn = hnc;
      hpc = hp >>> 31;
      hnc = hn >>> 31;
      hp = (hp << 1) | hpIn;
      hn = (hn << 1) | hnIn;
      vps[w] = hn | ~(d0 | hp);
      vns[w] = hp & d0;
    }
  }
  return score;
}

/** Column at which the last band trial gave up (n if it ran to the end). */
let stopColumn = 0;

/**
 * The next band after `hint` failed: at least twice as wide, and wide enough
 * for the distance extrapolated from how fast the failed trial's scores grew
 * (it passed about `hint` after `stopColumn` of n columns). Unrelated texts
 * fail early, so their estimate jumps past n/16 and the trials stop there.
 */
function nextHint(hint: number, n: number): number {
  const estimate = Math.floor(((hint + 1) * n) / Math.max(stopColumn, 1));
  return Math.min(Math.max(hint * 2, estimate + (estimate >> 2)), n);
}

/**
 * Hyyrö 2003 restricted to a diagonal band of width 2k+1 ≤ 32 held in one
 * word that moves down one row per column; the match masks are shifted
 * on line (per id: mask and the column it was last aligned to).
 * Needs m ≥ n ≥ m - k and k ≤ n. O(m + n + σ).
 */
function smallBand(m: number, n: number, k: number, sigma: number): number {
  bandPos = grow(bandPos, sigma + 1);
  bandMask = grow(bandMask, sigma + 1);
  bandMask.fill(0, 0, sigma + 1);
  // Column 0: rows 0..k in the top k+1 bits, all vertical deltas +1.
  let vp = -1 << (WORD - 1 - k);
  let vn = 0;
  // The score follows the band's lower diagonal, then the last row.
  let dist = k;
  // Diagonal scores never fall; the last row can fall by one per column at
  // most, n - (m - k) columns, so past this the result is certainly > k.
  const breakScore = 2 * k + n - m;
  let p = 0;
  for (let step = -k; step < 0; step++, p++) {
    const id = patternIds[p]!;
    bandMask[id] = shr(bandMask[id]!, step - bandPos[id]!) | TOP;
    bandPos[id] = step;
  }
  let i = 0;
  for (; i < m - k; i++, p++) {
    const pid = patternIds[p]!;
    bandMask[pid] = shr(bandMask[pid]!, i - bandPos[pid]!) | TOP;
    bandPos[pid] = i;
    const tid = textIds[i]!;
    const x = shr(bandMask[tid]!, i - bandPos[tid]!);
    const d0 = (((x & vp) + vp) ^ vp) | x | vn;
    const hp = vn | ~(d0 | vp);
    const hn = d0 & vp;
    // +1 unless the diagonal step matched (bit 31 of d0).
    dist += ~d0 >>> 31;
    if (dist > breakScore) {
      stopColumn = i;
      return k + 1;
    }
    vp = hn | ~((d0 >>> 1) | hp);
    vn = (d0 >>> 1) & hp;
  }
  // Row of the last pattern symbol inside the window, moving up one per column.
  let horizontal = WORD - 2;
  for (; i < n; i++) {
    if (p < m) {
      const pid = patternIds[p++]!;
      bandMask[pid] = shr(bandMask[pid]!, i - bandPos[pid]!) | TOP;
      bandPos[pid] = i;
    }
    const tid = textIds[i]!;
    const x = shr(bandMask[tid]!, i - bandPos[tid]!);
    const d0 = (((x & vp) + vp) ^ vp) | x | vn;
    const hp = vn | ~(d0 | vp);
    const hn = d0 & vp;
    dist += ((hp >>> horizontal) & 1) - ((hn >>> horizontal) & 1);
    horizontal--;
    if (dist > breakScore) {
      stopColumn = i;
      return k + 1;
    }
    vp = hn | ~((d0 >>> 1) | hp);
    vn = (d0 >>> 1) & hp;
  }
  stopColumn = n;
  return dist <= k ? dist : k + 1;
}

/** Peq layout of the current blocked run: dense (σ+1)·blocks or hashed. */
let peqDense = true;
let peqBlocks = 0;

/**
 * Builds the block match table of `patternIds` (length m): dense
 * `peq[id·blocks + block]` when (σ+1)·blocks ≤ the dense limit, otherwise a
 * 64-slot open-addressing table per block (a block holds ≤ 32 symbols, so the
 * load stays ≤ 1/2), keys in `hashKeys` and masks in `peq`. Returns true.
 */
function buildBlockPeq(m: number, sigma: number): boolean {
  const blocks = Math.ceil(m / WORD);
  peqBlocks = blocks;
  peqDense = (sigma + 1) * blocks <= denseLimit;
  if (peqDense) {
    const size = (sigma + 1) * blocks;
    peq = grow(peq, size);
    peq.fill(0, 0, size);
    for (let i = 0; i < m; i++) peq[patternIds[i]! * blocks + (i >>> 5)]! |= 1 << (i & 31);
    return true;
  }
  const size = blocks * 64;
  peq = grow(peq, size);
  hashKeys = grow(hashKeys, size);
  peq.fill(0, 0, size);
  hashKeys.fill(0, 0, size);
  for (let i = 0; i < m; i++) {
    const id = patternIds[i]!;
    const base = (i >>> 5) * 64;
    let slot = id & 63;
    while (hashKeys[base + slot] !== 0 && hashKeys[base + slot] !== id) slot = (slot + 1) & 63;
    hashKeys[base + slot] = id;
    peq[base + slot]! |= 1 << (i & 31);
  }
  return true;
}

function hashedMask(block: number, id: number): number {
  if (id === 0) return 0;
  const base = block * 64;
  let slot = id & 63;
  for (;;) {
    const key = hashKeys[base + slot]!;
    if (key === id) return peq[base + slot]!;
    if (key === 0) return 0;
    slot = (slot + 1) & 63;
  }
}

/**
 * Blocked Hyyrö 2003 over the band of blocks that may hold cells ≤ k
 * (Ukkonen; band bookkeeping as in rapidfuzz's levenshtein_hyrroe2003_block).
 * Pattern `patternIds` (m > 32, Peq built), text `textIds` (n ≤ m, n ≥ m - k).
 * Returns the distance if ≤ k, else k + 1.
 */
function blockedBand(m: number, n: number, kIn: number): number {
  const blocks = peqBlocks;
  const lastBlock = blocks - 1;
  const lastShift = (m - 1) & 31;
  vpBlocks = grow(vpBlocks, blocks);
  vnBlocks = grow(vnBlocks, blocks);
  scores = grow(scores, blocks);
  const vps = vpBlocks;
  const vns = vnBlocks;
  const sc = scores;
  const dense = peqDense;
  const table = peq;
  vps.fill(-1, 0, blocks);
  vns.fill(0, 0, blocks);
  for (let w = 0; w < lastBlock; w++) sc[w] = (w + 1) * WORD;
  sc[lastBlock] = m;
  let k = Math.min(kIn, Math.max(m, n));
  // Row of the last pattern symbol in a block.
  const rowOf = (w: number): number => (w === lastBlock ? m - 1 : (w + 1) * WORD - 1);
  let first = 0;
  let last = Math.min(blocks, Math.ceil((Math.min(k, (k + m - n) >>> 1) + 1) / WORD)) - 1;
  let hpCarry = 0;
  let hnCarry = 0;

  for (let col = 0; col < n; col++) {
    const id = textIds[col]!;
    const base = id * blocks;
    hpCarry = 1;
    hnCarry = 0;
    for (let w = first; w <= last; w++) {
      const pm = dense ? table[base + w]! : hashedMask(w, id);
      const vp = vps[w]!;
      const vn = vns[w]!;
      const x = pm | hnCarry;
      const d0 = (((x & vp) + vp) ^ vp) | x | vn;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      const hpIn = hpCarry;
      const hnIn = hnCarry;
      if (w < lastBlock) {
        hpCarry = hp >>> 31;
        hnCarry = hn >>> 31;
      } else {
        hpCarry = (hp >>> lastShift) & 1;
        hnCarry = (hn >>> lastShift) & 1;
      }
      hp = (hp << 1) | hpIn;
      hn = (hn << 1) | hnIn;
      vps[w] = hn | ~(d0 | hp);
      vns[w] = hp & d0;
      sc[w] = sc[w]! + hpCarry - hnCarry;
    }

    // Any path through the band's last cell in this column bounds the result.
    k = Math.min(k, sc[last]! + Math.max(n - col - 1, m - rowOf(last) - 1));

    // Widen by one block below when its first cells can be within k.
    if (last < lastBlock && rowOf(last) < k + 2 * WORD + col + m - sc[last]! - 2 - n) {
      const w = ++last;
      const chars = w === lastBlock ? ((m - 1) & 31) + 1 : WORD;
      sc[w] = sc[w - 1]! + chars - hpCarry + hnCarry;
      const pm = dense ? table[base + w]! : hashedMask(w, id);
      const vp = -1;
      const vn = 0;
      const x = pm | hnCarry;
      const d0 = (((x & vp) + vp) ^ vp) | x | vn;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      const hpIn = hpCarry;
      const hnIn = hnCarry;
      if (w < lastBlock) {
        hpCarry = hp >>> 31;
        hnCarry = hn >>> 31;
      } else {
        hpCarry = (hp >>> lastShift) & 1;
        hnCarry = (hn >>> lastShift) & 1;
      }
      hp = (hp << 1) | hpIn;
      hn = (hn << 1) | hnIn;
      vps[w] = hn | ~(d0 | hp);
      vns[w] = hp & d0;
      sc[w] = sc[w]! + hpCarry - hnCarry;
    }

    // Drop blocks that left the band at the bottom…
    for (; last >= first; last--) {
      const s = sc[last]!;
      if (s < k + WORD && rowOf(last) <= k + 2 * WORD + col + m + 1 - s - 2 - n) break;
    }
    // …and at the top.
    for (; first <= last; first++) {
      const s = sc[first]!;
      if (s < k + WORD && rowOf(first) >= s + m + col - k - n) break;
    }
    if (last < first) {
      stopColumn = col;
      return k + 1;
    }
  }
  stopColumn = n;
  if (last !== lastBlock) return k + 1;
  const d = sc[lastBlock]!;
  return d <= k ? d : k + 1;
}

/**
 * Short-string fast path over UTF-16 units: `a[aStart, aStart+m)` (m ≤ 32,
 * the pattern) against `b[bStart, bStart+n)`, with a Peq table indexed by the
 * unit itself (no conversion, no compaction). Returns -1 when either slice
 * contains a surrogate — then units are not code points and the caller must
 * use a code-point path. Same early stop as {@link singleWord}.
 */
export function shortUnitDistance(a: string, aStart: number, m: number, b: string, bStart: number, n: number, maxDistance: number): number {
  // The distance is at most n: clamping keeps k (and the loop's slack) a
  // small integer, where Infinity would turn the loop's arithmetic to floats.
  const k = Math.min(maxDistance, n);
  let seen = 0;
  for (let i = 0; i < m; i++) {
    const c = a.charCodeAt(aStart + i);
    seen |= c;
    unitPeq[c]! |= 1 << i;
  }
  const lastShift = m - 1;
  let pv = -1;
  let mv = 0;
  let score = m;
  let slack = k + n - 1;
  let j = 0;
  for (; j < n; j++, slack--) {
    const c = b.charCodeAt(bStart + j);
    seen |= c;
    let eq = unitPeq[c]!;
    const xv = eq | mv;
    eq |= ((eq & pv) + pv) ^ pv;
    mv |= ~(eq | pv);
    pv &= eq;
    score += ((mv >>> lastShift) & 1) - ((pv >>> lastShift) & 1);
    mv = (mv << 1) | 1;
    pv = (pv << 1) | ~(xv | mv);
    mv &= xv;
    if (score > slack) break;
  }
  for (let i = 0; i < m; i++) unitPeq[a.charCodeAt(aStart + i)] = 0;
  // `seen` is the OR of every unit read: below 0xD800 no unit can be a
  // surrogate, so the exact scan only runs for text in the upper BMP.
  if (seen >= 0xd800 && (hasSurrogate(a, aStart, m) || hasSurrogate(b, bStart, j))) return -1;
  if (j < n) return hasSurrogate(b, bStart + j, n - j) ? -1 : k + 1;
  return score <= k ? score : k + 1;
}

/** Second Peq word (pattern units 32..63) for {@link twoWordUnitDistance}; zero between calls. */
const unitPeqHigh = new Int32Array(0x10000);

/**
 * Like {@link shortUnitDistance} for a pattern of 33..64 units held in two
 * 32-bit words (Hyyrö's block step unrolled for exactly two blocks, carries in
 * locals): about twice the work of one word, still no conversion or
 * compaction, which beats both the generic blocked engine and a WebAssembly
 * call at these lengths. Returns -1 when a surrogate is present.
 */
export function twoWordUnitDistance(a: string, aStart: number, m: number, b: string, bStart: number, n: number, maxDistance: number): number {
  const k = Math.min(maxDistance, n);
  let seen = 0;
  for (let i = 0; i < WORD; i++) {
    const c = a.charCodeAt(aStart + i);
    seen |= c;
    unitPeq[c]! |= 1 << i;
  }
  for (let i = WORD; i < m; i++) {
    const c = a.charCodeAt(aStart + i);
    seen |= c;
    unitPeqHigh[c]! |= 1 << (i - WORD);
  }
  const lastShift = m - WORD - 1;
  let vp0 = -1;
  let vn0 = 0;
  let vp1 = -1;
  let vn1 = 0;
  let score = m;
  let slack = k + n - 1;
  let j = 0;
  for (; j < n; j++, slack--) {
    const c = b.charCodeAt(bStart + j);
    seen |= c;
    // Block 0: the row above the pattern has horizontal delta +1.
    const x0 = unitPeq[c]!;
    const d0 = (((x0 & vp0) + vp0) ^ vp0) | x0 | vn0;
    let hp = vn0 | ~(d0 | vp0);
    let hn = d0 & vp0;
    const hpCarry = hp >>> 31;
    const hnCarry = hn >>> 31;
    hp = (hp << 1) | 1;
    hn <<= 1;
    vp0 = hn | ~(d0 | hp);
    vn0 = hp & d0;
    // Block 1 takes block 0's last horizontal delta as carry.
    const x1 = unitPeqHigh[c]! | hnCarry;
    const d1 = (((x1 & vp1) + vp1) ^ vp1) | x1 | vn1;
    hp = vn1 | ~(d1 | vp1);
    hn = d1 & vp1;
    score += ((hp >>> lastShift) & 1) - ((hn >>> lastShift) & 1);
    hp = (hp << 1) | hpCarry;
    hn = (hn << 1) | hnCarry;
    vp1 = hn | ~(d1 | hp);
    vn1 = hp & d1;
    if (score > slack) break;
  }
  for (let i = 0; i < WORD; i++) unitPeq[a.charCodeAt(aStart + i)] = 0;
  for (let i = WORD; i < m; i++) unitPeqHigh[a.charCodeAt(aStart + i)] = 0;
  if (seen >= 0xd800 && (hasSurrogate(a, aStart, m) || hasSurrogate(b, bStart, j))) return -1;
  if (j < n) return hasSurrogate(b, bStart + j, n - j) ? -1 : k + 1;
  return score <= k ? score : k + 1;
}

/** True when `s[start, start+length)` holds a UTF-16 surrogate unit. O(length). */
export function hasSurrogate(s: string, start: number, length: number): boolean {
  for (let i = start, end = start + length; i < end; i++) {
    if ((s.charCodeAt(i) & 0xf800) === 0xd800) return true;
  }
  return false;
}
