/**
 * Argument checks at the public metric functions' boundary. TypeScript callers cannot pass a non-string
 * where a text is expected, but JavaScript callers can, and `null` or a number would otherwise crash deep
 * inside an engine or, worse, give a plausible number. Each public function checks its texts once per
 * call (`typeof`), never inside its loops; the engines behind it trust their arguments.
 */
import { argumentError, describeValue, EvalError } from "../errors.js";

/**
 * The error for an argument that should be a string and is not: INPUT_INVALID, naming the function, the
 * argument and what was received, with one issue at the argument's name. Call it only once `typeof`
 * has failed: `if (typeof a !== "string") throw notAString("levenshteinDistance", "a", a);`.
 */
export function notAString(fn: string, arg: string, value: unknown): EvalError {
  const received = describeValue(value);
  const message = `${fn}: argument ${arg} must be a string, received ${received}`;
  return new EvalError("INPUT_INVALID", message, { issues: [{ path: [arg], message, expected: "string", received }] });
}

/**
 * The error for an argument that should be a list of tokens and is not: a string (which would be read as
 * its characters and give a plausible number), or something that is not iterable. INPUT_INVALID, as
 * {@link notAString}. Returns undefined when `value` is a list, so that callers write
 * `const e = notTokens(...); if (e) throw e;` only at the public boundary.
 */
export function notTokens(fn: string, arg: string, value: unknown): EvalError | undefined {
  if (typeof value === "object" && value !== null && Symbol.iterator in value) return undefined;
  const received = describeValue(value);
  const hint = typeof value === "string" ? " (split a text with wordTokens(text) or charNgrams(text, n) first)" : "";
  const message = `${fn}: argument ${arg} must be an array of tokens${hint}, received ${received}`;
  return new EvalError("INPUT_INVALID", message, { issues: [{ path: [arg], message, expected: "array of tokens", received }] });
}

/**
 * The error for the entry of a list of tokens that is not a string (a number, null, a `[key, value]` pair
 * of a Map), naming it by index (`jaccardSimilarity: a[1] must be a string (a token), received number 1`):
 * counted as it was, `1` and `"1"` were two tokens, and a Map's pairs were never equal. Call it from the
 * loop that reads the tokens, once `typeof` has failed.
 */
export function notAToken(fn: string, arg: string, index: number, value: unknown): EvalError {
  return badArgument(fn, `${arg}[${index}]`, "a string (a token)", value, [arg, index]);
}

/**
 * The error for an argument or option outside what the function takes (an n-gram size of 0, a negative
 * maxDistance, vectors of different lengths): INPUT_INVALID, as {@link notAString}. `path` locates the
 * issue when `arg` is not a plain name (`["a", 3]` for `a[3]`).
 */
export function badArgument(fn: string, arg: string, expected: string, value: unknown, path: (string | number)[] = [arg]): EvalError {
  return argumentError("INPUT_INVALID", fn, arg, expected, value, path);
}

/**
 * The error for the first entry of `values` that is not a finite number (NaN, ±Infinity, or not a number
 * at all), naming it by index (`cosineSimilarity: a[3] must be a finite number, received number NaN`);
 * undefined when every entry is one. One pass: call it where a metric has no loop of its own over the
 * entries to check in, or once its loop has shown that some entry is not finite.
 */
export function nonFiniteEntry(fn: string, arg: string, values: ArrayLike<unknown>): EvalError | undefined {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) return badArgument(fn, `${arg}[${i}]`, "a finite number", v, [arg, i]);
  }
  return undefined;
}

/**
 * The error for an argument that should be an array of numbers (a vector, a symbol sequence) and is not
 * (see {@link notTokens}), or an array-like whose `length` is not an integer >= 0: read as given, a length
 * of 1.5 or -3 gave sequenceDistance -0.5 or -3.
 */
export function notNumbers(fn: string, arg: string, value: unknown): EvalError | undefined {
  const length = typeof value === "object" && value !== null ? (value as { length?: unknown }).length : undefined;
  if (typeof length === "number" && Number.isSafeInteger(length) && length >= 0) return undefined;
  const received = typeof length === "number" ? `an object of length ${length}` : describeValue(value);
  const message = `${fn}: argument ${arg} must be an array of numbers, received ${received}`;
  return new EvalError("INPUT_INVALID", message, { issues: [{ path: [arg], message, expected: "array of numbers", received }] });
}
