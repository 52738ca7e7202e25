/**
 * The report renderers' check of their input, at the boundary: the input is an object and each top-level
 * field is of its kind (an array is not looked into). Called with nothing, null or `{}`, a renderer threw
 * a TypeError from deep inside; the CLI builds its inputs typed, so this is for JavaScript callers.
 */
import { argumentError, EvalError, isPlainObject } from "../errors.js";

/** What a field must be: "object", "array", "string", "number", or "iterable" (of rows). */
type Kind = "object" | "array" | "string" | "number" | "iterable";

const EXPECTED: Record<Kind, string> = {
  object: "an object (the run's id, name, started_at, …)",
  array: "an array",
  string: "a string",
  number: "a number",
  iterable: "an iterable of row outcomes",
};

function isKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case "object":
      return isPlainObject(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "iterable":
      return typeof value === "object" && value !== null && Symbol.iterator in value;
  }
}

/**
 * Throws INPUT_INVALID, naming the renderer and the field (`renderJUnit: input.rows must be …, received
 * number 5`), unless `input` is an object whose fields are of their kinds: `required` must be there,
 * `optional` may be left out (undefined).
 */
export function checkReportInput(fn: string, what: string, input: unknown, required: Record<string, Kind>, optional: Record<string, Kind> = {}): void {
  if (!isKind(input, "object")) throw inputInvalid(fn, "input", what, input);
  const fields = input as Record<string, unknown>;
  for (const [key, kind] of Object.entries(required)) {
    if (!isKind(fields[key], kind)) throw inputInvalid(fn, `input.${key}`, EXPECTED[kind], fields[key]);
  }
  for (const [key, kind] of Object.entries(optional)) {
    const value = fields[key];
    if (value !== undefined && !isKind(value, kind)) throw inputInvalid(fn, `input.${key}`, `${EXPECTED[kind]} or nothing`, value);
  }
}

function inputInvalid(fn: string, arg: string, expected: string, value: unknown): EvalError {
  return argumentError("INPUT_INVALID", fn, arg, expected, value);
}
