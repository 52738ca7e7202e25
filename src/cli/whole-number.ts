import { EvalError } from "../errors.js";

/**
 * The value of a whole-number option (`--seed`, `--workers`, `--last`): decimal digits only, since Number()
 * takes "" as 0, "0x10" as 16 and "1e3" as 1000; a leading "-" only where `min` is not given. Anything else,
 * or a number below `min` or past 2^53, is a USAGE error (exit 2): `${flag} takes ${expected}, received "…"` (past 2^53,
 * saying so, since the digits themselves meet `expected`).
 */
export function wholeNumberOption(flag: string, text: string, expected: string, min?: number): number {
  const value = (min === undefined ? /^-?\d+$/ : /^\d+$/).test(text) ? Number(text) : Number.NaN;
  // Digits past 2^53 meet "a whole number >= 1" as written: the message says what bound they pass.
  const tooLarge = value > Number.MAX_SAFE_INTEGER ? `, more than the largest it takes, ${Number.MAX_SAFE_INTEGER}` : value < -Number.MAX_SAFE_INTEGER ? `, less than the smallest it takes, -${Number.MAX_SAFE_INTEGER}` : "";
  if (!Number.isSafeInteger(value) || (min !== undefined && value < min)) throw new EvalError("USAGE", `${flag} takes ${expected}, received ${JSON.stringify(text)}${tooLarge}`);
  return value;
}
