import { EvalError } from "../errors.js";

/** Parses a command-line option holding JSON; a USAGE error names the option and the parser's complaint. */
export function parseJsonOption(option: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EvalError("USAGE", `${option} is not valid JSON (${(error as Error).message}); received ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)}`);
  }
}

/**
 * Where a JSON.parse error lies in `text`, as " at line L, column C" (1-based; the column counts
 * UTF-16 units, as the parser's position does), from the position V8 puts in most messages, or the end
 * of the text when it ended too soon. Empty when the message gives no position.
 */
export function jsonErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const at = /at position (\d+)/.exec(message);
  const offset = at ? Number(at[1]) : /Unexpected end of JSON input/.test(message) ? text.length : -1;
  if (offset < 0 || offset > text.length) return "";
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return ` at line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}
