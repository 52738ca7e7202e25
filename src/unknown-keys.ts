import { describeValue, EvalError } from "./errors.js";
import { didYouMean } from "./evaluators/suggest.js";

/**
 * Throws CONFIG_INVALID naming the first key of `options` (the argument `arg` of function `fn`) that is not one of
 * `known`, with the closest known one when there is one: `createEvaluator(spec, { embeddingProvider })` used the
 * built-in providers in place of the caller's, and `runDataset({ countSkipedAsZero: true })` counted skipped rows
 * out, each unsaid. TypeScript refuses such a key in an object literal, not in an object built elsewhere, nor in JavaScript.
 */
export function refuseUnknownKeys(fn: string, arg: string, options: Record<string, unknown>, known: readonly string[]): void {
  const key = Object.keys(options).find((k) => !known.includes(k));
  if (key === undefined) return;
  const message = `${fn}: ${arg}.${key} is not an option (${arg} takes ${known.join(", ")}).${didYouMean(key, known)}`;
  const issue = { path: [...arg.split("."), key], message, expected: `one of ${known.join(", ")}`, received: describeValue(options[key]) };
  throw new EvalError("CONFIG_INVALID", message, { issues: [issue] });
}

/**
 * `keys`, which must name every key of `T` (a type error names the ones left out): the list of a function's options
 * that {@link refuseUnknownKeys} holds callers to, so that an option added to `T` and not to its list fails to compile
 * instead of being refused at run time. `everyKey<Options>()(["a", "b"])`.
 */
export function everyKey<T>() {
  return <const K extends readonly (keyof T)[]>(keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, K[number]> })): K => keys;
}
