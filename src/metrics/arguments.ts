/**
 * Argument checks at the public metric functions' boundary. TypeScript callers cannot pass a non-string
 * where a text is expected, but JavaScript callers can, and `null` or a number would otherwise crash deep
 * inside an engine or, worse, give a plausible number. Each public function checks its texts once per
 * call (`typeof`), never inside its loops; the engines behind it trust their arguments.
 */
import { describeValue, EvalError } from "../errors.js";

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
