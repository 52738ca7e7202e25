/**
 * Levenshtein edit distance: the public entry. Validates options and
 * dispatches to the engines (see levenshtein-strings.ts,
 * levenshtein-bitparallel.ts, levenshtein-wasm.ts).
 */
import { EvalError, isPlainObject } from "../errors.js";
import { badArgument, nonFiniteEntry, notAString, notNumbers } from "./arguments.js";
import { bitParallelDistance } from "./levenshtein-bitparallel.js";
import { codePointDistance, jsSliceEngine, type SliceEngine } from "./levenshtein-strings.js";
import { wasmEngine } from "./levenshtein-wasm.js";
import { graphemeIds, type TextUnit } from "./text-units.js";

export { toUnits, unitLength, type TextUnit } from "./text-units.js";

/** Options of {@link levenshteinDistance}. */
export interface LevenshteinOptions {
  /**
   * Known bound k (integer ≥ 0 or Infinity; default Infinity): results ≤ k are
   * exact, larger distances come back as some value > k, computed faster. `undefined` is the default.
   */
  maxDistance?: number | undefined;
  /** What one edit acts on (default "code_point"; `undefined` too). */
  unit?: TextUnit | undefined;
}

/** Which engine runs: "auto" picks per input, the others force one (tests, benchmarks). */
type LevenshteinBackend = "auto" | "js" | "wasm";

let backend: LevenshteinBackend = "auto";

/**
 * Remainders (after the common affixes) whose shorter side has at most this
 * many UTF-16 units and no surrogate run in TS on one or two 32-bit words:
 * measured faster than copying them into WebAssembly and calling it.
 */
const SHORT_UNITS = 64;
/** Integer sequences this short (shorter side) stay in TS: one 32-bit word beats a WebAssembly call. */
const SHORT_SEQUENCE = 32;

/**
 * Forces an engine, for tests and benchmarks: "js" = TypeScript 32-bit
 * engine for everything, "wasm" = WebAssembly 64-bit engine for everything
 * (throws if it cannot be loaded), "auto" (default) = TypeScript for short
 * inputs and WebAssembly, when available, for the rest.
 */
export function setLevenshteinBackend(choice: LevenshteinBackend): void {
  if (choice === "wasm" && wasmEngine() === undefined) throw new Error("the Levenshtein WebAssembly engine is not available");
  backend = choice;
}

/** The engine that long inputs take under the current setting: "wasm" or "js". */
export function levenshteinBackend(): "wasm" | "js" {
  return backend !== "js" && wasmEngine() !== undefined ? "wasm" : "js";
}

/**
 * Levenshtein distance: the least number of single-unit insertions,
 * deletions and substitutions (cost 1 each) turning `a` into `b`.
 *
 * Units are code points by default (an emoji is one edit, never two UTF-16
 * units); with `unit: "grapheme"` both strings are segmented by
 * `Intl.Segmenter` (extended grapheme clusters), each distinct cluster gets an
 * integer id and the id sequences are compared. With `maxDistance` k the result
 * is exact when ≤ k and some value > k otherwise.
 *
 * Complexity: O(m + n) to strip the common prefix/suffix, then bit-parallel
 * (Myers 1999 / Hyyrö 2003) on what remains (m ≤ n), in 64-bit WebAssembly
 * words or 32-bit TS words (w): O(n) word steps when m ≤ w; with a bound k
 * about ⌈(2k+1)/w⌉·n (Ukkonen band, early stop); without one about
 * ⌈(2d+1)/w⌉·n when the distance d is below n/16, else ⌈m/w⌉·n.
 * Memory O(m + n).
 *
 * @throws EvalError (INPUT_INVALID) when `a` or `b` is not a string, `opts` is given and not a
 *   plain object or has a key other than `maxDistance` and `unit`, `maxDistance` is not a
 *   non-negative integer or Infinity, or `unit` is not "code_point" / "grapheme" (an option
 *   left out, or undefined, takes its default; null is refused).
 */
export function levenshteinDistance(a: string, b: string, opts?: LevenshteinOptions): number {
  if (typeof a !== "string") throw notAString("levenshteinDistance", "a", a);
  if (typeof b !== "string") throw notAString("levenshteinDistance", "b", b);
  if (opts !== undefined) {
    if (!isPlainObject(opts as unknown)) throw badArgument("levenshteinDistance", "opts", "an object ({ maxDistance?, unit? }) or nothing", opts);
    for (const key in opts) if (key !== "maxDistance" && key !== "unit") throw unknownOption(key);
  }
  const k = checkMaxDistance("levenshteinDistance", opts?.maxDistance);
  const unit = opts?.unit === undefined ? "code_point" : opts.unit;
  if (unit === "grapheme") {
    const [ga, gb] = graphemeIds(a, b);
    return symbolDistance(ga, gb, k);
  }
  if (unit !== "code_point") throw badArgument("levenshteinDistance", "unit", `"code_point" or "grapheme"`, unit);
  return codePointLevenshtein(a, b, k);
}

/**
 * {@link levenshteinDistance} in code points with the bound `k` (an integer >= 0 or Infinity), unchecked: for callers
 * that have checked their texts and bound once already (the evaluators, per row).
 */
export function codePointLevenshtein(a: string, b: string, k: number): number {
  const engine: SliceEngine = (backend !== "js" && wasmEngine()) || jsSliceEngine;
  return codePointDistance(a, b, k, engine, backend === "wasm" ? 0 : SHORT_UNITS);
}

/** A key of `opts` that is not an option: `{ maxDistanse: 1 }` was read as no bound, unsaid (TypeScript refuses it only in an object literal). */
function unknownOption(key: string): EvalError {
  const message = `levenshteinDistance: opts.${key} is not an option (opts takes maxDistance and unit)`;
  return new EvalError("INPUT_INVALID", message, { issues: [{ path: ["opts", key], message, expected: "maxDistance or unit", received: key }] });
}

/**
 * Levenshtein distance between two sequences of integer symbols (compared
 * with `===`), e.g. token or grapheme ids. Same costs, bound semantics and
 * complexity as {@link levenshteinDistance}; int32 symbols can use the
 * WebAssembly engine, any other numbers use the TypeScript one.
 *
 * @param maxDistance integer ≥ 0 or Infinity (default).
 * @throws EvalError (INPUT_INVALID) on an invalid `maxDistance`, or a symbol
 *   that is not a finite number (named by index: `a[3]`; NaN, which `===`
 *   never matches, was counted as matching NaN).
 */
export function sequenceDistance(a: ArrayLike<number>, b: ArrayLike<number>, maxDistance?: number): number {
  const bad = notNumbers("sequenceDistance", "a", a) ?? notNumbers("sequenceDistance", "b", b);
  if (bad) throw bad;
  const k = checkMaxDistance("sequenceDistance", maxDistance);
  const entry = nonFiniteEntry("sequenceDistance", "a", a) ?? nonFiniteEntry("sequenceDistance", "b", b);
  if (entry) throw entry;
  return symbolDistance(a, b, k);
}

/** {@link sequenceDistance} of symbols and a bound already checked (grapheme ids come here directly). */
function symbolDistance(a: ArrayLike<number>, b: ArrayLike<number>, k: number): number {
  if (backend !== "js" && (backend === "wasm" || Math.min(a.length, b.length) > SHORT_SEQUENCE)) {
    const engine = wasmEngine();
    const d = engine?.ints(a, b, k);
    if (d !== undefined) return d;
  }
  return bitParallelDistance(a, b, k);
}

function checkMaxDistance(fn: string, value: number | undefined): number {
  if (value === undefined || value === Infinity) return Infinity;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw badArgument(fn, "maxDistance", "a non-negative integer or Infinity", value);
  return value;
}
