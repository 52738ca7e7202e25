import { getRandomValues } from "node:crypto";

/** Crockford's base32 in lower case: no i, l, o, u, so ids read aloud and typed back without mix-ups. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const TIME_DIGITS = 10; // 10 × 5 bits = 50 ≥ the 48 bits of a millisecond timestamp (good until year 10889)
const RANDOM_DIGITS = 16; // 80 random bits

let lastTime = -1;
let lastRandom: number[] = [];

/**
 * A new run id: a ULID in lower case, 26 characters, `ttttttttttrrrrrrrrrrrrrrrr` = 10 digits of the
 * millisecond time then 80 random bits, both base32. Ids sort by creation time as plain strings, so the
 * primary key index is also the time index. Within one process ids are strictly increasing even inside
 * one millisecond (the random part is incremented, as the ULID spec's monotonic mode does), so
 * `ORDER BY id` never reorders runs begun back to back. Across processes, equal milliseconds order at random.
 */
export function newRunId(now: number = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    lastRandom = Array.from(getRandomValues(new Uint8Array(RANDOM_DIGITS)), (b) => b & 31);
  } else if (!increment(lastRandom)) {
    // 2^80 ids in one millisecond: borrow the next millisecond rather than repeat an id.
    lastTime += 1;
    lastRandom = Array.from(getRandomValues(new Uint8Array(RANDOM_DIGITS)), (b) => b & 31);
  }
  let time = "";
  let t = lastTime;
  for (let i = 0; i < TIME_DIGITS; i++) {
    time = ALPHABET.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  return time + lastRandom.map((d) => ALPHABET.charAt(d)).join("");
}

/** Adds one to a big-endian base32 digit array in place; false when it wrapped around to all zeros. */
function increment(digits: number[]): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    const d = (digits[i] ?? 0) + 1;
    if (d < 32) {
      digits[i] = d;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}


/**
 * The millisecond time in a run id that {@link newRunId} made (its first 10 digits), or undefined for a string that
 * is no such id. A run's `started_at` is that time (beginRun reads the clock once for both; only a clock set back
 * while a process records runs makes them differ), so this places a run that is gone where it was listed.
 */
export function runIdTime(id: string): number | undefined {
  if (id.length !== TIME_DIGITS + RANDOM_DIGITS || [...id].some((c) => !ALPHABET.includes(c))) return undefined;
  let t = 0;
  for (const c of id.slice(0, TIME_DIGITS)) t = t * 32 + ALPHABET.indexOf(c);
  return t;
}
