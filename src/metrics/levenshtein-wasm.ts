/**
 * The 64-bit WebAssembly Levenshtein engine (compiled from asm/levenshtein.ts
 * by scripts/build-wasm.mjs) and the glue that feeds it.
 *
 * The module arrives as base64 in a generated TS module; it is compiled and
 * instantiated synchronously on first use. When the generated module is
 * missing, WebAssembly is unavailable or instantiation fails, the loader
 * returns undefined and callers use the TypeScript engine — silently.
 * No file system access: this runs in any JS runtime.
 */

/** The slice of the WebAssembly JS API used here (the project's libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  Memory: abstract new (...args: never[]) => WasmMemory;
}

/** Exports of the compiled module (see asm/levenshtein.ts). */
interface LevenshteinExports {
  readonly memory: WasmMemory;
  reserve(capA: number, capB: number): void;
  inputU16A(): number;
  inputU16B(): number;
  inputI32A(): number;
  inputI32B(): number;
  distanceUtf16(m: number, n: number, k: number): number;
  distanceInts(m: number, n: number, k: number): number;
  setDenseLimit(entries: number): void;
}

const FUNCTIONS = [
  "reserve",
  "inputU16A",
  "inputU16B",
  "inputI32A",
  "inputI32B",
  "distanceUtf16",
  "distanceInts",
  "setDenseLimit",
] as const;

/** WebAssembly i32 bound standing for "no bound". */
const NO_BOUND = 0x7fffffff;

// The generated module is optional (git-ignored, produced by the build), so it
// is imported through a non-literal specifier that neither tsc nor bundlers
// resolve ahead of time; failure just means "no WebAssembly".
const generatedSpecifier = "./generated/levenshtein-wasm.js";
let wasmBase64: string | undefined;
try {
  const generated: unknown = await import(generatedSpecifier);
  if (typeof generated === "object" && generated !== null && "wasmBase64" in generated) {
    const value: unknown = generated.wasmBase64;
    if (typeof value === "string") wasmBase64 = value;
  }
} catch {
  wasmBase64 = undefined;
}

/**
 * A loaded module plus reusable views of its memory. Inputs are written
 * straight into the module's memory (UTF-16 units as u16, integer symbols as
 * i32); the module decodes code points itself. Buffers only grow.
 */
class WasmEngine {
  readonly #exports: LevenshteinExports;
  #buffer: ArrayBuffer;
  #u16: Uint16Array;
  #i32: Int32Array;
  #capA = -1;
  #capB = -1;
  #u16A = 0;
  #u16B = 0;
  #i32A = 0;
  #i32B = 0;

  constructor(exports: LevenshteinExports) {
    this.#exports = exports;
    this.#buffer = exports.memory.buffer;
    this.#u16 = new Uint16Array(this.#buffer);
    this.#i32 = new Int32Array(this.#buffer);
    this.#reserve(1024, 1024);
  }

  /**
   * Code-point distance between `a[aStart, aStart+m)` and `b[bStart,
   * bStart+n)` (UTF-16 slices, surrogate pairs decoded in the module).
   * Exact when ≤ k, some value > k otherwise; -1 if the module trapped (it is
   * then retired and the caller must use the TypeScript engine).
   * O(m + n) to copy, then the bit-parallel run (≈ ⌈min(m, 2k+1)/64⌉·n word
   * steps).
   */
  units(a: string, aStart: number, m: number, b: string, bStart: number, n: number, k: number): number {
    if (m > this.#capA || n > this.#capB) this.#reserve(m, n);
    else if (this.#exports.memory.buffer !== this.#buffer) this.#refresh();
    const u16 = this.#u16;
    for (let i = 0, o = this.#u16A; i < m; i++) u16[o + i] = a.charCodeAt(aStart + i);
    for (let i = 0, o = this.#u16B; i < n; i++) u16[o + i] = b.charCodeAt(bStart + i);
    try {
      return this.#exports.distanceUtf16(m, n, Math.min(k, NO_BOUND));
    } catch {
      return this.#fail();
    }
  }

  /**
   * Distance between integer sequences; undefined when a symbol is not an
   * int32 or the module trapped (the caller then uses the TypeScript engine).
   */
  ints(a: ArrayLike<number>, b: ArrayLike<number>, k: number): number | undefined {
    const m = a.length;
    const n = b.length;
    if (m > this.#capA || n > this.#capB) this.#reserve(m, n);
    else if (this.#exports.memory.buffer !== this.#buffer) this.#refresh();
    const i32 = this.#i32;
    for (let i = 0, o = this.#i32A; i < m; i++) {
      const v = a[i]!;
      if ((v | 0) !== v) return undefined;
      i32[o + i] = v;
    }
    for (let i = 0, o = this.#i32B; i < n; i++) {
      const v = b[i]!;
      if ((v | 0) !== v) return undefined;
      i32[o + i] = v;
    }
    try {
      return this.#exports.distanceInts(m, n, Math.min(k, NO_BOUND));
    } catch {
      this.#fail();
      return undefined;
    }
  }

  /**
   * A trap (memory.grow refused) can leave the module's tables half-updated:
   * retire the engine for good and tell the caller to use TypeScript (-1).
   */
  #fail(): number {
    engine = null;
    return -1;
  }

  /** For tests: see setDenseLimitForTests in levenshtein-bitparallel.ts (u64 entries here). */
  setDenseLimit(entries: number | undefined): void {
    this.#exports.setDenseLimit(entries ?? 0);
  }

  #reserve(m: number, n: number): void {
    // Grow geometrically so a stream of slightly longer inputs reserves rarely.
    this.#capA = Math.max(m, this.#capA * 2, 1024);
    this.#capB = Math.max(n, this.#capB * 2, 1024);
    this.#exports.reserve(this.#capA, this.#capB);
    this.#u16A = this.#exports.inputU16A() >>> 1;
    this.#u16B = this.#exports.inputU16B() >>> 1;
    this.#i32A = this.#exports.inputI32A() >>> 2;
    this.#i32B = this.#exports.inputI32B() >>> 2;
    this.#refresh();
  }

  /** memory.grow detaches the old ArrayBuffer: take new views. */
  #refresh(): void {
    this.#buffer = this.#exports.memory.buffer;
    this.#u16 = new Uint16Array(this.#buffer);
    this.#i32 = new Int32Array(this.#buffer);
  }
}

let engine: WasmEngine | null | undefined;

/**
 * The WebAssembly engine, instantiated on first call; undefined when it cannot
 * be had (no generated module, no WebAssembly, instantiation failure).
 */
export function wasmEngine(): WasmEngine | undefined {
  if (engine === undefined) engine = instantiate();
  return engine ?? undefined;
}

function instantiate(): WasmEngine | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (wasmBase64 === undefined || wasm === undefined) return null;
  try {
    const module = new wasm.Module(decodeBase64(wasmBase64));
    const exports = new wasm.Instance(module, {}).exports;
    if (!isLevenshteinExports(wasm, exports)) return null;
    return new WasmEngine(exports);
  } catch {
    return null;
  }
}

function isLevenshteinExports(wasm: WasmApi, exports: Record<string, unknown>): exports is Record<string, unknown> & LevenshteinExports {
  return exports["memory"] instanceof wasm.Memory && FUNCTIONS.every((name) => typeof exports[name] === "function");
}

/** Base64 → bytes with `atob`, available in browsers, Node ≥ 16, Deno and Bun. */
function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
