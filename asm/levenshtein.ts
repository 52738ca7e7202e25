// Levenshtein distance with 64-bit bit-parallelism, in AssemblyScript.
//
// Compiled by scripts/build-wasm.mjs (-O3, runtime "stub": no GC, no managed
// objects — everything lives in raw linear memory addressed by hand) into a
// base64 module that src/metrics/levenshtein-wasm.ts instantiates.
//
// Same algorithms as src/metrics/levenshtein-bitparallel.ts with 64-bit words:
//   - Myers 1999 / Hyyrö 2003 in one word when the shorter side has ≤ 64 symbols;
//   - Hyyrö's small band (a 64-bit window sliding along the diagonal) when
//     2k+1 ≤ 64;
//   - blocked Hyyrö over Ukkonen's band of blocks (band bookkeeping as in
//     rapidfuzz's levenshtein_hyrroe2003_block), first with bands 31, 62, …
//     up to n/16, then with the caller's bound;
//   - when that band would cover most rows anyway, an unbanded blocked run
//     advancing two text columns at once (independent carry chains overlap).
// Symbols are compacted to ids 1..σ (0 = absent from the pattern) so the Peq
// table is (σ+1)·blocks words, or a 128-slot hash table per block when that
// would exceed the dense limit: memory stays linear in the input.
//
// Memory map (bytes):
//   bmpIds   i32[65536]  symbol → id for symbols < 0x10000, zero between calls
//   u16A/B   u16[cap]    UTF-16 input written by JS
//   symA/B   i32[cap]    integer-symbol input written by JS
//   arena    bump allocator reset at every call (ids, Peq, block state)

const WORD: i32 = 64;
const TOP: u64 = 0x8000000000000000;
const DENSE_LIMIT_DEFAULT: i32 = 1 << 21; // u64 entries: 16 MiB

let denseLimit: i32 = DENSE_LIMIT_DEFAULT;
let bmpIds: usize = 0;
let u16A: usize = 0;
let u16B: usize = 0;
let symA: usize = 0;
let symB: usize = 0;
let arenaBase: usize = 0;
let arenaTop: usize = 0;

// Per-call state shared by the algorithms below.
let patternIds: usize = 0;
let textIds: usize = 0;
let peq: usize = 0;
let peqKeys: usize = 0;
let peqDense: bool = true;
let peqBlocks: i32 = 0;

function align8(p: usize): usize {
  return (p + 7) & ~(<usize>7);
}

function ensureMemory(end: usize): void {
  const have = (<usize>memory.size()) << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) unreachable();
  }
}

function alloc(bytes: usize): usize {
  const p = arenaTop;
  arenaTop = align8(p + bytes);
  ensureMemory(arenaTop);
  return p;
}

/** Lays out input buffers for up to `capA` / `capB` symbols per side. */
export function reserve(capA: i32, capB: i32): void {
  if (bmpIds == 0) {
    bmpIds = align8(__heap_base);
    // Fresh pages are zero, which is the state bmpIds must start in.
    ensureMemory(bmpIds + 0x40000);
  }
  u16A = bmpIds + 0x40000;
  u16B = align8(u16A + (<usize>capA << 1));
  symA = align8(u16B + (<usize>capB << 1));
  symB = align8(symA + (<usize>capA << 2));
  arenaBase = align8(symB + (<usize>capB << 2));
  ensureMemory(arenaBase);
}

/** Where JS writes the UTF-16 units of the first string (valid after reserve). */
export function inputU16A(): usize {
  return u16A;
}
/** Where JS writes the UTF-16 units of the second string. */
export function inputU16B(): usize {
  return u16B;
}
/** Where JS writes the first integer sequence. */
export function inputI32A(): usize {
  return symA;
}
/** Where JS writes the second integer sequence. */
export function inputI32B(): usize {
  return symB;
}

/** For tests: dense Peq limit in u64 entries (≤ 0 restores the default). */
export function setDenseLimit(entries: i32): void {
  denseLimit = entries > 0 ? entries : DENSE_LIMIT_DEFAULT;
}

/**
 * Distance between the UTF-16 inputs (m and n units), counted in code points:
 * exact when ≤ k, k + 1 otherwise (k = 0x7fffffff for no bound).
 */
export function distanceUtf16(m: i32, n: i32, k: i32): i32 {
  arenaTop = arenaBase;
  const a = alloc(<usize>m << 2);
  const b = alloc(<usize>n << 2);
  const cm = decodeUtf16(u16A, m, a);
  const cn = decodeUtf16(u16B, n, b);
  return distance(a, cm, b, cn, k);
}

/** Distance between the integer-symbol inputs (m and n symbols). */
export function distanceInts(m: i32, n: i32, k: i32): i32 {
  arenaTop = arenaBase;
  return distance(symA, m, symB, n, k);
}

/** UTF-16 → code points (a lone surrogate stays one symbol). Returns the count. */
function decodeUtf16(src: usize, len: i32, dst: usize): i32 {
  let j: i32 = 0;
  let i: i32 = 0;
  while (i < len) {
    let c = <i32>load<u16>(src + (<usize>i << 1));
    i++;
    if ((c & 0xfc00) == 0xd800 && i < len) {
      const d = <i32>load<u16>(src + (<usize>i << 1));
      if ((d & 0xfc00) == 0xdc00) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    store<i32>(dst + (<usize>j << 2), c);
    j++;
  }
  return j;
}

@inline function sym(p: usize, i: i32): i32 {
  return load<i32>(p + (<usize>i << 2));
}

function distance(a0: usize, m0: i32, b0: usize, n0: i32, k0: i32): i32 {
  let a = a0;
  let b = b0;
  let m = m0;
  let n = n0;
  // Common prefix and suffix never take part in an optimal alignment's edits.
  const limit = min(m, n);
  let prefix: i32 = 0;
  while (prefix < limit && sym(a, prefix) == sym(b, prefix)) prefix++;
  let suffix: i32 = 0;
  while (suffix < limit - prefix && sym(a, m - 1 - suffix) == sym(b, n - 1 - suffix)) suffix++;
  a += <usize>prefix << 2;
  b += <usize>prefix << 2;
  m -= prefix + suffix;
  n -= prefix + suffix;
  if (m > n) {
    const t = a;
    a = b;
    b = t;
    const l = m;
    m = n;
    n = l;
  }
  if (m == 0) return n;
  if (n - m > k0) return k0 + 1;
  const k = min(k0, n);
  if (m <= WORD) {
    const sigma = compact(a, m, b, n);
    return singleWord(m, n, k, sigma);
  }
  const sigma = compact(b, n, a, m);
  return blockedWithHints(n, m, k, sigma);
}

/**
 * Pattern symbols → ids 1..σ in `patternIds`, text symbols → ids in
 * `textIds` (0 when absent). BMP symbols use the direct bmpIds table, others
 * an open-addressing table sized for the pattern. Returns σ.
 */
function compact(p: usize, m: i32, t: usize, n: i32): i32 {
  patternIds = alloc(<usize>m << 2);
  textIds = alloc(<usize>n << 2);
  let sigma: i32 = 0;
  let hashBits: i32 = 0;
  let hash: usize = 0;
  for (let i: i32 = 0; i < m; i++) {
    const s = sym(p, i);
    let id: i32 = 0;
    if ((s & 0xffff) == s) {
      const slot = bmpIds + (<usize>s << 2);
      id = load<i32>(slot);
      if (id == 0) {
        id = ++sigma;
        store<i32>(slot, id);
      }
    } else {
      if (hash == 0) {
        hashBits = 32 - clz<i32>(m) + 1;
        const bytes = <usize>8 << hashBits;
        hash = alloc(bytes);
        memory.fill(hash, 0, bytes);
      }
      const mask = (1 << hashBits) - 1;
      let h = <i32>((<u32>s * <u32>0x9e3779b1) >> <u32>(32 - hashBits));
      for (;;) {
        const e = hash + (<usize>h << 3);
        const key = load<i32>(e);
        if (key == s) {
          id = load<i32>(e, 4);
          break;
        }
        if (key == 0) {
          id = ++sigma;
          store<i32>(e, s);
          store<i32>(e, id, 4);
          break;
        }
        h = (h + 1) & mask;
      }
    }
    store<i32>(patternIds + (<usize>i << 2), id);
  }
  for (let j: i32 = 0; j < n; j++) {
    const s = sym(t, j);
    let id: i32 = 0;
    if ((s & 0xffff) == s) {
      id = load<i32>(bmpIds + (<usize>s << 2));
    } else if (hash != 0) {
      const mask = (1 << hashBits) - 1;
      let h = <i32>((<u32>s * <u32>0x9e3779b1) >> <u32>(32 - hashBits));
      for (;;) {
        const e = hash + (<usize>h << 3);
        const key = load<i32>(e);
        if (key == s) {
          id = load<i32>(e, 4);
          break;
        }
        if (key == 0) break;
        h = (h + 1) & mask;
      }
    }
    store<i32>(textIds + (<usize>j << 2), id);
  }
  for (let i: i32 = 0; i < m; i++) {
    const s = sym(p, i);
    if ((s & 0xffff) == s) store<i32>(bmpIds + (<usize>s << 2), 0);
  }
  return sigma;
}

/** Myers/Hyyrö in one word: pattern m ≤ 64, early stop once the score can't get back to ≤ k. */
function singleWord(m: i32, n: i32, k: i32, sigma: i32): i32 {
  const table = alloc(<usize>(sigma + 1) << 3);
  memory.fill(table, 0, <usize>(sigma + 1) << 3);
  for (let i: i32 = 0; i < m; i++) {
    const e = table + (<usize>sym(patternIds, i) << 3);
    store<u64>(e, load<u64>(e) | (<u64>1 << <u64>i));
  }
  const last: u64 = <u64>1 << <u64>(m - 1);
  let pv: u64 = ~(<u64>0);
  let mv: u64 = 0;
  let score: i32 = m;
  let slack: i32 = k + n - 1;
  for (let j: i32 = 0; j < n; j++) {
    let eq = load<u64>(table + (<usize>sym(textIds, j) << 3));
    const xv = eq | mv;
    eq |= ((eq & pv) + pv) ^ pv;
    mv |= ~(eq | pv);
    pv &= eq;
    score += <i32>((mv & last) != 0) - <i32>((pv & last) != 0);
    mv = (mv << 1) | 1;
    pv = (pv << 1) | ~(xv | mv);
    mv &= xv;
    if (score > slack) return k + 1;
    slack--;
  }
  return score <= k ? score : k + 1;
}

function blockedWithHints(m: i32, n: i32, k: i32, sigma: i32): i32 {
  if (2 * k + 1 <= WORD) return smallBand(m, n, k, sigma);
  let peqReady = false;
  // A band narrower than the length difference cannot hold the answer.
  let hint = max(31, m - n);
  while (hint < k && hint * 16 <= n) {
    let d: i32;
    if (2 * hint + 1 <= WORD) {
      d = smallBand(m, n, hint, sigma);
    } else {
      if (!peqReady) {
        buildBlockPeq(m, sigma);
        peqReady = true;
      }
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
 * Unbanded blocked Hyyrö 2003 over all ⌈m/64⌉ blocks (dense Peq), two text
 * columns at a time: block w of column c and block w-1 of column c+1 do not
 * depend on each other, so the two carry chains overlap in the CPU (the
 * single-column loop is bound by the latency of its one chain), and each
 * block's state is loaded and stored once per two columns. Needs m > 64.
 */
function blockedFull(m: i32, n: i32): i32 {
  const top = arenaTop;
  const blocks = peqBlocks;
  const lastBlock = blocks - 1;
  const lastBit: u64 = <u64>1 << <u64>((m - 1) & 63);
  const vecs = alloc(<usize>blocks << 4);
  for (let w: i32 = 0; w < blocks; w++) {
    store<u64>(vecs + (<usize>w << 4), ~(<u64>0));
    store<u64>(vecs + (<usize>w << 4), 0, 8);
  }
  const stride = <usize>blocks << 3;
  const lastVec = vecs + (<usize>lastBlock << 4);
  let score: i32 = m;
  let col: i32 = 0;
  for (; col + 1 < n; col += 2) {
    const rowA = peq + <usize>sym(textIds, col) * stride;
    const rowB = peq + <usize>sym(textIds, col + 1) * stride;
    // Column A = col, block 0, carries in: +1 from row 0, no -1.
    let vp = load<u64>(vecs);
    let vn = load<u64>(vecs, 8);
    let x = load<u64>(rowA);
    let d0 = (((x & vp) + vp) ^ vp) | x | vn;
    let hp = vn | ~(d0 | vp);
    let hn = d0 & vp;
    let hpA = hp >> 63;
    let hnA = hn >> 63;
    hp = (hp << 1) | 1;
    hn = hn << 1;
    // Block 0 after column A, pending for column B.
    let pvp = hn | ~(d0 | hp);
    let pvn = hp & d0;
    let hpB: u64 = 1;
    let hnB: u64 = 0;
    for (let w: i32 = 1; w < lastBlock; w++) {
      const ve = vecs + (<usize>w << 4);
      // Column B, block w-1 (state pending from column A).
      const xb = load<u64>(rowB + (<usize>(w - 1) << 3)) | hnB;
      const db = (((xb & pvp) + pvp) ^ pvp) | xb | pvn;
      let hpb = pvn | ~(db | pvp);
      let hnb = db & pvp;
      const hpbIn = hpB;
      const hnbIn = hnB;
      hpB = hpb >> 63;
      hnB = hnb >> 63;
      hpb = (hpb << 1) | hpbIn;
      hnb = (hnb << 1) | hnbIn;
      store<u64>(ve - 16, hnb | ~(db | hpb));
      store<u64>(ve - 16, hpb & db, 8);
      // Column A, block w.
      vp = load<u64>(ve);
      vn = load<u64>(ve, 8);
      x = load<u64>(rowA + (<usize>w << 3)) | hnA;
      d0 = (((x & vp) + vp) ^ vp) | x | vn;
      hp = vn | ~(d0 | vp);
      hn = d0 & vp;
      const hpaIn = hpA;
      const hnaIn = hnA;
      hpA = hp >> 63;
      hnA = hn >> 63;
      hp = (hp << 1) | hpaIn;
      hn = (hn << 1) | hnaIn;
      pvp = hn | ~(d0 | hp);
      pvn = hp & d0;
    }
    {
      // Column B, block lastBlock-1.
      const xb = load<u64>(rowB + (<usize>(lastBlock - 1) << 3)) | hnB;
      const db = (((xb & pvp) + pvp) ^ pvp) | xb | pvn;
      let hpb = pvn | ~(db | pvp);
      let hnb = db & pvp;
      const hpbIn = hpB;
      const hnbIn = hnB;
      hpB = hpb >> 63;
      hnB = hnb >> 63;
      hpb = (hpb << 1) | hpbIn;
      hnb = (hnb << 1) | hnbIn;
      store<u64>(lastVec - 16, hnb | ~(db | hpb));
      store<u64>(lastVec - 16, hpb & db, 8);
      // Column A, last block: its bottom row gives the score.
      vp = load<u64>(lastVec);
      vn = load<u64>(lastVec, 8);
      x = load<u64>(rowA + (<usize>lastBlock << 3)) | hnA;
      d0 = (((x & vp) + vp) ^ vp) | x | vn;
      hp = vn | ~(d0 | vp);
      hn = d0 & vp;
      score += <i32>((hp & lastBit) != 0) - <i32>((hn & lastBit) != 0);
      hp = (hp << 1) | hpA;
      hn = (hn << 1) | hnA;
      pvp = hn | ~(d0 | hp);
      pvn = hp & d0;
      // Column B, last block.
      const xl = load<u64>(rowB + (<usize>lastBlock << 3)) | hnB;
      const dl = (((xl & pvp) + pvp) ^ pvp) | xl | pvn;
      let hpl = pvn | ~(dl | pvp);
      let hnl = dl & pvp;
      score += <i32>((hpl & lastBit) != 0) - <i32>((hnl & lastBit) != 0);
      hpl = (hpl << 1) | hpB;
      hnl = (hnl << 1) | hnB;
      store<u64>(lastVec, hnl | ~(dl | hpl));
      store<u64>(lastVec, hpl & dl, 8);
    }
  }
  if (col < n) {
    // Odd column count: one plain column.
    const row = peq + <usize>sym(textIds, col) * stride;
    let hpc: u64 = 1;
    let hnc: u64 = 0;
    for (let w: i32 = 0; w < blocks; w++) {
      const ve = vecs + (<usize>w << 4);
      const vp = load<u64>(ve);
      const vn = load<u64>(ve, 8);
      const x = load<u64>(row + (<usize>w << 3)) | hnc;
      const d0 = (((x & vp) + vp) ^ vp) | x | vn;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      if (w == lastBlock) score += <i32>((hp & lastBit) != 0) - <i32>((hn & lastBit) != 0);
      const hpIn = hpc;
      const hnIn = hnc;
      hpc = hp >> 63;
      hnc = hn >> 63;
      hp = (hp << 1) | hpIn;
      hn = (hn << 1) | hnIn;
      store<u64>(ve, hn | ~(d0 | hp));
      store<u64>(ve, hp & d0, 8);
    }
  }
  arenaTop = top;
  return score;
}

/** Column at which the last band trial gave up (n if it ran to the end). */
let stopColumn: i32 = 0;

/**
 * The next band after `hint` failed: at least twice as wide, and wide enough
 * for the distance extrapolated from how fast the failed trial's scores grew
 * (it passed about `hint` after `stopColumn` of n columns). Unrelated texts
 * fail early, so their estimate jumps past n/16 and the trials stop there.
 */
function nextHint(hint: i32, n: i32): i32 {
  const estimate = (<i64>(hint + 1) * <i64>n) / <i64>max(stopColumn, 1);
  return <i32>min<i64>(max<i64>(<i64>hint * 2, estimate + (estimate >> 2)), <i64>n);
}

@inline function shr(x: u64, s: i32): u64 {
  return s >= WORD ? 0 : x >> <u64>s;
}

/** Hyyrö's banded single-word run: needs m ≥ n ≥ m - k, k ≤ n, 2k+1 ≤ 64. */
function smallBand(m: i32, n: i32, k: i32, sigma: i32): i32 {
  const top = arenaTop;
  // Per id: the column its mask was last aligned to (i32) and the mask (u64).
  const pos = alloc(<usize>(sigma + 1) << 2);
  const masks = alloc(<usize>(sigma + 1) << 3);
  memory.fill(masks, 0, <usize>(sigma + 1) << 3);
  let vp: u64 = ~(<u64>0) << <u64>(WORD - 1 - k);
  let vn: u64 = 0;
  let dist: i32 = k;
  const breakScore: i32 = 2 * k + n - m;
  let p: i32 = 0;
  for (let step: i32 = -k; step < 0; step++, p++) {
    const id = <usize>sym(patternIds, p);
    const pe = pos + (id << 2);
    const me = masks + (id << 3);
    store<u64>(me, shr(load<u64>(me), step - load<i32>(pe)) | TOP);
    store<i32>(pe, step);
  }
  let i: i32 = 0;
  let result: i32 = -1;
  for (; i < m - k; i++, p++) {
    const pid = <usize>sym(patternIds, p);
    const ppe = pos + (pid << 2);
    const pme = masks + (pid << 3);
    store<u64>(pme, shr(load<u64>(pme), i - load<i32>(ppe)) | TOP);
    store<i32>(ppe, i);
    const tid = <usize>sym(textIds, i);
    const x = shr(load<u64>(masks + (tid << 3)), i - load<i32>(pos + (tid << 2)));
    const d0 = (((x & vp) + vp) ^ vp) | x | vn;
    const hp = vn | ~(d0 | vp);
    const hn = d0 & vp;
    dist += <i32>((d0 & TOP) == 0);
    if (dist > breakScore) {
      result = k + 1;
      stopColumn = i;
      break;
    }
    vp = hn | ~((d0 >> 1) | hp);
    vn = (d0 >> 1) & hp;
  }
  if (result < 0) {
    let horizontal: u64 = <u64>1 << <u64>(WORD - 2);
    for (; i < n; i++) {
      if (p < m) {
        const pid = <usize>sym(patternIds, p);
        const ppe = pos + (pid << 2);
        const pme = masks + (pid << 3);
        store<u64>(pme, shr(load<u64>(pme), i - load<i32>(ppe)) | TOP);
        store<i32>(ppe, i);
        p++;
      }
      const tid = <usize>sym(textIds, i);
      const x = shr(load<u64>(masks + (tid << 3)), i - load<i32>(pos + (tid << 2)));
      const d0 = (((x & vp) + vp) ^ vp) | x | vn;
      const hp = vn | ~(d0 | vp);
      const hn = d0 & vp;
      dist += <i32>((hp & horizontal) != 0) - <i32>((hn & horizontal) != 0);
      horizontal >>= 1;
      if (dist > breakScore) {
        result = k + 1;
        stopColumn = i;
        break;
      }
      vp = hn | ~((d0 >> 1) | hp);
      vn = (d0 >> 1) & hp;
    }
  }
  if (result < 0) {
    stopColumn = n;
    result = dist <= k ? dist : k + 1;
  }
  arenaTop = top; // the band's tables are per trial
  return result;
}

/**
 * Block match table of `patternIds` (length m): dense u64 `peq[id·blocks +
 * block]` when small enough, else 128 slots per block (≤ 64 symbols each, load
 * ≤ 1/2): i32 keys in `peqKeys`, u64 masks in `peq`.
 */
function buildBlockPeq(m: i32, sigma: i32): void {
  const blocks = (m + WORD - 1) / WORD;
  peqBlocks = blocks;
  const denseSize = <i64>(sigma + 1) * <i64>blocks;
  peqDense = denseSize <= <i64>denseLimit;
  if (peqDense) {
    const bytes = <usize>denseSize << 3;
    peq = alloc(bytes);
    memory.fill(peq, 0, bytes);
    for (let i: i32 = 0; i < m; i++) {
      const e = peq + ((<usize>sym(patternIds, i) * <usize>blocks + <usize>(i >> 6)) << 3);
      store<u64>(e, load<u64>(e) | (<u64>1 << <u64>(i & 63)));
    }
    return;
  }
  const slots = <usize>blocks << 7;
  peq = alloc(slots << 3);
  peqKeys = alloc(slots << 2);
  memory.fill(peq, 0, slots << 3);
  memory.fill(peqKeys, 0, slots << 2);
  for (let i: i32 = 0; i < m; i++) {
    const id = sym(patternIds, i);
    const base = <usize>(i >> 6) << 7;
    let slot = <usize>(id & 127);
    for (;;) {
      const key = load<i32>(peqKeys + ((base + slot) << 2));
      if (key == 0 || key == id) break;
      slot = (slot + 1) & 127;
    }
    store<i32>(peqKeys + ((base + slot) << 2), id);
    const e = peq + ((base + slot) << 3);
    store<u64>(e, load<u64>(e) | (<u64>1 << <u64>(i & 63)));
  }
}

@inline function blockMask(rowBase: usize, block: i32, id: i32): u64 {
  if (peqDense) return load<u64>(rowBase + (<usize>block << 3));
  if (id == 0) return 0;
  const base = <usize>block << 7;
  let slot = <usize>(id & 127);
  let key = load<i32>(peqKeys + ((base + slot) << 2));
  while (key != id && key != 0) {
    slot = (slot + 1) & 127;
    key = load<i32>(peqKeys + ((base + slot) << 2));
  }
  return key == 0 ? 0 : load<u64>(peq + ((base + slot) << 3));
}

@inline function rowOf(block: i32, lastBlock: i32, m: i32): i32 {
  return block == lastBlock ? m - 1 : (block + 1) * WORD - 1;
}

/**
 * Blocked Hyyrö 2003 over Ukkonen's band of blocks. Pattern `patternIds`
 * (m > 64, Peq built), text `textIds` (n ≤ m, n ≥ m - k). Distance if ≤ k,
 * else k + 1.
 */
function blockedBand(m: i32, n: i32, kIn: i32): i32 {
  const top = arenaTop;
  const blocks = peqBlocks;
  const lastBlock = blocks - 1;
  const lastBit: u64 = <u64>1 << <u64>((m - 1) & 63);
  // Interleaved per block: vp (u64), vn (u64).
  const vecs = alloc(<usize>blocks << 4);
  const sc = alloc(<usize>blocks << 2);
  for (let w: i32 = 0; w < blocks; w++) {
    store<u64>(vecs + (<usize>w << 4), ~(<u64>0));
    store<u64>(vecs + (<usize>w << 4), 0, 8);
    store<i32>(sc + (<usize>w << 2), w == lastBlock ? m : (w + 1) * WORD);
  }
  let k = min(kIn, max(m, n));
  let first: i32 = 0;
  let last: i32 = min(blocks, (min(k, (k + m - n) >> 1) + 1 + WORD - 1) / WORD) - 1;
  let result: i32 = -1;
  const rowStride = <usize>blocks << 3;

  for (let col: i32 = 0; col < n; col++) {
    const id = sym(textIds, col);
    const rowBase = peq + <usize>id * rowStride;
    let hpCarry: u64 = 1;
    let hnCarry: u64 = 0;
    for (let w = first; w <= last; w++) {
      const pm = blockMask(rowBase, w, id);
      const ve = vecs + (<usize>w << 4);
      const vp = load<u64>(ve);
      const vn = load<u64>(ve, 8);
      const x = pm | hnCarry;
      const d0 = (((x & vp) + vp) ^ vp) | x | vn;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      const hpIn = hpCarry;
      const hnIn = hnCarry;
      if (w < lastBlock) {
        hpCarry = hp >> 63;
        hnCarry = hn >> 63;
      } else {
        hpCarry = <u64>((hp & lastBit) != 0);
        hnCarry = <u64>((hn & lastBit) != 0);
      }
      hp = (hp << 1) | hpIn;
      hn = (hn << 1) | hnIn;
      store<u64>(ve, hn | ~(d0 | hp));
      store<u64>(ve, hp & d0, 8);
      const se = sc + (<usize>w << 2);
      store<i32>(se, load<i32>(se) + <i32>hpCarry - <i32>hnCarry);
    }

    const lastScore = load<i32>(sc + (<usize>last << 2));
    k = min(k, lastScore + max(n - col - 1, m - rowOf(last, lastBlock, m) - 1));

    if (last < lastBlock && rowOf(last, lastBlock, m) < k + 2 * WORD + col + m - lastScore - 2 - n) {
      const w = ++last;
      const chars = w == lastBlock ? ((m - 1) & 63) + 1 : WORD;
      const se = sc + (<usize>w << 2);
      store<i32>(se, load<i32>(sc + (<usize>(w - 1) << 2)) + chars - <i32>hpCarry + <i32>hnCarry);
      const pm = blockMask(rowBase, w, id);
      const ve = vecs + (<usize>w << 4);
      const vp: u64 = ~(<u64>0);
      const vn: u64 = 0;
      const x = pm | hnCarry;
      const d0 = (((x & vp) + vp) ^ vp) | x | vn;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      const hpIn = hpCarry;
      const hnIn = hnCarry;
      if (w < lastBlock) {
        hpCarry = hp >> 63;
        hnCarry = hn >> 63;
      } else {
        hpCarry = <u64>((hp & lastBit) != 0);
        hnCarry = <u64>((hn & lastBit) != 0);
      }
      hp = (hp << 1) | hpIn;
      hn = (hn << 1) | hnIn;
      store<u64>(ve, hn | ~(d0 | hp));
      store<u64>(ve, hp & d0, 8);
      store<i32>(se, load<i32>(se) + <i32>hpCarry - <i32>hnCarry);
    }

    for (; last >= first; last--) {
      const s = load<i32>(sc + (<usize>last << 2));
      if (s < k + WORD && rowOf(last, lastBlock, m) <= k + 2 * WORD + col + m + 1 - s - 2 - n) break;
    }
    for (; first <= last; first++) {
      const s = load<i32>(sc + (<usize>first << 2));
      if (s < k + WORD && rowOf(first, lastBlock, m) >= s + m + col - k - n) break;
    }
    if (last < first) {
      result = k + 1;
      stopColumn = col;
      break;
    }
  }
  if (result < 0) {
    stopColumn = n;
    if (last != lastBlock) {
      result = k + 1;
    } else {
      const d = load<i32>(sc + (<usize>lastBlock << 2));
      result = d <= k ? d : k + 1;
    }
  }
  arenaTop = top;
  return result;
}
