import { EvalError, formatPath } from "../errors.js";

/**
 * How a non-string input becomes text: numbers and booleans become their JSON text; objects and
 * arrays become canonical JSON (keys sorted at every depth by code unit, compact separators,
 * non-ASCII kept as is), so `{"a":1,"b":2}` equals `{"b":2,"a":1}`.
 *
 * Throws an INPUT_INVALID {@link EvalError} naming `what` (the parameter, e.g. "output") for a value
 * that has no JSON text: a BigInt, a function or symbol, a circular structure, or a `toJSON` that throws;
 * and for NaN or ±Infinity anywhere in it (what JSON.parse makes of 1e400), which JSON would write as
 * null, so that it would be compared as the text "null" rather than as the number written; and for a value
 * nested more than {@link MAX_DEPTH} levels deep, which would overflow the stack.
 */
export function toText(value: unknown, what = "value"): string {
  if (typeof value === "string") return value;
  return canonicalJson(value, what);
}

/** JSON with object keys sorted at every depth; `undefined` members are left out as JSON does. */
export function canonicalJson(value: unknown, what = "value"): string {
  if (typeof value === "function" || typeof value === "symbol") throw unreadable(what, [], `a ${typeof value}`);
  const sorted = sortKeys(value, what, [], []);
  let text: string | undefined;
  try {
    text = JSON.stringify(sorted);
  } catch (error) {
    // Left inside values with their own toJSON (a BigInt or a cycle in what it returns, or a throwing toJSON).
    throw unreadable(what, [], error instanceof Error ? error.message : String(error), error);
  }
  return text ?? "";
}

/**
 * How deep arrays and objects may nest in a value made text: JSON.parse reads `[[[…]]]` 100,000 levels deep,
 * where turning it into text overflowed the stack (a RangeError that crashed a run given it as a literal).
 */
export const MAX_DEPTH = 512;

function sortKeys(value: unknown, what: string, path: (string | number)[], ancestors: object[]): unknown {
  if (typeof value === "bigint") throw unreadable(what, path, `a BigInt (${value}n)`);
  if (typeof value === "number" && !Number.isFinite(value)) {
    // NaN comes from a caller's own value (JSON has none): the string to give is "NaN", not the "1e400" that Infinity may have been written as.
    const nan = Number.isNaN(value);
    const why = nan ? "" : " (a number beyond ±1.8e308, such as 1e400, reads as Infinity)";
    throw unreadable(what, path, `the number ${value}, which JSON writes as null${why}`, undefined, `a finite number, or the value as a string (${nan ? '"NaN"' : '"1e400"'})`);
  }
  if (value === null || typeof value !== "object") return value;
  // The path to it is MAX_DEPTH steps long: too long to print.
  if (ancestors.length >= MAX_DEPTH) throw unreadable(what, [], `arrays or objects nested more than ${MAX_DEPTH} levels deep`, undefined, `a value nested at most ${MAX_DEPTH} levels deep`);
  if (ancestors.includes(value)) throw unreadable(what, path, "a circular reference (an object that contains itself)");
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  ancestors.push(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((v, i) => sortKeys(v, what, [...path, i], ancestors));
  else {
    // No prototype: a "__proto__" key (an own key of what JSON.parse makes) is then a plain key, where
    // `{}` took it for the prototype setter and the key was left out of the text.
    const sorted = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key], what, [...path, key], ancestors);
    out = sorted;
  }
  ancestors.pop();
  return out;
}

function unreadable(what: string, path: (string | number)[], found: string, cause?: unknown, expected = "a string, number, boolean, or JSON-compatible object or array"): EvalError {
  const at = path.length ? ` at ${formatPath(path)}` : "";
  const message = `${what}: cannot turn the value into text: found ${found}${at}; expected ${expected}`;
  return new EvalError("INPUT_INVALID", message, { cause, issues: [{ path: [what, ...path], message, expected, received: found }] });
}
